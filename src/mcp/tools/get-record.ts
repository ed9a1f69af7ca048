// get_record: one page, legislative item or public comment with its evidence, by id or by its transcriptUrl or
// markdownUrl (GET /api/pages/:id, /api/items/:id, /api/comments/:id as one tool).
import { pageId } from '../../../core/lake/ids.ts';
import { notFound } from '../../http/errors.ts';
import { InvalidParameter } from '../../queries/errors.ts';
import { commentMarkdown, itemMarkdown, pageMarkdown } from '../../render/markdown/records.ts';
import { getComment } from '../../queries/comments.ts';
import { getItem } from '../../queries/items.ts';
import { getPage } from '../../queries/pages.ts';
import { checkResponse, schema } from '../../schemas.ts';
import { inline, output } from '../schema.ts';
import type { Tool } from '../tool.ts';

type Kind = 'page' | 'item' | 'comment';
interface Params { id: string; kind: Kind | null }
type Body = { kind: Kind; record: Record<string, any>; page?: Record<string, any> };

const COLLECTIONS: Record<string, Kind> = { pages: 'page', items: 'item', comments: 'comment' };

/** Exactly one of `id` and `url`; a URL must be a record link of this service (any host: links may be proxied). */
function parse(args: Record<string, unknown>): Params {
  const bad = (parameter: string, rule: string, message: string) => new InvalidParameter([{ parameter, rule, message }]);
  for (const k of Object.keys(args)) if (k !== 'id' && k !== 'url') throw bad(k, 'unknown', `${k} is not a parameter of this endpoint`);
  const { id, url } = args;
  if (id !== undefined && url !== undefined) throw bad('id', 'one-of', 'give either id or url, not both');
  if (id === undefined && url === undefined) throw bad('id', 'required', 'id or url is required');
  for (const [name, v, max] of [['id', id, 200], ['url', url, 2000]] as const) {
    if (v === undefined) continue;
    if (typeof v !== 'string') throw bad(name, 'type', `${name} must be a string (got ${JSON.stringify(v)})`);
    if (v.length < 1 || v.length > max) throw bad(name, v.length < 1 ? 'minLength' : 'maxLength', `${name} must be 1 to ${max} characters (got ${v.length})`);
  }
  if (typeof id === 'string') return { id, kind: null };
  const m = /\/api\/(pages|items|comments)\/([^/?#]+?)(?:\.md)?(?:[?#].*)?$/.exec(url as string);
  if (!m) throw bad('url', 'pattern', `url must be a record's transcriptUrl or markdownUrl (…/api/pages/<id>, …/api/items/<id> or …/api/comments/<id>, optionally with .md) (got '${String(url).slice(0, 80)}')`);
  return { id: decodeURIComponent(m[2]), kind: COLLECTIONS[m[1]] };
}

const recordSchemas = { page: 'page-record.json', item: 'item-record.json', comment: 'comment-record.json' } as const;
const strip = (id: string) => { const { title, description, ...s } = inline(schema(id)); return s; };

export const getRecord: Tool<Params, Body> = {
  name: 'get_record',
  title: 'Get a record with its evidence',
  description: [
    'Fetch one record in full, by `id` or by `url` (a transcriptUrl or markdownUrl from any search result).',
    'A page gives its text with layout, running header and footer; a legislative item gives its whole block text, sponsors, roll calls with the action before each vote, extracted amounts/units/addresses and the public comment taken in its hearing; a public comment gives the Clerk\'s summary plus the text of the page it is on.',
    'Every record carries officialUrl, the authoritative City PDF (with #page=N) to cite.',
    'A recorded position is not a stance on the underlying matter: read the action text of each roll call.',
  ].join(' '),
  input: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 200, description: 'A record id from a search result, e.g. 2016-11-01-minutes-160965 (item), 2016-11-01-minutes-p4 (page), 2016-11-01-minutes-c004 (comment).' },
      url: { type: 'string', minLength: 1, maxLength: 2000, description: "A result's transcriptUrl or markdownUrl (…/api/items/<id>, …/api/pages/<id>.md, …)." },
    },
  },
  parse,
  output: output(
    {
      type: 'object',
      required: ['kind', 'record'],
      properties: {
        kind: { enum: ['page', 'item', 'comment'] },
        record: { anyOf: [strip('page-record.json'), strip('item-record.json'), strip('comment-record.json')] },
        page: { ...strip('page-record.json'), description: 'For a comment: the page it is on.' },
      },
    },
    (b: Body) => [
      ...(recordSchemas[b.kind] ? checkResponse(recordSchemas[b.kind], b.record) : [{ instancePath: '/kind', message: 'is not a record kind' }]),
      ...(b.page ? checkResponse('page-record.json', b.page) : []),
    ],
  ),
  async run({ release, urls }, p) {
    const get = { page: getPage, item: getItem, comment: getComment };
    const kinds: Kind[] = p.kind ? [p.kind] : ['item', 'page', 'comment'];
    for (const kind of kinds) {
      const record: Record<string, any> | null = await get[kind](release, urls, p.id);
      if (!record) continue;
      if (kind !== 'comment') return { kind, record };
      const page = await getPage(release, urls, pageId(record.documentId, record.page));
      return { kind, record, ...(page ? { page } : {}) };
    }
    throw notFound(`no ${p.kind ?? 'record'} '${p.id}' in release ${release.id}`);
  },
  markdown: (b) => {
    if (b.kind === 'page') return pageMarkdown(b.record);
    if (b.kind === 'item') return itemMarkdown(b.record);
    return commentMarkdown(b.record) + (b.page ? `\n## The page it is on\n\n${pageMarkdown(b.page).replace(/^# /, '### ')}` : '');
  },
  more: 'the record link (transcriptUrl / markdownUrl) holds everything',
};
