// Answers that say what the lake holds (issue 20), on the real corpus (37 meetings: 36 agendas only, 2016-11-01 with
// agenda and minutes): the coverage table and /api/coverage, coverage on every counting answer in JSON and Markdown,
// meetings as records, the date / actionType / result filters, and the questions an agent asks, through MCP.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { encode } from 'gpt-tokenizer';
import t from 'tap';

import { ACTION_TYPES, RESULTS } from '../core/lake/format.ts';
import { schema } from '../src/schemas.ts';
import type { Json } from './fixture.ts';
import { expectRefusal, get, getValid, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const valid = (path: string, schemaId: string) => getValid(t, `${running.url}${path}`, schemaId);
const md = async (path: string) => {
  const r = await get(`${running.url}${path}`);
  t.equal(r.status, 200, `${path} answers`);
  return r.text;
};
const MINUTES_DAY = '2016-11-01';
const VOTES_ONCE = `recorded votes for 1 (${MINUTES_DAY})`;

t.test('/api/coverage: exactly what the corpus holds', async (t) => {
  const c = await valid('/api/coverage', 'coverage-report.json');
  t.match(c.coverage, {
    from: 2012,
    to: 2026,
    meetings: 37,
    meetingsWithAgenda: 37,
    meetingsWithMinutes: 1,
    meetingsWithRollCalls: 1,
    meetingsWithComments: 1,
    firstMeeting: '2016-11-01',
    lastMeeting: '2020-09-15',
    years: [2016, 2017, 2019, 2020],
    rollCallMeetings: [MINUTES_DAY],
    synthetic: false,
  });
  t.match(c.coverage.statement, /documents of 37 meetings in 2012–2026/);
  t.match(c.coverage.statement, VOTES_ONCE);
  const byYear = Object.fromEntries(c.years.map((y: Json) => [y.year, y]));
  t.equal(c.years.length, 15, 'every year of the span, empty ones too');
  t.match(byYear[2016], {
    meetings: 5,
    agendas: 5,
    minutes: 1,
    meetingsWithRollCalls: 1,
    rollCalls: 44,
    comments: 16,
    firstMeeting: MINUTES_DAY,
    lastMeeting: '2016-12-13',
  });
  t.match(byYear[2018], { meetings: 0, rollCalls: 0, firstMeeting: null });
  t.equal(byYear[2017].meetings + byYear[2019].meetings + byYear[2020].meetings, 32);
  const one = await valid('/api/coverage?from=2018&to=2018', 'coverage-report.json');
  t.match(one.coverage, { meetings: 0, meetingsWithRollCalls: 0, years: [] });
  t.match(one.coverage.statement, /holds no meeting in 2018/);
  const text = await md('/api/coverage.md');
  t.match(text, /\| \[2016\]\(.*\/api\/meetings\?year=2016\) \| 5 \| 5 \| 1 \| 1 \| 1 \|/);
  await expectRefusal(t, `${running.url}/api/coverage?from=2011`, 'from', 'minimum');
});

t.test('every answer that counts or filters carries the coverage of its span, in JSON and Markdown', async (t) => {
  const answers: [string, string][] = [
    ['/api/items?q=housing', 'item-search-response.json'],
    ['/api/comments?q=concerns', 'comment-search-response.json'],
    ['/api/search?q=housing', 'search-response.json'],
    ['/api/search?q=housing&type=all&final=true', 'search-response.json'],
    ['/api/aggregates/votes?voter=Peskin&position=no', 'votes-aggregate.json'],
    ['/api/aggregates/housing?voter=Peskin', 'housing-aggregate.json'],
    ['/api/query?q=How%20often%20did%20Peskin%20vote%20no%3F', 'evidence-bundle.json'],
  ];
  for (const [path, id] of answers) {
    const body = await valid(path, id);
    t.match(body.coverage, { from: 2012, to: 2026, meetings: 37, meetingsWithRollCalls: 1 }, `${path}: coverage`);
    const [base, qs] = path.split('?');
    t.match(
      await md(`${base}.md?${qs}`),
      new RegExp(
        `^# .*\\n\\n> \\*\\*Coverage:\\*\\* The lake holds documents of 37 meetings in 2012–2026.*${VOTES_ONCE.replace(/[()]/g, '\\$&')}`,
      ),
      `${path}: Markdown says it under the heading`,
    );
  }
  // Peskin never voted no in what the lake holds; the answer must not read as 2012–2026 whole.
  const votes = await valid('/api/aggregates/votes?voter=Peskin&position=no', 'votes-aggregate.json');
  t.equal(votes.total, 0);
  t.match(votes.coverage.statement, /Counts of votes and comments cover only those meetings, not the whole span/);
  const ask = await valid('/api/query?q=How%20often%20did%20Peskin%20vote%20no%3F', 'evidence-bundle.json');
  t.equal(Object.keys(ask)[0], 'coverage', 'the bundle leads with its coverage');
  t.equal(ask.guidance[0], ask.coverage.statement, 'and so does its guidance');
  t.ok(ask.legislativeItems.returned <= 5, 'at most 5 items');
  const y2017 = await valid('/api/aggregates/votes?voter=Peskin&from=2017&to=2017', 'votes-aggregate.json');
  t.match(y2017.coverage, { from: 2017, to: 2017, meetings: 28, meetingsWithRollCalls: 0, rollCallMeetings: [] });
  t.match(y2017.coverage.statement, /recorded votes for 0;/);
  const meeting = await valid(`/api/items?q=housing&date=${MINUTES_DAY}`, 'item-search-response.json');
  t.match(
    meeting.coverage,
    { from: 2016, to: 2016, date: MINUTES_DAY, meetings: 1, meetingsWithRollCalls: 1 },
    'a date narrows the coverage to its meeting',
  );
  t.match(
    meeting.coverage.statement,
    /^The lake holds documents of 1 meeting on 2016-11-01\. Minutes exist for 1 of them/,
  );
});

t.test('/api/meetings lists the meetings the lake holds, and pages on', async (t) => {
  const y2016 = await valid('/api/meetings?year=2016', 'meeting-list.json');
  t.same(
    y2016.meetings.map((m: Json) => m.date),
    ['2016-11-01', '2016-11-15', '2016-11-29', '2016-12-06', '2016-12-13'],
  );
  t.match(y2016.meetings[0], { agenda: true, minutes: true, rollCalls: 44, comments: 16, items: 91, pages: 40 });
  t.same(
    y2016.meetings[0].documents.map((d: Json) => d.id),
    ['2016-11-01-agenda', '2016-11-01-minutes'],
  );
  t.match(y2016.meetings[1], { minutes: false, rollCalls: 0, comments: 0 });
  const first = await valid('/api/meetings?limit=20', 'meeting-list.json');
  t.same([first.total, first.returned, first.nextAfter], [37, 20, first.meetings[19].date]);
  const rest = await valid(`/api/meetings?limit=20&after=${first.nextAfter}`, 'meeting-list.json');
  t.same([rest.returned, rest.nextAfter], [17, null], 'the second page ends the list');
  t.equal(new Set([...first.meetings, ...rest.meetings].map((m: Json) => m.date)).size, 37, 'every meeting once');
  t.match(
    await md('/api/meetings.md?year=2020'),
    /- \[2020-03-31\]\(.*\/api\/meetings\/2020-03-31\.md\): \[agenda\]\(https:\/\//,
  );
});

t.test('/api/meetings/{date}: items in agenda order with actions and results, every commenter in order', async (t) => {
  const m = await valid(`/api/meetings/${MINUTES_DAY}`, 'meeting-record.json');
  t.equal(m.itemsFrom, '2016-11-01-minutes', 'the minutes, which record what happened');
  t.same(
    m.items.map((i: Json) => i.sequence),
    m.items.map((_: Json, n: number) => n + 1),
    'agenda order',
  );
  t.same(
    m.items.slice(0, 3).map((i: Json) => i.fileNumber),
    ['160424', '160553', '160962'],
    'the consent agenda first',
  );
  const rejected = m.items.find((i: Json) => i.fileNumber === '161169');
  t.same(
    rejected.rollCalls.map((rc: Json) => [rc.sequence, rc.result, rc.isFinal, rc.rescindedBy]),
    [
      [1, 'carried', false, null],
      [2, 'not-adopted', false, 3],
      [3, 'carried', false, null],
    ],
  );
  t.equal(m.comments.length, 16);
  t.same(
    m.comments.map((c: Json) => c.sequence),
    [...Array(16).keys()].map((n) => n + 1),
    'commenters in the order they spoke',
  );
  t.same(
    m.comments.slice(1, 4).map((c: Json) => c.speaker),
    ['Francisco Da Costa', 'Andrew Yip', 'Peter Warfield'],
  );
  t.match(m.documents, [
    { kind: 'agenda', officialUrl: /bag110116_agenda\.pdf$/ },
    { kind: 'minutes', officialUrl: /bag110116_minutes\.pdf$/ },
  ]);

  const failed = await valid(`/api/meetings/${MINUTES_DAY}?result=not-adopted`, 'meeting-record.json');
  t.same(
    failed.items.map((i: Json) => i.fileNumber),
    ['161169'],
    'result=not-adopted: the one resolution not adopted',
  );
  const text = await md(`/api/meetings/${MINUTES_DAY}.md?result=not-adopted`);
  t.match(text, /41\. \*\*File 161169: Commending New York Governor/);
  t.match(text, /Vote 2 \(rejection, rescinded by vote 3\): NOT ADOPTED/);
  t.match(text, /16\. \*\*Tom Gilberty\*\*/);

  const agendaOnly = await valid('/api/meetings/2016-11-15', 'meeting-record.json');
  t.same([agendaOnly.itemsFrom, agendaOnly.comments.length, agendaOnly.holds.minutes], ['2016-11-15-agenda', 0, false]);
  t.ok(
    agendaOnly.items.length > 20 && agendaOnly.items.every((i: Json) => i.rollCalls.length === 0),
    'agenda items, no votes',
  );
  t.match(
    await md('/api/meetings/2016-11-15.md'),
    /The lake holds no minutes of this meeting, so no public comment is recorded\./,
  );

  const none = await get(`${running.url}/api/meetings/2015-01-06`);
  t.same([none.status, none.json.title], [404, 'Not found']);
  t.match(none.json.detail, /holds no meeting of 2015-01-06/);
  for (const bad of ['2016-02-30', '2011-11-01', '16-11-01', 'x']) {
    const r = await get(`${running.url}/api/meetings/${bad}`);
    t.same([r.status, r.json.errors?.[0]?.parameter], [400, 'date'], `${bad}: 400 naming date`);
  }
});

t.test('date, actionType and result filters on items, search and comments', async (t) => {
  const notAdopted = await valid('/api/items?q=resolution&result=not-adopted', 'item-search-response.json');
  t.same(
    notAdopted.results.map((r: Json) => r.fileNumber),
    ['161169'],
  );
  t.match(notAdopted.filters, { result: 'not-adopted', actionType: null, date: null });
  const rejection = await valid(
    `/api/items?q=commending&actionType=rejection&date=${MINUTES_DAY}`,
    'item-search-response.json',
  );
  t.same(
    rejection.results.map((r: Json) => r.id),
    ['2016-11-01-minutes-161169'],
  );
  const oneDay = await valid('/api/items?q=housing&date=2016-11-15&limit=50', 'item-search-response.json');
  t.ok(oneDay.total > 0 && oneDay.results.every((r: Json) => r.meetingDate === '2016-11-15'), 'date keeps one meeting');
  t.ok(
    oneDay.results.every((r: Json) => r.meetingUrl.endsWith('/api/meetings/2016-11-15')),
    'each result links to its meeting',
  );
  const final = await valid('/api/items?q=commending%20Cuomo&final=true', 'item-search-response.json');
  t.notOk(
    final.results.some((r: Json) => r.fileNumber === '161169'),
    'a rescinded vote is not final',
  );

  const votes = await valid(
    `/api/search?q=resolution&type=votes&result=carried&date=${MINUTES_DAY}&limit=50`,
    'search-response.json',
  );
  t.ok(
    votes.results.length > 0 && votes.results.every((r: Json) => r.rollCall && r.resultType === 'vote'),
    'votes only',
  );
  const pages = await valid(`/api/search?q=housing&date=${MINUTES_DAY}`, 'search-response.json');
  t.ok(
    pages.results.length > 0 &&
      pages.results.every(
        (r: Json) => r.id.startsWith(`${MINUTES_DAY}-`) && r.meetingUrl.endsWith(`/api/meetings/${MINUTES_DAY}`),
      ),
  );
  const unified = await valid('/api/search?q=commending&actionType=rejection', 'search-response.json');
  t.match(unified.filters, { type: 'all', actionType: 'rejection' }, 'a vote filter asks for the unified list');
  t.match(unified.results[0], { resultType: 'legislation', fileNumber: '161169' });

  const spoke = await valid(`/api/comments?q=concerns&date=${MINUTES_DAY}&limit=50`, 'comment-search-response.json');
  t.ok(spoke.total >= 10 && spoke.results.every((r: Json) => r.meetingDate === MINUTES_DAY));
  const silent = await valid('/api/comments?q=concerns&date=2016-11-15', 'comment-search-response.json');
  t.same(
    [silent.total, silent.coverage.meetingsWithComments],
    [0, 0],
    'an agenda-only meeting: no comments, and the coverage says why',
  );

  await expectRefusal(t, `${running.url}/api/items?q=housing&result=lost`, 'result', 'enum');
  await expectRefusal(t, `${running.url}/api/items?q=housing&actionType=veto`, 'actionType', 'enum');
  await expectRefusal(t, `${running.url}/api/items?q=housing&date=2016-13-01`, 'date', 'format');
  await expectRefusal(t, `${running.url}/api/comments?q=housing&date=2011-05-03`, 'date', 'pattern');
});

t.test("the parameter schemas list the lake's action types and results", async (t) => {
  for (const id of ['params/items.json', 'params/search.json', 'params/meeting.json']) {
    const props = (schema(id) as Json).properties;
    t.same(props.actionType.enum, [...ACTION_TYPES], `${id} actionType`);
    t.same(props.result.enum, [...RESULTS], `${id} result`);
  }
});

t.test('through MCP: each question answered right in at most two calls', async (t) => {
  const client = new Client({ name: 'board-records-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/api/mcp`)));
  t.teardown(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as Json;
    t.notOk(r.isError, `${name} succeeds${r.isError ? `: ${r.content[0].text}` : ''}`);
    return { body: r.structuredContent, text: r.content.map((c: Json) => c.text).join('\n') };
  };

  const { tools } = await client.listTools();
  const tokens = encode(JSON.stringify({ tools })).length;
  t.ok(tokens < 6000, `tools/list is ${tokens} tokens (under 6k)`);
  t.same(
    tools.map((x) => x.name).filter((n) => ['get_meeting', 'list_meetings', 'coverage', 'list_releases'].includes(n))
      .length,
    4,
  );

  // 1. The items not adopted at 2016-11-01, with their roll calls: one call.
  const failed = await call('get_meeting', { date: MINUTES_DAY, result: 'not-adopted' });
  t.same(
    failed.body.items.map((i: Json) => i.fileNumber),
    ['161169'],
  );
  t.match(
    failed.text,
    /NOT ADOPTED — Ayes 7 \(Avalos, Breed, Campos, Kim, Mar, Peskin, Yee\); Noes 3 \(Cohen, Tang, Wiener\)/,
  );
  t.match(failed.text, /rescinded by vote 3/);

  // 2. Every public commenter of 2016-11-01, in order: one call.
  const meeting = await call('get_meeting', { date: MINUTES_DAY });
  t.same(
    meeting.body.comments.map((c: Json) => c.sequence),
    [...Array(16).keys()].map((n) => n + 1),
  );
  t.match(
    meeting.text,
    /## Public comment \(16 speakers, in order\)[\s\S]*1\. \*\*Male Speaker\*\*[\s\S]*16\. \*\*Tom Gilberty\*\*/,
  );

  // 3. How often Peskin voted no, with the coverage saying the span holds one meeting's minutes: one call.
  const no = await call('vote_aggregate', { voter: 'Peskin', position: 'no' });
  t.equal(no.body.total, 0);
  t.match(no.body.coverage, { meetingsWithMinutes: 1, meetingsWithRollCalls: 1, rollCallMeetings: [MINUTES_DAY] });
  t.match(no.text, /\*\*Coverage:\*\* .*Minutes exist for 1 of them \(2016-11-01\)/);

  // ask names tools, not REST URLs, when the caller is MCP.
  const ask = await call('ask', { q: 'How did Peskin vote on housing?' });
  t.match(ask.body.guidance.join('\n'), /the vote_aggregate tool with \{"voter":"Aaron Peskin"/);
  t.notMatch(ask.body.guidance.join('\n'), /\/api\/aggregates\/votes/);
  t.equal(ask.body.guidance[0], ask.body.coverage.statement);

  // get_record opens every record URL answers hand out: meetings and the change feed's snapshot records.
  const viaMeetingUrl = await call('get_record', {
    url: failed.body.items[0].transcriptUrl.replace(/\/api\/items\/.*/, `/api/meetings/${MINUTES_DAY}.md`),
  });
  t.same([viaMeetingUrl.body.kind, viaMeetingUrl.body.record.date], ['meeting', MINUTES_DAY]);
  const feed = await call('read_changes', { limit: 1 });
  const change = await call('get_record', { url: feed.body.changes[0].url });
  t.same(change.body.kind, 'snapshot');
  t.ok(Object.values(change.body.record).includes(feed.body.changes[0].id), 'the changed record itself');
  const cov = await call('coverage', {});
  t.equal(cov.body.coverage.meetings, 37);
});
