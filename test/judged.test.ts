// The judged relevance set (bench/judged/queries.json) stays whole, and its harness (bench/judged.ts) runs: every
// judged page exists in the fixture release built from ../shared/corpus, grades are 0–3, every query has a page that
// answers it (grade 3), and one query of each kind measured through a real server and FTS5 reports all six kinds.
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import {
  formatJudged,
  judgedMetrics,
  KINDS,
  loadJudged,
  ndcgAt,
  recallAt,
  reciprocalRank,
  withJudgedEngines,
} from '../bench/judged.ts';
import { FIXTURE_LAKE, fixtureRelease } from './fixture.ts';

const queries = loadJudged();

t.test('the set: kinds, ids, grades, and a grade-3 page for every query', async (t) => {
  t.ok(queries.length >= 120, `${queries.length} queries`);
  for (const kind of KINDS) {
    const n = queries.filter((q) => q.kind === kind).length;
    t.ok(n >= 18, `${kind}: ${n} queries`);
  }
  const ids = queries.map((q) => q.id);
  t.equal(new Set(ids).size, ids.length, 'query ids are unique');
  for (const q of queries) {
    t.ok(KINDS.includes(q.kind), `${q.id}: kind '${q.kind}'`);
    t.ok(q.query.trim().length >= 2 && q.about.trim().length > 0, `${q.id}: query and about`);
    const grades = Object.values(q.judgments);
    t.ok(
      grades.every((g) => Number.isInteger(g) && g >= 0 && g <= 3),
      `${q.id}: grades in 0..3`,
    );
    t.ok(grades.includes(3), `${q.id}: at least one grade-3 page`);
  }
});

t.test('the metrics: graded nDCG@10, recall@20 over grades 2-3, MRR of the first grade-3 page', async (t) => {
  const grades = { a: 3, b: 2, c: 1, d: 0 };
  t.equal(ndcgAt(['a', 'b', 'c'], grades, 10), 1, 'the ideal order scores 1');
  t.ok(
    ndcgAt(['c', 'b', 'a'], grades, 10) < ndcgAt(['a', 'c', 'b'], grades, 10),
    'the grade-3 page first matters most',
  );
  t.equal(ndcgAt(['d', 'x'], grades, 10), 0, 'no judged-relevant page scores 0');
  t.equal(recallAt(['a', 'c', 'd'], grades, 20), 0.5, 'a mention (grade 1) is not counted in recall');
  t.equal(reciprocalRank(['b', 'c', 'a'], grades), 1 / 3, 'MRR waits for the grade-3 page');
  t.equal(reciprocalRank(['b', 'c'], grades), 0);
});

t.test('every judged page is a page of the fixture release', async (t) => {
  const dir = join(FIXTURE_LAKE, 'releases', await fixtureRelease());
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  const rows = (
    await conn.runAndReadAll(
      `SELECT page_id FROM read_parquet('${join(dir, 'pages', '*', '*.parquet')}', hive_partitioning = true)`,
    )
  ).getRows();
  conn.closeSync();
  instance.closeSync();
  const pages = new Set(rows.map((r) => String(r[0])));
  t.ok(pages.has('2017-05-23-agenda-p16') && pages.has('2016-11-01-minutes-p5'), `${pages.size} pages read`);
  const missing = queries.flatMap((q) =>
    Object.keys(q.judgments)
      .filter((id) => !pages.has(id))
      .map((id) => `${q.id}: ${id}`),
  );
  t.same(missing, [], 'no judged page is missing');
});

t.test('the harness measures lexical, hybrid and FTS5 and reports all six kinds', async (t) => {
  const sample = KINDS.map((k) => queries.find((q) => q.kind === k)!);
  t.ok(sample.every(Boolean), 'a query of every kind');
  const r = await withJudgedEngines(({ url, fts }) => judgedMetrics(url, sample, fts));
  t.equal(r.queries, KINDS.length);
  for (const kind of KINDS) {
    t.equal(r.perKind[kind].queries, 1, `${kind}: one query`);
    for (const e of ['lexical', 'hybrid', 'fts5'] as const) {
      const m = r.perKind[kind][e];
      t.ok(
        m && [m.ndcg10, m.recall20, m.mrr].every((x) => x >= 0 && x <= 1),
        `${kind} ${e}: nDCG@10, recall@20 and MRR in 0..1`,
      );
    }
  }
  const table = formatJudged(r);
  for (const kind of KINDS) t.match(table, new RegExp(`^\\| ${kind} \\| 1 \\|`, 'm'), `the table has a ${kind} row`);
  t.match(table, /^\| overall \| 6 \|/m);
});
