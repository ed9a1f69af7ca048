// Minutes to records over HTTP: /api/items and /api/comments on the real 2016-11-01 minutes and agendas.
import t from 'tap';

import { itemRecordsById } from '../src/engine/texts.ts';
import type { Json } from './fixture.ts';
import { expectRefusal, get, getValid, openFixtureRelease, schemaErrors, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const api = (path: string) => get(`${running.url}${path}`);
const items = (qs: string) => getValid(t, `${running.url}/api/items?${qs}`, 'item-search-response.json');
const comments = (qs: string) => getValid(t, `${running.url}/api/comments?${qs}`, 'comment-search-response.json');
const ALL_11 = ['Avalos', 'Breed', 'Campos', 'Cohen', 'Farrell', 'Kim', 'Mar', 'Peskin', 'Tang', 'Wiener', 'Yee'];

t.test("the consent block's shared vote is each item's roll call, with that item's action", async (t) => {
  for (const file of ['160424', '160553', '160962', '160964', '160965']) {
    const body = await items(`q=${file}&limit=5`);
    const minutes = body.results.find((r: Json) => r.fileNumber === file && r.kind === 'minutes');
    t.ok(minutes, `${file} found in the minutes`);
    t.equal(minutes.rollCalls.length, 1, `${file}: one roll call`);
    const [rc] = minutes.rollCalls;
    t.same(
      [rc.action, rc.actionType, rc.result, rc.isFinal, rc.rescindedBy, rc.sharedVote],
      ['FINALLY PASSED', 'final-passage', 'passed', true, null, true],
      `${file}: FINALLY PASSED, final`,
    );
    t.same(rc.ayes, ALL_11);
  }
});

t.test('the AMENDED and RE-REFERRED motions of 160222 carry their own roll calls', async (t) => {
  const body = await items('q=fossil%20fuels%20leasing');
  const item = body.results.find((r: Json) => r.fileNumber === '160222' && r.kind === 'minutes');
  t.same(
    item.rollCalls.map((rc: Json) => [rc.sequence, rc.actionType, rc.result, rc.isFinal, rc.rescindedBy]),
    [
      [1, 'amendment', 'carried', false, null],
      [2, 'referral', 'carried', false, null],
    ],
  );
  t.match(
    item.rollCalls[0].action,
    /^Supervisor Avalos, seconded by Supervisor Mar, moved that this Ordinance be AMENDED, AN AMENDMENT OF THE WHOLE/,
  );
  t.match(
    item.rollCalls[1].action,
    /RE-REFERRED AS AMENDED to the Land Use and Transportation Committee meeting of November 14, 2016\.$/,
  );
  t.same(item.sponsors.slice(0, 2), ['Avalos', 'Breed']);
});

t.test('the resolution NOT ADOPTED, the rescission that followed, the excuse motion and the referral', async (t) => {
  const body = await items('q=Cuomo%20Krueger%20Rosenthal');
  const item = body.results.find((r: Json) => r.fileNumber === '161169' && r.kind === 'minutes');
  const record = (await api(new URL(item.transcriptUrl).pathname)).json;
  t.equal(schemaErrors('item-record.json', record), '');
  const [excuse, rejected, rescind] = record.rollCalls;
  t.match(excuse.action, /moved that Supervisor Farrell be excused from voting on File No\. 161169/);
  t.equal(rejected.action, 'NOT ADOPTED');
  // Rescinded by vote 3 the same meeting: the record stays, with its type, but it is not final.
  t.same(
    [rejected.actionType, rejected.result, rejected.isFinal, rejected.rescindedBy],
    ['rejection', 'not-adopted', false, 3],
  );
  t.same(rejected.ayes, ['Avalos', 'Breed', 'Campos', 'Kim', 'Mar', 'Peskin', 'Yee']);
  t.same(rejected.noes, ['Cohen', 'Tang', 'Wiener']);
  t.same(rejected.excused, ['Farrell']);
  t.equal(rescind.action, 'Supervisor Kim, seconded by Supervisor Mar, moved to rescind the previous vote.');
  t.same(
    [rescind.actionType, rescind.result, rescind.isFinal, rescind.rescindedBy],
    ['rescission', 'carried', false, null],
  );
  t.same([excuse.result, excuse.rescindedBy], ['carried', null]);
  t.ok(
    record.statusLines.some((l: string) => /REFERRED to the Government Audit and Oversight/.test(l)) ||
      /REFERRED to the Government Audit/.test(record.text),
    'the referral is kept',
  );
  t.match(record.officialUrl, /bag110116_minutes\.pdf#page=\d+$/);
});

t.test('Transbay Block 8: units, addresses, not-to-exceed amounts', async (t) => {
  const body = await items('q=Transbay%20Block%208&groupBy=file');
  const item = body.results.find((r: Json) => r.fileNumber === '161050');
  t.ok(item, 'file 161050');
  t.same(
    [...item.extracted.housingUnits].sort((a: number, b: number) => a - b),
    [80, 350],
  );
  t.ok(item.extracted.addresses.includes('250 Fremont Street'));
  const nte = item.extracted.amounts.filter((a: Json) => a.qualifier === 'not-to-exceed').map((a: Json) => a.value);
  t.ok(nte.includes(302390833) && nte.includes(19290833), 'not-to-exceed $302,390,833 and $19,290,833');
  t.equal(item.groupCount, 2, 'grouped: the 11/01 agenda and the 11/01 minutes both record it');
});

t.test('voter and position filters', async (t) => {
  const noes = await items('q=resolution&voter=Wiener&position=no&limit=50');
  t.same(
    noes.results.map((r: Json) => r.fileNumber),
    ['161169'],
    'Wiener voted no only on 161169',
  );
  t.equal(noes.voter.fullName, 'Scott Wiener');
  t.same(
    noes.results[0].voterPositions.map((v: Json) => v.position),
    ['aye', 'no', 'aye'],
  );
  const full = await items('q=resolution&voter=Scott%20Wiener&position=no');
  t.same(
    full.results.map((r: Json) => r.id),
    noes.results.map((r: Json) => r.id),
    'a full name works as a surname does',
  );
  const excused = await items('q=Cuomo&voter=farrell&position=excused');
  t.equal(excused.results[0].fileNumber, '161169');
  const finalNoes = await items('q=resolution&voter=Wiener&position=no&final=true&limit=50');
  t.same(finalNoes.results, [], "final=true: Wiener's one no was on a vote rescinded later the same meeting");
  const finalOnly = await items('q=Administrative%20Code&final=true&limit=50');
  t.ok(finalOnly.results.length > 0);
  t.ok(
    finalOnly.results.every((r: Json) => r.rollCalls.some((rc: Json) => rc.isFinal)),
    'final=true keeps records with a final roll call',
  );
  const ambiguous = await api('/api/items?q=housing&voter=Mar');
  t.equal(ambiguous.status, 400);
  t.match(ambiguous.json.detail, /Eric Mar.*Gordon Mar/);
  const narrowed = await items('q=housing&voter=Mar&from=2016&to=2017');
  t.equal(narrowed.voter.id, 'eric-mar');
});

t.test('groupBy collapses readings and meetings and reports groupCount', async (t) => {
  const none = await items('q=Better%20Roof%20Requirements&limit=50');
  const byFile = await items('q=Better%20Roof%20Requirements&groupBy=file&limit=50');
  const roof = none.results.filter((r: Json) => r.fileNumber === '160965');
  t.ok(roof.length >= 2, `160965 appears ${roof.length} times ungrouped`);
  const grouped = byFile.results.filter((r: Json) => r.fileNumber === '160965');
  t.equal(grouped.length, 1);
  t.equal(grouped[0].groupCount, roof.length);
  t.ok(byFile.total < none.total);
  const byMatter = await items('q=Better%20Roof%20Requirements&groupBy=matter&limit=50');
  t.ok(byMatter.total <= byFile.total);
});

t.test('public-comment speakers found by topic and by name', async (t) => {
  const falun = await comments('q=Falun%20Gong');
  t.same(falun.results.map((r: Json) => r.speaker).sort(), ['Cassie', 'Lisa', 'Lorie Ten', 'Natasha', 'Tina Yen']);
  const library = await comments('q=library');
  t.equal(library.results[0].speaker, 'Peter Warfield');
  t.match(library.results[0].officialUrl, /bag110116_minutes\.pdf#page=\d+$/);
  const consulate = await comments('q=Chinese%20consulate&speaker=female');
  t.same(
    consulate.results.map((r: Json) => r.speaker),
    ['Female Speaker', 'Female Speaker'],
  );
  const record = await api(new URL(library.results[0].transcriptUrl).pathname);
  t.equal(schemaErrors('comment-record.json', record.json), '');
  t.equal(record.json.fileNumber, null, 'general public comment');
  const md = await api('/api/comments.md?q=Falun%20Gong');
  t.match(md.text, /^# Public comment: Falun Gong/);
  t.match(md.text, /not verbatim transcripts/);
});

t.test('Markdown for items and item records', async (t) => {
  const md = await api('/api/items.md?q=Cuomo&voter=Wiener');
  t.match(md.headers.get('content-type'), /text\/markdown/);
  t.match(md.text, /File 161169/);
  t.match(md.text, /Scott Wiener recorded \*\*no\*\* on: NOT ADOPTED/);
  const record = await api('/api/items/2016-11-01-minutes-161169.md');
  t.match(record.text, /^# File 161169/);
  t.match(record.text, /Noes 3 \(Cohen, Tang, Wiener\)/);
  t.match(record.text, /^- Vote 2 \(rejection, rescinded by vote 3\): NOT ADOPTED — Ayes 7 .* — result: not-adopted$/m);
  t.match(
    record.text,
    /^- Vote 3 \(rescission\): Supervisor Kim, seconded by Supervisor Mar, moved to rescind the previous vote\. — .* — result: carried$/m,
  );
});

t.test('every broken rule is a 400 naming the parameter', async (t) => {
  const cases: [string, string, string][] = [
    ['/api/items?q=roof&position=no', 'position', 'requires-voter'],
    ['/api/items?q=roof&groupBy=year', 'groupBy', 'enum'],
    ['/api/items?q=roof&from=2011', 'from', 'minimum'],
    ['/api/items?q=roof&to=2027', 'to', 'maximum'],
    ['/api/items?q=roof&limit=51', 'limit', 'maximum'],
    ['/api/items?q=roof&final=maybe', 'final', 'type'],
    [`/api/items?q=roof&voter=${'x'.repeat(81)}`, 'voter', 'maxLength'],
    ['/api/items?q=roof&voter=Nobody', 'voter', 'unknown'],
    ['/api/items?q=r', 'q', 'minLength'],
    ['/api/comments?q=roof&limit=0', 'limit', 'minimum'],
    [`/api/comments?q=roof&speaker=${'x'.repeat(81)}`, 'speaker', 'maxLength'],
    ['/api/comments?speaker=Lisa', 'q', 'required'],
  ];
  for (const [path, parameter, rule] of cases) await expectRefusal(t, `${running.url}${path}`, parameter, rule);
  t.equal((await api('/api/items/2016-11-01-minutes-999999')).status, 404);
  t.equal((await api('/api/comments/2016-11-01-minutes-c999')).status, 404);
});

t.test('every item record read by offset from the record store is its Parquet row and roll calls', async (t) => {
  const release = await openFixtureRelease(t);
  const items = await release.pool.rows(`SELECT item_id, to_json(i)::VARCHAR AS j FROM items i ORDER BY item_id`);
  const rolls = await release.pool.rows(
    `SELECT item_id, to_json(r)::VARCHAR AS j FROM roll_calls r ORDER BY item_id, sequence`,
  );
  const stored = await itemRecordsById(
    release,
    items.map((i) => String(i.item_id)),
  );
  t.equal(stored.size, items.length, `${items.length} items, each in the store`);
  // Key order aside (the view puts the partition column `year` last): the same values.
  const sorted = (v: Json): Json =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k])]),
          )
        : v;
  let differ = 0;
  for (const i of items) {
    const s = stored.get(String(i.item_id))!;
    const expected = {
      item: JSON.parse(String(i.j)),
      roll_calls: rolls.filter((r) => r.item_id === i.item_id).map((r) => JSON.parse(String(r.j))),
    };
    if (JSON.stringify(sorted(s)) !== JSON.stringify(sorted(expected))) differ++;
  }
  t.equal(differ, 0, 'no record differs from its rows');
  t.ok(rolls.length >= 40, `${rolls.length} roll calls compared`);
});
