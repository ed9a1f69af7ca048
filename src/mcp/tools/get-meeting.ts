// get_meeting: one meeting (GET /api/meetings/{date}) as a tool, its date an argument rather than a path segment.
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

type Params = MeetingParams & { date: string };

const input = paramsSchema('params/meeting.json');

export const getMeetingTool = tool<Params, MeetingRecord>({
  name: 'get_meeting',
  title: 'One meeting: items, votes, speakers',
  description: [
    'Everything the lake holds of one meeting (GET /api/meetings/{date}): documents with PDF links, every item in agenda order with its actions, roll calls and printed results, every public commenter in order.',
    'For "what happened on <date>", "which items were not adopted" (result=not-adopted) or "who spoke" (the Clerk\'s summaries, not verbatim). A recorded position is not a stance on the underlying matter.',
  ].join(' '),
  input: {
    ...input,
    required: ['date'],
    properties: {
      date: { type: 'string', description: 'The meeting date, YYYY-MM-DD.', examples: ['2016-11-01'] },
      ...(input.properties as object),
    },
  },
  parse: (args) => {
    const { date, ...rest } = args;
    if (typeof date !== 'string')
      throw new InvalidParameter([
        { parameter: 'date', rule: 'required', message: 'date is required: the meeting date, YYYY-MM-DD' },
      ]);
    return { date: meetingDate(date), ...readParams('params/meeting.json', rest as ParsedUrlQuery) };
  },
  output: responseOutput('meeting-record.json'),
  run: async ({ release, urls }, p) =>
    (await getMeeting(release, urls, p.date, p)) ??
    Promise.reject(notFound(`the lake holds no meeting of ${p.date}; list_meetings gives the dates it holds`)),
  markdown: meetingMarkdown,
  more: 'filter with result or actionType, or open one item with get_record',
});
