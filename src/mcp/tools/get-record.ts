// get_record: one record by id or by any record URL the API hands out: a page, legislative item or public comment with
// its evidence (GET /api/pages/:id, /api/items/:id, /api/comments/:id), a meeting (/api/meetings/:date), or a snapshot
// record (/api/snapshots/:entity/:id, the change feed's record URLs).
import type { EntityName } from '../../../core/lake/format.ts';
import { pageId } from '../../../core/lake/ids.ts';
import { notFound } from '../../http/errors.ts';
import { getComment, getItem, getMeeting, getPage, snapshotRecord } from '../../http/typed-queries.ts';
import type { Urls } from '../../http/urls.ts';
import type { Release } from '../../lake/release.ts';
import { InvalidParameter } from '../../queries/errors.ts';
import { meetingDate } from '../../queries/meetings.ts';
import { entity } from '../../queries/snapshots.ts';
import { fence } from '../../render/markdown/escape.ts';
import { meetingMarkdown } from '../../render/markdown/meetings.ts';
import { commentMarkdown, itemMarkdown, pageMarkdown } from '../../render/markdown/records.ts';
import type { CommentRecord, ItemRecord, MeetingRecord, PageRecord, SnapshotRecord } from '../../schema-types.ts';
import { checkResponse } from '../../schemas.ts';
import { output } from '../schema.ts';
import { tool } from '../tool.ts';

type Kind = 'page' | 'item' | 'comment' | 'meeting' | 'snapshot';
interface Params {
  id: string;
  kind: Kind | null;
  entity?: EntityName;
}
type Body =
  | { kind: 'page'; record: PageRecord }
  | { kind: 'item'; record: ItemRecord }
  | { kind: 'comment'; record: CommentRecord; page?: PageRecord }
  | { kind: 'meeting'; record: MeetingRecord }
  | { kind: 'snapshot'; record: SnapshotRecord };

