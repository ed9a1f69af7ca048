// search_public_comments: GET /api/comments as a tool.
import { commentsMarkdown } from '../../render/markdown/records.ts';
import { searchComments as query, type CommentSearchParams } from '../../queries/comments.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

export const searchComments: Tool<CommentSearchParams> = {
  name: 'search_public_comments',
  title: 'Search public-comment summaries',
  description: [
    'Search speaker-level public-comment summaries parsed from Board minutes (speaker name as recorded, the Clerk\'s one-line summary, page, official PDF link); the same as GET /api/comments.',
    'Use it for who spoke about a topic or what a named speaker said (speaker filter). These are the Clerk\'s summaries, not verbatim transcripts; quote them as summaries.',
  ].join(' '),
  input: paramsSchema('params/comments.json'),
  params: 'params/comments.json',
  output: responseOutput('comment-search-response.json'),
  run: ({ release, urls }, p) => query(release, urls, p),
  markdown: commentsMarkdown,
  more: 'lower `limit`, add `speaker`, or narrow from/to',
};
