// search_items: GET /api/items as a tool.
import { itemsMarkdown } from '../../render/markdown/records.ts';
import { searchItems as query, type ItemSearchParams } from '../../queries/items.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

export const searchItems: Tool<ItemSearchParams> = {
  name: 'search_items',
  title: 'Search legislative items and their roll calls',
  description: [
    'Search complete legislative-item blocks (files) taken from Board minutes and agendas, each with its recorded roll calls (ayes, noes, absent, excused) and the action text immediately before each vote; the same as GET /api/items.',
    'Use it for "what happened to file N", "how did supervisor X vote on Y" (voter, position, final), or to collapse repeated readings (groupBy=file) or companion records (groupBy=matter).',
    'An ambiguous or unknown voter comes back as an error listing the candidates.',
    'A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project, an aye on a motion to table the disapproval supports it. Read each roll call\'s action; no stance is inferred.',
    'Fetch one record in full (block text, roll calls, comments in its hearing) with get_record.',
  ].join(' '),
  input: paramsSchema('params/items.json'),
  params: 'params/items.json',
  output: responseOutput('item-search-response.json'),
  run: ({ release, urls }, p) => query(release, urls, p),
  markdown: itemsMarkdown,
  more: 'lower `limit`, use groupBy=file, or narrow from/to; fetch one record with get_record',
};
