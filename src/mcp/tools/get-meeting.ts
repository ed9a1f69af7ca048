// get_meeting: one meeting (GET /api/meetings/{date}) as a tool, its date an argument rather than a path segment.
// A meeting's items come a page at a time (`offset`, `limit`): the REST answer gives all of them, but a meeting of 91
// items with its votes is about 20k tokens, more than an agent should read at once.
import type { ParsedUrlQuery } from 'node:querystring';

import { notFound } from '../../http/errors.ts';
import { readParams } from '../../http/params.ts';
import { getMeeting } from '../../http/typed-queries.ts';
import { InvalidParameter } from '../../queries/errors.ts';
import { meetingDate } from '../../queries/meetings.ts';
import { meetingMarkdown } from '../../render/markdown/meetings.ts';
import type { MeetingParams, MeetingRecord } from '../../schema-types.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import { tool } from '../tool.ts';

/** Items per result: the largest meeting's page of votes and its public comment stay under about 8k tokens. */
export const ITEMS_PER_CALL = 12;

type Params = MeetingParams & { date: string; offset: number; limit: number };
type Paged = MeetingRecord & { itemsTotal: number; offset: number; nextOffset: number | null };

const input = paramsSchema('params/meeting.json');

/** A whole number in [min, max], or `fallback` when absent; otherwise refused naming the argument and the rule. */
function count(v: unknown, name: string, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new InvalidParameter([{ parameter: name, rule: 'type', message: `${name} must be an integer` }]);
  if (n < min || n > max)
    throw new InvalidParameter([
      { parameter: name, rule: n < min ? 'minimum' : 'maximum', message: `${name} must be ${min} to ${max}` },
    ]);
  return n;
}

export const getMeetingTool = tool<Params, Paged>({
  name: 'get_meeting',
  title: 'One meeting: items, votes, speakers',
  description: [
    'One meeting the lake holds (GET /api/meetings/{date}): documents with PDF links, `facts` (meeting type, members, who presided, call to order and adjournment times, late arrivals, as the documents print them), its items in agenda order with their actions, roll calls and printed results, every public commenter in order.',
    `Items come ${ITEMS_PER_CALL} at a time: itemsTotal says how many there are; call again with offset = nextOffset for the next ones (null after the last).`,
    'For "what happened on <date>", "which items were not adopted" (result=not-adopted) or "who spoke" (the Clerk\'s summaries, not verbatim). A recorded position is not a stance on the underlying matter.',
  ].join(' '),
  input: {
    ...input,
    required: ['date'],
    properties: {
      date: { type: 'string', description: 'The meeting date, YYYY-MM-DD.', examples: ['2016-11-01'] },
      ...(input.properties as object),
      offset: {
        type: 'integer',
        minimum: 0,
        default: 0,
        description: 'Items to skip: the previous result’s nextOffset.',
      },
      limit: { type: 'integer', minimum: 1, maximum: ITEMS_PER_CALL, default: ITEMS_PER_CALL },
    },
  },
  parse: (args) => {
    const { date, offset, limit, ...rest } = args;
    if (typeof date !== 'string')
      throw new InvalidParameter([
        { parameter: 'date', rule: 'required', message: 'date is required: the meeting date, YYYY-MM-DD' },
      ]);
    return {
      date: meetingDate(date),
      offset: count(offset, 'offset', 0, 10_000, 0),
      limit: count(limit, 'limit', 1, ITEMS_PER_CALL, ITEMS_PER_CALL),
      ...readParams('params/meeting.json', rest as ParsedUrlQuery),
    };
  },
  output: responseOutput('meeting-record.json', {
    itemsTotal: { type: 'integer' },
    offset: { type: 'integer' },
    nextOffset: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
  }),
  run: async ({ release, urls }, p) => {
    const m = await getMeeting(release, urls, p.date, p);
    if (!m) throw notFound(`the lake holds no meeting of ${p.date}; list_meetings gives the dates it holds`);
    const items = m.items.slice(p.offset, p.offset + p.limit);
    const end = p.offset + items.length;
    return { ...m, items, itemsTotal: m.items.length, offset: p.offset, nextOffset: end < m.items.length ? end : null };
  },
  markdown: (m) =>
    `${meetingMarkdown(m)}\n\n${
      m.items.length
        ? `Items ${m.offset + 1}–${m.offset + m.items.length} of ${m.itemsTotal} shown.`
        : `No item from number ${m.offset + 1}: the meeting lists ${m.itemsTotal}.`
    }${m.nextOffset === null ? '' : ` The next: get_meeting with offset=${m.nextOffset}.`}`,
  more: 'page with offset = nextOffset, filter with result or actionType, or open one item with get_record',
});
