// ask: GET /api/query (the evidence bundle for a whole question) as a tool.
import { evidenceMarkdown } from '../../render/markdown/answers.ts';
import { evidenceBundle } from '../../queries/evidence.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

export const ask: Tool<{ q: string }> = {
  name: 'ask',
  title: 'Ask a question (evidence bundle)',
  description: [
    'Answer evidence for a whole natural-language question about the San Francisco Board of Supervisors (2012–2026); the same as GET /api/query.',
    'It infers a supervisor, years, a recorded position, final-action and housing/comment intent from the question (see `interpretation`), then searches legislative items with roll calls, PDF pages and public comments at once and returns them with guidance.',
    'Use it first when the question is open-ended; then narrow with search_items, vote_aggregate or housing_aggregate, and open hits with get_record.',
    'It returns evidence, not an answer: cite officialUrl. A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project, an aye on a motion to table the disapproval supports it; read the action text.',
  ].join(' '),
  input: paramsSchema('params/query.json'),
  params: 'params/query.json',
  output: responseOutput('evidence-bundle.json'),
  run: ({ release, urls }, p) => evidenceBundle(release, urls, p),
  markdown: evidenceMarkdown,
  more: 'ask a narrower question, or use search_items / search_pages / search_public_comments with a lower limit',
};