const COLLECTIONS: Record<string, Kind> = { pages: 'page', items: 'item', comments: 'comment', meetings: 'meeting' };
const RECORD_URL = /\/api\/(?:(pages|items|comments|meetings)|snapshots\/([a-z-]+))\/([^/?#]+?)(?:\.md)?(?:[?#].*)?$/;

/** Exactly one of `id` and `url`; a URL must be a record link of this service (any host: links may be proxied). */
function parse(args: Record<string, unknown>): Params {
  const bad = (parameter: string, rule: string, message: string) =>
    new InvalidParameter([{ parameter, rule, message }]);
  for (const k of Object.keys(args))
    if (k !== 'id' && k !== 'url') throw bad(k, 'unknown', `${k} is not a parameter of this endpoint`);
  const { id, url } = args;
  if (id !== undefined && url !== undefined) throw bad('id', 'one-of', 'give either id or url, not both');
  if (id === undefined && url === undefined) throw bad('id', 'required', 'id or url is required');
  for (const [name, v, max] of [
    ['id', id, 200],
    ['url', url, 2000],
  ] as const) {
    if (v === undefined) continue;
    if (typeof v !== 'string') throw bad(name, 'type', `${name} must be a string (got ${JSON.stringify(v)})`);
    if (v.length < 1 || v.length > max)
      throw bad(
        name,
        v.length < 1 ? 'minLength' : 'maxLength',
        `${name} must be 1 to ${max} characters (got ${v.length})`,
      );
  }
  if (typeof id === 'string') return { id, kind: null };
  const m = RECORD_URL.exec(url as string);
  if (!m || (m[2] && !entity(m[2])))
    throw bad(
      'url',
      'pattern',
      `url must be a record URL of this service (…/api/items/<id>, …/api/pages/<id>, …/api/comments/<id>, …/api/meetings/<date>, optionally with .md, or a change's …/api/snapshots/<entity>/<key>) (got '${String(url).slice(0, 80)}')`,
    );
  const key = decodeURIComponent(m[3]);
  return m[2] ? { id: key, kind: 'snapshot', entity: m[2] as EntityName } : { id: key, kind: COLLECTIONS[m[1]] };
}

/** One record of `kind` (a comment with the page it is on), or null. */
async function read(kind: Exclude<Kind, 'snapshot'>, release: Release, urls: Urls, id: string): Promise<Body | null> {
  switch (kind) {
    case 'page': {
      const record = await getPage(release, urls, id);
      return record && { kind, record };
    }
    case 'item': {
      const record = await getItem(release, urls, id);
      return record && { kind, record };
    }
    case 'meeting': {
      const record = await getMeeting(release, urls, meetingDate(id), {});
      return record && { kind, record };
    }
    case 'comment': {
      const record = await getComment(release, urls, id);
      if (!record) return null;
      const page = await getPage(release, urls, pageId(record.documentId, record.page));
      return { kind, record, ...(page ? { page } : {}) };
    }
  }
}

const recordSchemas = {
  page: 'page-record.json',
  item: 'item-record.json',
  comment: 'comment-record.json',
  meeting: 'meeting-record.json',
  snapshot: 'snapshot-record.json',
} as const;

export const getRecord = tool<Params, Body>({
  name: 'get_record',
  title: 'Get a record with its evidence',
  description: [
    "One record in full, by `id` or by any record URL an answer gives (transcriptUrl, markdownUrl, meetingUrl, a change's url): a page's text; an item's block, roll calls, extracted facts and the comment in its hearing; a comment with its page; a meeting; a snapshot record.",
    "Cite officialUrl, the City PDF with #page=N. A recorded position is not a stance on the underlying matter: read each roll call's action.",
  ].join(' '),
  input: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description:
          'A record id, e.g. 2016-11-01-minutes-160965 (item), 2016-11-01-minutes-p4 (page), 2016-11-01-minutes-c004 (comment), 2016-11-01 (meeting).',
      },
      url: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        description: "A result's transcriptUrl or markdownUrl (…/api/items/<id>, …/api/pages/<id>.md, …).",
      },
    },
  },
  parse,
  output: output(
    {
      type: 'object',
      required: ['kind', 'record'],
      properties: {
        kind: { type: 'string', enum: ['page', 'item', 'comment', 'meeting', 'snapshot'] },
        record: { type: 'object' },
        page: { type: 'object', description: 'For a comment: the page it is on.' },
      },
    },
    (b: Body) => [
      ...(recordSchemas[b.kind]
        ? checkResponse(recordSchemas[b.kind], b.record)
        : [{ instancePath: '/kind', message: 'is not a record kind' }]),
      ...(b.kind === 'comment' && b.page ? checkResponse('page-record.json', b.page) : []),
    ],
  ),
  async run({ release, urls }, p) {
    if (p.kind === 'snapshot') {
      const record = await snapshotRecord(release, entity(p.entity!)!, p.id);
      if (!record) throw notFound(`no ${p.entity} record '${p.id}' in release ${release.id}`);
      return { kind: 'snapshot', record };
    }
    const kinds: Kind[] = p.kind
      ? [p.kind]
      : /^\d{4}-\d{2}-\d{2}$/.test(p.id)
        ? ['meeting']
        : ['item', 'page', 'comment'];
    for (const kind of kinds as Exclude<Kind, 'snapshot'>[]) {
      const found = await read(kind, release, urls, p.id);
      if (found) return found;
    }
    throw notFound(`no ${p.kind ?? 'record'} '${p.id}' in release ${release.id}`);
  },
  markdown: (b) => {
    if (b.kind === 'page') return pageMarkdown(b.record);
    if (b.kind === 'item') return itemMarkdown(b.record);
    if (b.kind === 'meeting') return meetingMarkdown(b.record);
    if (b.kind === 'snapshot') return `# Snapshot record\n\n${fence(JSON.stringify(b.record, null, 2), 'json')}\n`;
    return (
      commentMarkdown(b.record) +
      (b.page ? `\n## The page it is on\n\n${pageMarkdown(b.page).replace(/^# /, '### ')}` : '')
    );
  },
  more: 'the record link (transcriptUrl / markdownUrl) holds everything',
});
