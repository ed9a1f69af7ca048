// /api/query: the golden interpretation file, the evidence bundle over the real corpus, guidance, Markdown, bounds.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import t from 'tap';

import type { Json } from './fixture.ts';
import { get, ROOT, schemaErrors, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const api = (path: string, init?: RequestInit) => get(`${running.url}${path}`, init);
const ask = async (q: string) => {
  const r = await api(`/api/query?q=${encodeURIComponent(q)}`);
  if (r.status !== 200) throw new Error(`${q}: ${r.status} ${r.text.slice(0, 300)}`);
  t.equal(schemaErrors('evidence-bundle.json', r.json), '', `valid EvidenceBundle for “${q}”`);
  return r.json;
};

t.test('golden questions get their expected interpretation', async (t) => {
  const golden = JSON.parse(await readFile(join(ROOT, 'test', 'golden', 'questions.json'), 'utf8'));
  t.ok(golden.questions.length >= 60, `${golden.questions.length} questions`);
  for (const { question, expected } of golden.questions) {
    const body = await ask(question);
    t.same(body.interpretation, expected, question);
    t.equal(body.question, question);
  }
});

t.test('a question naming a file’s subject returns that file first', async (t) => {
  const cases: [string, string][] = [
    ['How did the board vote on the Better Roof Requirements?', '160965'],
    ['Who voted on the Transbay Block 8 multifamily housing revenue bonds?', '161050'],
    ['What happened to the resolution commending Governor Cuomo?', '161169'],
    ['air rights lease at 250 Fremont Street', '161041'],
    // A supervisor named without vote words is the subject, searched by name, not a voter filter.
    ['Which resolution commended Supervisor Avalos in 2016?', '161326'],
  ];
  for (const [q, file] of cases) {
    const body = await ask(q);
    t.equal(body.legislativeItems.results[0]?.fileNumber, file, `${q} → ${file}`);
    t.ok(body.pageMatches.results.length > 0, 'pages found too');
  }
});

t.test('a named voter and position filter the vote search; guidance gives the aggregate call', async (t) => {
  const body = await ask('What did Tang vote against in 2016?');
  t.match(body.interpretation, {
    voter: 'Katy Tang',
    recordedPosition: 'no',
    fromYear: 2016,
    toYear: 2016,
    searchQuery: '',
  });
  const items = body.legislativeItems;
  t.match(items.filters, { voter: 'katy-tang', position: 'no' });
  t.same(
    items.results.map((r: Json) => r.fileNumber),
    ['161169'],
    'the one roll call Tang voted no on',
  );
  t.ok(items.results[0].voterPositions.some((v: Json) => v.position === 'no' && v.action === 'NOT ADOPTED'));
  const g = body.guidance.join('\n');
  t.match(g, /not a stance on the underlying matter/);
  t.match(g, /motion to disapprove opposes the project/);
  t.match(g, /voter = Katy Tang \(from “Tang”\)/);
  t.match(g, /recordedPosition = no \(from “vote against”\)/);
  const next = body.guidance.find((s: string) => s.includes('/api/aggregates/votes?'));
  t.ok(next, 'the next call is named');
  const url = new URL(next.match(/https?:\/\/\S+/)[0]);
  t.same(Object.fromEntries(url.searchParams), { voter: 'Katy Tang', from: '2016', to: '2016', position: 'no' });
  const agg = await api(url.pathname + url.search);
  t.equal(agg.status, 200, 'the suggested aggregate call works');
  t.equal(agg.json.records[0].fileNumber, '161169');
  t.equal(body.publicComments, null, 'not a comment question');
});

t.test(
  'housing questions point to the housing aggregate; ambiguous and not-serving names apply no voter filter',
  async (t) => {
    const peskin = await ask('How did Peskin vote on housing in 2016?');
    t.ok(
      peskin.guidance.some((s: string) => s.includes('/api/aggregates/housing?voter=Aaron+Peskin&from=2016&to=2016')),
    );
    t.ok(
      peskin.legislativeItems.results.every((r: Json) => r.voterPositions.length > 0),
      'only items Peskin voted on',
    );
    const mar = await ask('How did Mar vote on housing?');
    t.equal(mar.interpretation.voter, null);
    t.equal(mar.legislativeItems.filters.voter, null);
    t.ok(mar.guidance.some((s: string) => /Eric Mar/.test(s) && /Gordon Mar/.test(s) && /full name or a year/.test(s)));
    const preston = await ask('Preston votes in 2016');
    t.equal(preston.interpretation.voter, null);
    t.ok(preston.guidance.some((s: string) => /Dean Preston/.test(s) && /did not serve in 2016–2016/.test(s)));
    const two = await ask('Did Kim and Peskin vote for the Cuomo resolution?');
    t.ok(two.guidance.some((s: string) => s.includes('also names Aaron Peskin')));
  },
);

t.test('public comments only when the question is about comment or speakers', async (t) => {
  const body = await ask('Who spoke in public comment in 2016?');
  t.ok(body.interpretation.commentIntent);
  t.not(body.publicComments, null);
  t.equal(schemaErrors('comment-search-response.json', body.publicComments), '');
  t.ok(body.guidance.some((s: string) => /not verbatim/.test(s)));
  const none = await ask('Better Roof Requirements');
  t.equal(none.publicComments, null);
  t.ok(none.guidance.some((s: string) => s.includes('/api/comments?q=Better+Roof+Requirements')));
});

t.test('final-only questions keep final actions', async (t) => {
  const body = await ask('Which ordinances were finally passed in 2016?');
  t.ok(body.interpretation.finalOnly);
  t.ok(body.legislativeItems.results.length > 0);
  t.ok(
    body.legislativeItems.results.every((r: Json) => r.rollCalls.some((rc: Json) => rc.isFinal)),
    'each with a final roll call',
  );
});

t.test('Markdown: headings per section, one line per record with its citation', async (t) => {
  const r = await api(`/api/query.md?q=${encodeURIComponent('How did Tang vote on the Cuomo resolution in 2016?')}`);
  t.equal(r.status, 200);
  t.match(r.headers.get('content-type'), /text\/markdown/);
  for (const h of [
    '# Evidence for: How did Tang vote',
    '## Interpretation',
    '## Guidance',
    '## Legislative items',
    '## Page matches',
    '## Public comments',
  ])
    t.match(r.text, h);
  t.match(
    r.text,
    /1\. \*\*File 161169: .*\n(.*\n)*?.*\[official PDF\]\(https:\/\/sfbos\.org\/[^)]+#page=\d+\) · \[record\]\(http[^)]+\/api\/items\/2016-11-01-minutes-161169\)/,
  );
  t.match(r.text, /Katy Tang recorded \*\*no\*\* on: NOT ADOPTED/);
  const accept = await api(`/api/query?q=living%20roofs`, { headers: { Accept: 'text/markdown' } });
  t.match(accept.headers.get('content-type'), /text\/markdown/);
});

t.test('q bounds are 400s naming the parameter and rule', async (t) => {
  for (const [qs, rule] of [
    ['', 'required'],
    ['q=a', 'minLength'],
    [`q=${'a'.repeat(501)}`, 'maxLength'],
    ['q=housing&voter=Peskin', 'unknown'],
  ]) {
    const r = await api(`/api/query?${qs}`);
    t.equal(r.status, 400, qs.slice(0, 30));
    t.match(r.headers.get('content-type'), /application\/problem\+json/);
    t.ok(
      r.json.errors.some((e: Json) => e.rule === rule),
      rule,
    );
  }
  t.equal((await api(`/api/query?q=${'a '.repeat(250)}`)).status, 200, '500 characters are allowed');
});
