// /api/aggregates/votes and /api/aggregates/housing over the real 2016-11-01 minutes: voter resolution, grouping,
// totals, evidence, bounds, Markdown, and every body against its schema.
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import type { Json } from './fixture.ts';
import { expectRefusal, FIXTURE_LAKE, get, schemaErrors, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const api = (path: string, init?: RequestInit) => get(`${running.url}${path}`, init);
const ok = async (path: string, schema: string) => {
  const r = await api(path);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  t.equal(schemaErrors(schema, r.json), '', `${path} matches ${schema}`);
  return r.json;
};
const votes = (qs: string) => ok(`/api/aggregates/votes?${qs}`, 'votes-aggregate.json');
const housing = (qs: string) => ok(`/api/aggregates/housing?${qs}`, 'housing-aggregate.json');

// The lake itself, read directly, as the reference for the counts.
const db = await (await DuckDBInstance.create(':memory:')).connect();
const lake = join(FIXTURE_LAKE, 'current');
const rows = async (sql: string) =>
  (await db.runAndReadAll(sql.replaceAll('$LAKE', lake))).getRowObjectsJson() as Json[];
const positions = `read_parquet('$LAKE/positions/*/*.parquet', hive_partitioning = true)`;

t.test('a voter with a no in the 2016-11-01 minutes gets exactly those records', async (t) => {
  const noes = await rows(`SELECT supervisor_id, list(roll_call_id ORDER BY roll_call_id) AS ids FROM ${positions}
                           WHERE meeting_date = DATE '2016-11-01' AND position = 'no' GROUP BY ALL ORDER BY 1`);
  t.ok(noes.length >= 3, `${noes.length} supervisors recorded a no`);
  for (const { supervisor_id, ids } of noes) {
    for (const groupBy of ['file', 'roll-call']) {
      const body = await votes(
        `voter=${supervisor_id.split('-').pop()}&from=2016&to=2016&position=no&groupBy=${groupBy}`,
      );
      t.equal(body.voter.id, supervisor_id);
      t.same(
        body.records.map((r: Json) => r.rollCallId).sort(),
        ids,
        `${supervisor_id} (${groupBy}): exactly the no records`,
      );
      t.same(body.totals, { aye: 0, no: ids.length, absent: 0, excused: 0 });
    }
  }
  const tang = await votes('voter=Tang&position=no');
  const [r] = tang.records;
  t.match(
    r,
    {
      fileNumber: '161169',
      action: 'NOT ADOPTED',
      actionType: 'rejection',
      isFinal: false,
      position: 'no',
      meetingDate: '2016-11-01',
      nameAsRecorded: 'Tang',
    },
    'rescinded by the next vote: not final',
  );
  t.match(r.title, /Cuomo/);
  t.match(r.evidence.officialUrl, /bag110116_minutes\.pdf#page=\d+$/);
  t.equal(
    r.evidence.officialUrl,
    `https://sfbos.org/sites/default/files/bag110116_minutes.pdf#page=${r.evidence.page}`,
  );
  const item = await api(new URL(r.evidence.transcriptUrl).pathname);
  t.equal(item.status, 200, 'the record link resolves');
  t.ok(
    item.json.rollCalls.some((rc: Json) => rc.id === r.rollCallId && rc.noes.includes('Tang')),
    'the item prints Tang among the noes',
  );
  t.equal((await api(new URL(r.evidence.markdownUrl).pathname)).status, 200);
});

t.test('groupBy=file counts each file once by its most recent roll call; roll-call counts every one', async (t) => {
  const [ref] = await rows(
    `SELECT count(*)::INTEGER AS calls, count(DISTINCT file_number)::INTEGER AS files FROM ${positions} WHERE supervisor_id = 'mark-farrell'`,
  );
  const byCall = await votes('voter=Farrell&groupBy=roll-call&limit=1000');
  const byFile = await votes('voter=Farrell&limit=1000');
  t.equal(byCall.total, ref.calls, 'every roll call');
  t.equal(byFile.total, ref.files, 'every file once');
  t.equal(new Set(byFile.records.map((r: Json) => r.fileNumber)).size, byFile.records.length, 'no file twice');
  t.equal(
    Object.values(byFile.totals).reduce((a: number, b: Json) => a + b, 0),
    byFile.total,
    'totals add up',
  );
  const cuomo = byFile.records.find((r: Json) => r.fileNumber === '161169');
  t.match(
    cuomo,
    { sequence: 3, actionType: 'rescission', matchingRollCalls: 3 },
    'the file counts its last vote of the meeting',
  );
  t.equal(byCall.records.filter((r: Json) => r.fileNumber === '161169').length, 3);
  const excused = await votes('voter=Farrell&position=excused&groupBy=roll-call');
  t.same(
    excused.records.map((r: Json) => r.sequence),
    [1, 2, 3],
    'excused from all three votes on 161169, in vote order',
  );
  t.match(byFile.groupingRule, /counted once/);
  t.match(byCall.groupingRule, /every matching roll call/);
  t.ok(byFile.interpretationLimits.some((s: string) => /not a stance/.test(s)));
  t.ok(byFile.interpretationLimits.some((s: string) => /first reading is not final/i.test(s)));
  t.ok(
    byFile.interpretationLimits.some(
      (s: string) => /motion to disapprove opposes the project/.test(s) && /table the disapproval supports it/.test(s),
    ),
  );
});

t.test('final, limit and a stable order', async (t) => {
  const all = await votes('voter=Peskin&groupBy=roll-call&limit=1000');
  const final = await votes('voter=Peskin&groupBy=roll-call&final=true&limit=1000');
  t.ok(final.total > 0 && final.total < all.total, `final narrows (${final.total} < ${all.total})`);
  t.ok(final.records.every((r: Json) => r.isFinal));
  t.ok(
    all.records.some((r: Json) => r.actionType === 'first-reading' && !r.isFinal),
    'first readings are kept without final',
  );
  const three = await votes('voter=Peskin&groupBy=roll-call&limit=3');
  t.equal(three.returned, 3);
  t.equal(three.total, all.total, 'totals count every match whatever the limit');
  t.same(
    three.records.map((r: Json) => r.rollCallId),
    all.records.slice(0, 3).map((r: Json) => r.rollCallId),
    'same order whatever the limit',
  );
  const again = await votes('voter=Peskin&groupBy=roll-call&limit=1000');
  t.same(again.records, all.records, 'deterministic');
  const none = await votes('voter=Peskin&from=2019&to=2020');
  t.equal(none.total, 0, 'no minutes in 2019–2020 in the fixture');
  t.same(none.records, []);
});

t.test('a rescinded vote stops counting as final: 161169 NOT ADOPTED, rescinded by the next vote', async (t) => {
  const [ref] =
    await rows(`SELECT list(DISTINCT file_number ORDER BY file_number) AS files, count(*)::INTEGER AS calls FROM ${positions}
                            WHERE supervisor_id = 'aaron-peskin' AND is_final`);
  t.notOk(ref.files.includes('161169'), 'the lake marks no position on 161169 final');
  const [undone] = await rows(
    `SELECT list(DISTINCT rescinded_by) AS by, bool_or(is_final) AS final FROM ${positions} WHERE roll_call_id = '2016-11-01-minutes-161169-v2'`,
  );
  t.same(undone, { by: ['2016-11-01-minutes-161169-v3'], final: false }, 'every position of vote 2 names vote 3');
  const [file] =
    await rows(`SELECT [(a.sequence, a.result, a.is_final, a.rescinded_by) FOR a IN actions IF a.document_id = '2016-11-01-minutes']::VARCHAR AS actions,
                             final_action IS NULL AS none FROM read_parquet('$LAKE/legislative_files.parquet') WHERE file_number = '161169'`);
  t.same(
    file,
    {
      actions:
        '[(1, carried, false, NULL), (2, not-adopted, false, 2016-11-01-minutes-161169-v3), (3, carried, false, NULL)]',
      none: true,
    },
    'legislative_files: no final action for 161169',
  );
  for (const groupBy of ['file', 'roll-call']) {
    const all = await votes(`voter=Peskin&groupBy=${groupBy}&limit=1000`);
    const final = await votes(`voter=Peskin&groupBy=${groupBy}&final=true&limit=1000`);
    t.ok(
      all.records.some((r: Json) => r.fileNumber === '161169'),
      `${groupBy}: 161169 is still a recorded vote`,
    );
    t.notOk(
      final.records.some((r: Json) => r.fileNumber === '161169'),
      `${groupBy}: final=true no longer counts 161169`,
    );
    t.equal(
      final.total,
      groupBy === 'file' ? ref.files.length : ref.calls,
      `${groupBy}: exactly the final positions of the lake`,
    );
  }
  const peskin = await votes('voter=Peskin&final=true&limit=1000');
  t.equal(
    peskin.totals.aye,
    peskin.total,
    'Peskin voted aye on every final vote of the fixture; the rescinded aye is gone',
  );
  const tang = await votes('voter=Tang&position=no&final=true');
  t.equal(tang.total, 0, "Tang's one no was on the rescinded vote");
  const cohen = await housing('voter=Cohen&position=no&final=true');
  t.equal(cohen.total, 0, 'the housing aggregate does not count it either');
});

t.test('ambiguous and unknown voters are 400s with candidates', async (t) => {
  for (const path of ['/api/aggregates/votes?voter=Mar', '/api/aggregates/housing?voter=mar']) {
    const r = await api(path);
    t.equal(r.status, 400, path);
    t.match(r.headers.get('content-type'), /application\/problem\+json/);
    t.match(r.json.errors[0], { parameter: 'voter', rule: 'ambiguous' });
    t.match(r.json.errors[0].message, /full name, or narrow from\/to/);
    t.same(r.json.candidates.map((c: Json) => c.id).sort(), ['eric-mar', 'gordon-mar']);
  }
  t.equal((await votes('voter=Mar&to=2016')).voter.id, 'eric-mar', 'narrowed by years');
  t.equal((await votes('voter=Gordon%20Mar')).voter.id, 'gordon-mar', 'or by full name');
  const unknown = await api('/api/aggregates/votes?voter=Peskn');
  t.equal(unknown.status, 400);
  t.match(unknown.json.errors[0], { parameter: 'voter', rule: 'unknown' });
  t.equal(unknown.json.candidates[0].id, 'aaron-peskin', 'the closest recorded name first');
  const notServing = await api('/api/aggregates/housing?voter=Preston&to=2016');
  t.equal(notServing.status, 400);
  t.match(notServing.json.errors[0], { parameter: 'voter', rule: 'not-serving' });
});

t.test('parameter bounds are 400s naming the parameter and rule', async (t) => {
  const cases: [string, string, string][] = [
    ['/api/aggregates/votes', 'voter', 'required'],
    ['/api/aggregates/votes?voter=Tang&from=2011', 'from', 'minimum'],
    ['/api/aggregates/votes?voter=Tang&to=2027', 'to', 'maximum'],
    ['/api/aggregates/votes?voter=Tang&limit=0', 'limit', 'minimum'],
    ['/api/aggregates/votes?voter=Tang&limit=1001', 'limit', 'maximum'],
    ['/api/aggregates/votes?voter=Tang&groupBy=matter', 'groupBy', 'enum'],
    ['/api/aggregates/votes?voter=Tang&position=maybe', 'position', 'enum'],
    ['/api/aggregates/votes?voter=Tang&final=perhaps', 'final', 'type'],
    ['/api/aggregates/votes?voter=Tang&from=2018&to=2016', 'from', 'from-after-to'],
    ['/api/aggregates/housing?voter=Tang&groupBy=file', 'groupBy', 'unknown'],
    ['/api/aggregates/housing?voter=Tang&limit=1001', 'limit', 'maximum'],
    ['/api/aggregates/housing?voter=Tang&voter=Kim', 'voter', 'single'],
  ];
  for (const [path, parameter, rule] of cases) await expectRefusal(t, `${running.url}${path}`, parameter, rule);
  t.equal(
    (await votes('voter=Tang&limit=1000&from=2012&to=2026')).filters.limit,
    1000,
    'the bounds themselves are allowed',
  );
});

t.test('housing: Transbay Block 8 counts its 350 units once', async (t) => {
  const body = await housing('voter=Peskin&position=aye');
  const block8 = body.files.filter((f: Json) => f.fileNumber === '161050');
  t.equal(block8.length, 1, 'file 161050 appears once (agenda and minutes records are one file)');
  const [f] = block8;
  t.match(f, { units: 350, position: 'aye', action: 'ADOPTED', isFinal: true, meetingDate: '2016-11-01' });
  t.same(
    f.unitMentions.map((u: Json) => u.units),
    [350, 80],
    'both mentions, largest first',
  );
  t.ok(
    f.unitMentions.every((u: Json) => /unit/.test(u.sentence)),
    'each mention with the sentence it came from',
  );
  t.match(f.unitMentions[0].sentence, /350-unit multifamily rental housing project/);
  t.same(f.addresses, ['250 Fremont Street', '450 Folsom Street']);
  t.ok(f.housingSignals.includes('unit mention') && f.housingSignals.includes('multifamily'));
  t.match(f.evidence.officialUrl, /bag110116_minutes\.pdf#page=\d+$/);
  t.equal(new Set(body.files.map((x: Json) => x.fileNumber)).size, body.files.length, 'one action per file');
  t.equal(body.totals.files, body.total);
  t.equal(
    body.totals.units,
    body.files.reduce((a: number, x: Json) => a + x.units, 0),
    'units add up over files',
  );
  t.equal(body.totals.units, 350, 'only Transbay Block 8 has unit mentions among the voted files: 350, not 430');
  t.same(body.totals.byPosition.aye, { files: body.total, units: 350 });
  t.match(body.unitRule, /largest unit count/);
  t.match(body.housingRule, /housing/);
  t.ok(body.cautions.some((c: string) => /not completed/.test(c)));
  t.ok(body.cautions.some((c: string) => /several files of one project/.test(c)));
  t.ok(body.cautions.some((c: string) => /Amendments change texts/.test(c)));
  t.ok(
    body.files.some((x: Json) => x.fileNumber === '161041'),
    'the Transbay Block 8 air-rights lease is housing-related too',
  );
  t.notOk(
    body.files.some((x: Json) => x.fileNumber === '160965'),
    'the roof ordinance is not',
  );
});

t.test('housing: positions other than aye, limit, final', async (t) => {
  const farrell = await housing('voter=Farrell');
  t.equal(
    farrell.totals.byPosition.excused.files,
    1,
    'Farrell was excused on the Cuomo resolution (it mentions dwelling units)',
  );
  const cohen = await housing('voter=Cohen&position=no');
  t.same(
    cohen.files.map((f: Json) => [f.fileNumber, f.position, f.action]),
    [['161169', 'no', 'NOT ADOPTED']],
  );
  const one = await housing('voter=Peskin&limit=1');
  t.equal(one.returned, 1);
  t.equal(one.total, (await housing('voter=Peskin')).total, 'totals count every file whatever the limit');
  const final = await housing('voter=Peskin&final=true');
  t.ok(final.files.every((f: Json) => f.isFinal));
  t.ok(final.total < one.total, 'first readings drop out with final=true');
});

t.test('Markdown renderings cite every record', async (t) => {
  const v = await api('/api/aggregates/votes.md?voter=Tang&groupBy=roll-call');
  t.equal(v.status, 200);
  t.match(v.headers.get('content-type'), /text\/markdown/);
  t.match(v.text, /^# Recorded positions of Katy Tang/);
  for (const h of ['## Totals', '## How to read this', '## Records']) t.match(v.text, h);
  const lines = v.text.split('\n').filter((l) => /^\d+\. \*\*(aye|no|absent|excused)\*\*/.test(l));
  t.equal(lines.length, (await votes('voter=Tang&groupBy=roll-call')).returned, 'one line per record');
  t.match(v.text, /\[official PDF p\. \d+\]\(https:\/\/sfbos\.org\/[^)]+#page=\d+\)/);
  const h = await api('/api/aggregates/housing?voter=Peskin&format=md');
  t.match(h.text, /## Rules[\s\S]*## Cautions[\s\S]*## Files/);
  t.match(h.text, /File 161050: .*— 350 units —/);
  t.match(h.text, /- 80 units: “/);
  const accept = await api('/api/aggregates/housing?voter=Peskin', { headers: { Accept: 'text/markdown' } });
  t.match(accept.headers.get('content-type'), /text\/markdown/);
});

t.test('the OpenAPI document lists the answer endpoints with their schemas', async (t) => {
  const doc = (await api('/api/openapi.json')).json;
  for (const p of [
    '/api/aggregates/votes',
    '/api/aggregates/votes.md',
    '/api/aggregates/housing',
    '/api/aggregates/housing.md',
    '/api/query',
    '/api/query.md',
  ])
    t.ok(doc.paths[p], p);
  t.equal(
    doc.paths['/api/aggregates/votes'].get.responses[200].content['application/json'].schema.$ref,
    '#/components/schemas/VotesAggregate',
  );
  t.ok(
    doc.components.schemas.HousingAggregate &&
      doc.components.schemas.EvidenceBundle &&
      doc.components.schemas.Supervisor,
  );
  const limit = doc.paths['/api/aggregates/votes'].get.parameters.find((p: Json) => p.name === 'limit');
  t.match(limit.schema, { minimum: 1, maximum: 1000, default: 100 });
});

t.test('each release decides its housing files once, in its own DuckDB instance', async (t) => {
  const { Release } = await import('../src/lake/release.ts');
  const { housingAggregate } = await import('../src/queries/aggregates/housing.ts');
  const { Urls } = await import('../src/http/urls.ts');
  const settings = { poolSize: 2, queueLimit: 10, queryTimeoutMs: 30_000 };
  const [a, b] = [await Release.open(lake, settings), await Release.open(lake, settings)];
  t.teardown(() => {
    a.retire();
    b.retire();
  });
  const tableIn = async (r: typeof a) =>
    Number(
      (await r.pool.rows(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'housing_files'`))[0].n,
    );
  t.equal(await tableIn(a), 0, 'no table before the first housing request');
  const urls = new Urls('http://localhost');
  const params = { voter: 'Peskin', from: 2012, to: 2026, final: false, limit: 100 };
  const first = await Promise.all([housingAggregate(a, urls, params), housingAggregate(a, urls, params)]);
  t.same(first[0], first[1], 'concurrent first requests share one build');
  t.equal(await tableIn(a), 1, 'the first release has its table');
  t.equal(await tableIn(b), 0, 'the second release has none yet');
  t.same(await housingAggregate(b, urls, params), first[0], 'the second release builds its own and answers alike');
  t.equal(await tableIn(b), 1);
});

t.test(
  "every supervisor's totals from the in-memory position table equal a count over the lake's Parquet",
  async (t) => {
    const expected = await rows(`
    SELECT p.supervisor_id AS id, s.full_name AS name, p.position, count(*)::INTEGER AS n
    FROM ${positions} p JOIN read_parquet('$LAKE/roll_calls/*/*.parquet', hive_partitioning = true) r USING (roll_call_id)
      JOIN '$LAKE/supervisors.parquet' s USING (supervisor_id)
    GROUP BY ALL ORDER BY ALL`);
    const ids = [...new Set(expected.map((r) => r.id))];
    t.ok(ids.length >= 11, `${ids.length} supervisors with recorded positions`);
    for (const id of ids) {
      const mine = expected.filter((r) => r.id === id);
      const voter = encodeURIComponent(mine[0].name);
      const byRollCall = await votes(`voter=${voter}&groupBy=roll-call&limit=1000`);
      t.same(
        Object.entries(byRollCall.totals)
          .filter(([, n]) => n)
          .sort(),
        mine.map((r) => [r.position, r.n]).sort(),
        `${id}: every roll call counted by position`,
      );
      t.equal(byRollCall.voter.id, id);
      const byFile = await votes(`voter=${voter}&limit=1000`);
      t.equal(
        byFile.total,
        new Set(byRollCall.records.map((r: Json) => r.fileNumber)).size,
        `${id}: one record per file`,
      );
    }
  },
);
