// search_pages: GET /api/search as a tool.
import { searchMarkdown } from '../../render/markdown/records.ts';
import { search } from '../../queries/search.ts';
import type { UnifiedParams } from '../../queries/unified.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

export const searchPages: Tool<UnifiedParams> = {
  name: 'search_pages',
  title: 'Search agenda and minutes pages',
  description: [
    'Full-text (BM25) search over the PDF pages of San Francisco Board of Supervisors agendas and minutes, 2012–2026; the same as GET /api/search.',
    'Use it to find where something is mentioned (a file number such as 160965 ranks the pages holding it first; a quoted "phrase" must match as a phrase), then read a page with get_record.',
    'For legislation with its roll calls prefer search_items; for what speakers said, search_public_comments; for a whole question, ask.',
    'With type/supervisor/position/final it returns the unified list (files first, then votes, comments, pages).',
    'A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project; read the action text.',
  ].join(' '),
  input: paramsSchema('params/search.json'),
  params: 'params/search.json',
  output: responseOutput('search-response.json'),
  run: ({ release, urls }, p) => search(release, urls, p),
  markdown: searchMarkdown,
  more: 'lower `limit`, or narrow with year/from/to/kind; pages have no offset, so refine the words',
};
