// BM25 ranked in JavaScript from the postings store (src/engine/rank.ts) gives exactly what the SQL of sql-bm25.ts gives:
// the same top 20 in the same order, scores within 1e-9 and the same total, over every judged query, the bench's query
// classes, phrases with stopwords, compounds, thesaurus expansions, every filter and empty results, for pages, items
// and comments. The store's bytes are reproducible: release.test.ts rebuilds the fixture release and gets the same
// release id, which hashes every file's sha256 (SHA256SUMS), the postings stores' included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import t, { type Test } from 'tap';

import { deriveQueries, SEARCH_CLASSES } from '../bench/queries.ts';
import type { Collection } from '../core/lake/format.ts';
import { postingsStore } from '../src/engine/postings.ts';
import { rank } from '../src/engine/rank.ts';
import { Params } from '../src/queries/sql.ts';
import { yearRange } from '../src/queries/years.ts';
import { openFixtureRelease, ROOT } from './fixture.ts';
import { bm25 } from './sql-bm25.ts';

const release = await openFixtureRelease(t);

type Filters = { from: number; to: number; kind?: string; date?: string };

async function bySql(collection: Collection, text: string, f: Filters) {
  const q = new Params();
  const m = await bm25(release, q, collection, text, f, f.kind);
  if (m.empty) return { query: m.query, ids: [], total: 0 };
  const where = f.date ? `WHERE starts_with(doc_id, ${q.add(`${f.date}-`)})` : '';
  const rows = await release.pool.rows(
    `SELECT doc_id AS id, score, (count(*) OVER ())::INTEGER AS total FROM (${m.sql}) ${where} ORDER BY score DESC, doc_id LIMIT 20`,
    q,
  );
  return {
    query: m.query,
    ids: rows.map((r) => ({ id: String(r.id), score: Number(r.score) })),
    total: rows.length ? Number(rows[0].total) : 0,
  };
}

/** Compares the two rankings; returns the SQL's total. */
async function same(t: Test, collection: Collection, text: string, f: Filters): Promise<number> {
  const sql = await bySql(collection, text, f);
  const ranked = await rank(release, { collection, query: sql.query, ...f, limit: 20 });
  const js = { ids: ranked.hits, total: ranked.total };
  const label = `${collection} ${JSON.stringify(text)} ${JSON.stringify(f)}`;
  const ok =
    js.total === sql.total &&
    js.ids.length === sql.ids.length &&
    js.ids.every((r, i) => r.id === sql.ids[i].id && Math.abs(r.score - sql.ids[i].score) < 1e-9);
  if (!ok) {
    t.equal(js.total, sql.total, `${label}: total`);
    t.same(
      js.ids.map((r) => r.id),
      sql.ids.map((r) => r.id),
      `${label}: the same documents in the same order`,
    );
    t.same(
      js.ids.map((r) => r.score.toFixed(9)),
      sql.ids.map((r) => r.score.toFixed(9)),
      `${label}: the same scores`,
    );
  } else t.pass(`${label}: ${sql.total} matches, the same top ${sql.ids.length}`);
  return sql.total;
}

const all = { from: 2012, to: 2026 };

t.test('every judged query ranks as the SQL ranks it, pages and items', async (t) => {
  const judged = JSON.parse(readFileSync(join(ROOT, 'bench', 'judged', 'queries.json'), 'utf8')).queries as {
    query: string;
  }[];
  t.ok(judged.length >= 100, `${judged.length} judged queries`);
  let matched = 0;
  for (const { query } of judged) {
    if ((await same(t, 'page', query, all)) > 0) matched++;
    await same(t, 'item', query, all);
  }
  t.ok(matched >= judged.length * 0.9, `${matched} judged queries match pages`);
});

t.test("the bench's query classes, with their year and kind", async (t) => {
  const set = await deriveQueries(release, 5);
  for (const cls of SEARCH_CLASSES) {
    t.ok(set.search[cls].length > 0, `${cls}: ${set.search[cls].length} queries`);
    for (const s of set.search[cls]) await same(t, 'page', s.q, { ...yearRange({ year: s.year }), kind: s.kind });
  }
});

