// What a meeting's own documents state about it, read from the real PDFs into the documents table and served on the
// meeting record and the evidence bundle: the cover's meeting line, the agenda's numbered items, the minutes' presiding
// officer, call to order, adjournment and late arrivals.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t from 'tap';

import { MEMBERS_2016_11_01 } from './corpora.ts';
import type { Json } from './fixture.ts';
import { get, getValid, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());

t.test('the minutes of 2016-11-01: presiding, called to order, adjourned, noted present', async (t) => {
  const m = await getValid(t, `${running.url}/api/meetings/2016-11-01`, 'meeting-record.json');
  t.same(m.facts, {
    meetingType: 'Regular Meeting',
    agendaItems: 44,
    members: MEMBERS_2016_11_01,
    presiding: 'London Breed',
    calledToOrder: '2:04 p.m.',
    adjournedAt: '4:38 p.m.',
    notedPresent: [{ name: 'Wiener', time: '2:06 p.m.' }],
  });
});

t.test('agendas only: the cover and the numbered items, nothing of the minutes', async (t) => {
  const special = await getValid(t, `${running.url}/api/meetings/2020-03-31`, 'meeting-record.json');
  t.equal(special.facts.meetingType, 'Special Meeting');
  t.equal(special.facts.agendaItems, 27, 'items 1–27, marked ones (`** 21.`) included');
  t.equal(special.facts.presiding, null, 'no minutes: nobody is said to have presided');
  t.same(special.facts.notedPresent, []);
  const jan = (await get(`${running.url}/api/meetings/2017-01-10`)).json;
  t.equal(jan.facts.agendaItems, 25, 'numbered headings (23. ROLL CALL FOR INTRODUCTIONS … 25.) count');
  t.ok(jan.items.length > 25, 'the lake holds more items than are numbered: introduced files are not numbered');
  t.ok(jan.facts.members.includes('Sandra Lee Fewer') && jan.facts.members.includes('Norman Yee'), 'the cover');
  const dec = (await get(`${running.url}/api/meetings/2016-12-13`)).json;
  t.equal(dec.facts.agendaItems, 81, '`* * 76.` items count');
});

t.test('the evidence bundle answers meeting questions from the facts, through REST and MCP ask', async (t) => {
  const q = 'How many numbered items were on the January 10, 2017 board agenda?';
  const rest = (await get(`${running.url}/api/query?q=${encodeURIComponent(q)}`)).json;
  t.equal(rest.meeting.facts.agendaItems, 25);
  const client = new Client({ name: 'meeting-facts-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/api/mcp`)));
  t.teardown(() => client.close());
  const r = (await client.callTool({ name: 'ask', arguments: { q: 'When did the 11/1/2016 meeting adjourn?' } })) as {
    structuredContent: Json;
  };
  t.equal(r.structuredContent.meeting.facts.adjournedAt, '4:38 p.m.');
});
