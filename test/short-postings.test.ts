// Short postings lists ranked in memory (src/queries/short-postings.ts) give exactly what the BM25 SQL gives: the same
// top 20 in the same order, the same total and scores, for rare words, file numbers and phrases with every filter (a
// term past SHORT postings is left to DuckDB, which the bench's SCALE=1 corpus exercises).
import t from 'tap';
import { bm25 } from '../src/queries/bm25.ts';
import { rankShort } from '../src/queries/short-postings.ts';
import { Params } from '../src/queries/sql.ts';
import { startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const release = running.lake.acquire();
t.teardown(() => release.drop());

async function bySql(text: string, f: { from: number; to: number; kind?: string; date?: string }, collection: 'page' | 'item' = 'page') {
  const q = new Params();
  const m = await bm25(release, q, collection, text, f, f.kind);
  const where = f.date ? `WHERE starts_with(doc_id, ${q.add(`${f.date}-`)})` : '';
  const rows = await release.pool.rows(`SELECT doc_id AS id, score, (count(*) OVER ())::INTEGER AS total FROM (${m.sql}) ${where} ORDER BY score DESC, doc_id LIMIT 20`, q);
  return { query: m.query, ids: rows.map((r) => ({ id: String(r.id), score: Number(r.score) })), total: rows.length ? Number(rows[0].total) : 0 };
}

const all = { from: 2012, to: 2026 };
const cases: [string, { from: number; to: number; kind?: string; date?: string }][] = [
  ['161169', all], ['Cuomo', all], ['Transbay', all], ['Transbay', { from: 2016, to: 2016, kind: 'minutes' }], ['Transbay', { ...all, kind: 'agenda' }],
  ['"Transbay Block 8"', all], ['"board of supervisors" housing', { from: 2016, to: 2017 }], ['"Block 8" Transbay', all], ['Krueger Rosenthal', { ...all, date: '2016-11-01' }], ['zzyzx', all], ['160424 160553', all],
];

t.test('the same ranking as the SQL for short lists', async (t) => {
  let ranked = 0;
  for (const [text, f] of cases) {
    const sql = await bySql(text, f);
    const mem = await rankShort(release, 'page', sql.query, { ...f, limit: 20 });
    if (!mem) continue;
    ranked++;
    t.equal(mem.total, sql.total, `${text} ${JSON.stringify(f)}: total ${sql.total}`);
    t.same(mem.ids.map((r) => r.id), sql.ids.map((r) => r.id), `${text}: the same pages in the same order`);
    t.ok(mem.ids.every((r, i) => Math.abs(r.score - sql.ids[i].score) < 1e-9), `${text}: the same scores`);
  }
  t.ok(ranked >= 8, `${ranked} of ${cases.length} queries ranked in memory`);
});

t.test('item search ranks the same in memory as in SQL, and answers the file asked for first', async (t) => {
  for (const [text, f] of [['161169', all], ['Transbay', all], ['Cuomo Krueger', { ...all, date: '2016-11-01' }], ['"Transbay Block 8"', all]] as const) {
    const sql = await bySql(text, f, 'item');
    const mem = await rankShort(release, 'item', sql.query, { ...f, limit: 20 });
    t.ok(mem, `${text}: ranked in memory`);
    t.equal(mem?.total, sql.total, `${text}: total ${sql.total}`);
    t.same(mem?.ids.map((r) => r.id), sql.ids.map((r) => r.id), `${text}: the same items in the same order`);
  }
  const body = await (await fetch(`${running.url}/api/items?q=161169&limit=3`)).json();
  t.equal(body.results[0].fileNumber, '161169');
});