t.test('phrases, stopwords, compounds, expansions, filters and empty results', async (t) => {
  const cases: [Collection, string, Filters, string][] = [
    ['page', '"board of supervisors"', all, 'a phrase with a stopword'],
    ['page', '"not adopted"', all, 'a phrase starting with a stopword'],
    ['page', '"to be"', all, 'a phrase of stopwords alone'],
    ['page', '"not"', all, 'a lone quoted stopword'],
    ['page', '"public convenience or necessity"', all, 'punctuation breaks a phrase'],
    ['page', '"ordinance amending" planning', all, 'a common phrase and a word'],
    ['page', '"Transbay Block 8"', all, 'a rare phrase'],
    ['page', 'short-term rental', all, 'a compound with a thesaurus expansion'],
    ['page', 'short-term', all, 'a compound'],
    ['page', 'Airbnb', all, 'an expansion back to short-term rentals'],
    ['page', 'BART', all, 'an acronym and its name'],
    ['page', 'in-law unit', all, 'a compound and its expansion'],
    ['page', 'Muni fares', all, 'an expansion beside a word'],
    ['page', 'housing', { from: 2016, to: 2016, kind: 'minutes' }, 'year and kind'],
    ['page', 'housing', { ...all, kind: 'agenda' }, 'kind'],
    ['page', 'Krueger Rosenthal', { ...all, date: '2016-11-01' }, 'one meeting'],
    ['page', 'ordinance', { from: 2019, to: 2020 }, 'a year range'],
    ['page', 'ordinance', { ...all, kind: 'transcript' }, 'a kind no document has'],
    ['page', 'zzyzx', all, 'a word no page holds'],
    ['page', '"zzyzx board"', all, 'a phrase with a missing word'],
    ['page', 'the of and', all, 'stopwords alone'],
    ['page', '160424 160553', all, 'two file numbers'],
    ['item', 'short-term rental', all, 'items: compound and expansion'],
    ['item', '"board of supervisors" housing', { from: 2016, to: 2017 }, 'items: phrase and word'],
    ['item', 'Cuomo Krueger', { ...all, date: '2016-11-01' }, 'items: one meeting'],
    ['item', 'ordinance', { from: 2016, to: 2016, kind: 'minutes' }, 'items: year and kind'],
    ['comment', 'housing', all, 'comments'],
    ['comment', '"affordable housing"', all, 'comments: a phrase'],
    ['comment', 'housing', { ...all, date: '2016-11-01' }, 'comments: one meeting'],
    ['comment', 'zzyzx', all, 'comments: none'],
  ];
  for (const [collection, text, f, what] of cases)
    await t.test(what, async (t) => {
      await same(t, collection, text, f);
    });
});

t.test('a common term: every page holding it counted, filters exact', async (t) => {
  const store = await postingsStore(release, 'page');
  const ranked = await rank(release, {
    collection: 'page',
    query: { terms: ['board'], phrases: [], weighted: [] },
    ...all,
    limit: 3,
  });
  const plain = { ids: ranked.hits, total: ranked.total };
  t.equal(
    plain.total,
    (await store.postings('board')).docs.length,
    `"board": ${plain.total} pages, its whole postings list`,
  );
  t.equal(plain.ids.length, 3, 'the top 3 only');
  t.ok(plain.ids[0].score >= plain.ids[1].score && plain.ids[1].score >= plain.ids[2].score, 'by score');
  const none = await rank(release, {
    collection: 'page',
    query: { terms: ['board'], phrases: [], weighted: [] },
    from: 2030,
    to: 2012,
    limit: 3,
  });
  t.same([none.hits, none.total], [[], 0], 'an empty year range');
});

t.test('the store holds the doc table of the docs table, in doc_id order', async (t) => {
  for (const collection of ['page', 'item', 'comment'] as const) {
    const store = await postingsStore(release, collection);
    const rows = await release.pool.rows(
      `SELECT doc_no, doc_id, year::INTEGER AS year, kind FROM ${collection}_docs ORDER BY doc_id`,
    );
    t.equal(store.docs, rows.length, `${collection}: ${rows.length} documents`);
    t.ok(
      rows.every(
        (r, i) =>
          Number(r.doc_no) === i &&
          store.docId(i) === r.doc_id &&
          store.docYear[i] === r.year &&
          store.kind(String(r.kind)) === store.docKind[i],
      ),
      `${collection}: doc_no, id, year and kind agree`,
    );
  }
});
