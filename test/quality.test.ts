// The quality report over the fixture release: every count equals a count taken directly from the Parquet tables.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { start } from '../src/server.ts';
import type { Json } from './fixture.ts';
import { CORPUS, FIXTURE_LAKE, fixtureRelease, get, schemaErrors, testConfig } from './fixture.ts';

const releaseId = await fixtureRelease();
const running = await start(testConfig());
t.teardown(() => running.close());
const report = (await get(`${running.url}/api/quality`)).json;

const dir = join(FIXTURE_LAKE, 'releases', releaseId);
const db = await (await DuckDBInstance.create(':memory:')).connect();
const src = (table: string) =>
  ['problems', 'supervisors', 'legislative_files'].includes(table)
    ? `'${dir}/${table}.parquet'`
    : `read_parquet('${dir}/${table}/*/*.parquet', hive_partitioning = true)`;
const rows = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJson() as Record<string, Json>[];
const n = async (sql: string) => Number((await db.runAndReadAll(sql)).getRows()[0][0]);

t.test('the report is valid and names its release', async (t) => {
  t.equal(schemaErrors('quality-report.json', report), '');
  t.equal(report.release, releaseId);
});

t.test('totals equal the Parquet row counts', async (t) => {
  const tt = report.totals;
  t.equal(tt.documents, await n(`SELECT count(*) FROM ${src('documents')}`));
  t.equal(tt.pages, await n(`SELECT count(*) FROM ${src('pages')}`));
  t.equal(tt.pagesWithText, await n(`SELECT count(*) FROM ${src('pages')} WHERE quality IN ('ok', 'repaired')`));
  t.equal(tt.repairedPages, await n(`SELECT count(*) FROM ${src('pages')} WHERE quality = 'repaired'`));
  t.equal(tt.garbagePages, await n(`SELECT count(*) FROM ${src('pages')} WHERE quality = 'garbage'`));
  t.equal(tt.emptyPages, await n(`SELECT count(*) FROM ${src('pages')} WHERE quality = 'empty'`));
  t.equal(tt.items, await n(`SELECT count(*) FROM ${src('items')}`));
  t.equal(tt.rollCalls, await n(`SELECT count(*) FROM ${src('roll_calls')}`));
  t.equal(tt.positions, await n(`SELECT count(*) FROM ${src('positions')}`));
  t.equal(tt.comments, await n(`SELECT count(*) FROM ${src('comments')}`));
  t.equal(tt.problems, await n(`SELECT count(*) FROM ${src('problems')}`));
  t.equal(tt.legislativeFiles, await n(`SELECT count(*) FROM ${src('legislative_files')}`));
  t.equal(tt.supervisors, await n(`SELECT count(*) FROM ${src('supervisors')}`));
  t.ok(tt.items > 1000 && tt.positions > 400, 'the fixture has real content');
});

t.test('per-document and per-year coverage equal grouped Parquet counts', async (t) => {
  const per = async (table: string) =>
    new Map(
      (await rows(`SELECT document_id, count(*)::INTEGER AS n FROM ${src(table)} GROUP BY ALL`)).map((r) => [
        r.document_id,
        r.n,
      ]),
    );
  const [pages, items, rolls, positions, comments] = await Promise.all(
    ['pages', 'items', 'roll_calls', 'positions', 'comments'].map(per),
  );
  t.equal(report.coverage.documents.length, 38);
  for (const d of report.coverage.documents) {
    t.same(
      [d.pages, d.items, d.rollCalls, d.positions, d.comments],
      [
        pages.get(d.documentId) ?? 0,
        items.get(d.documentId) ?? 0,
        rolls.get(d.documentId) ?? 0,
        positions.get(d.documentId) ?? 0,
        comments.get(d.documentId) ?? 0,
      ],
      d.documentId,
    );
  }
  const minutes = report.coverage.documents.find((d: Json) => d.documentId === '2016-11-01-minutes');
  t.ok(
    minutes.rollCalls > 0 && minutes.positions > 0 && minutes.comments > 0,
    'the minutes carry roll calls, positions and comments',
  );
  const byYearKind = await rows(
    `SELECT year::INTEGER AS year, kind, count(*)::INTEGER AS documents, sum(pages)::INTEGER AS pages FROM ${src('documents')} GROUP BY ALL ORDER BY ALL`,
  );
  t.same(
    report.coverage.byYearKind.map((g: Json) => ({
      year: g.year,
      kind: g.kind,
      documents: g.documents,
      pages: g.pages,
    })),
    byYearKind,
    'documents and pages per year and kind',
  );
});

t.test('provenance: official URL, sha256 of the PDF, extractor and parser versions per document', async (t) => {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  t.match(manifest.parser, /^board-records-parse\/[0-9a-f]{12}$/);
  const docs = new Map(
    (await rows(`SELECT document_id, official_url, sha256, extractor FROM ${src('documents')}`)).map((r) => [
      r.document_id,
      r,
    ]),
  );
  t.equal(report.provenance.length, docs.size);
  for (const p of report.provenance) {
    const d = docs.get(p.documentId)!;
    t.same(
      [p.officialUrl, p.sha256, p.extractor, p.parser],
      [d.official_url, d.sha256, d.extractor, manifest.parser],
      p.documentId,
    );
  }
  const one = report.provenance.find((p: Json) => p.documentId === '2016-11-01-minutes');
  t.equal(
    createHash('sha256')
      .update(await readFile(join(CORPUS, 'pdfs', one.fileName)))
      .digest('hex'),
    one.sha256,
    "the sha256 is the PDF's",
  );
});

t.test('reconciliation counts equal the positions and problems tables', async (t) => {
  const r = report.reconciliation;
  t.equal(r.namesRecorded, await n(`SELECT count(*) FROM ${src('positions')}`));
  t.equal(r.resolved, await n(`SELECT count(supervisor_id) FROM ${src('positions')}`));
  t.equal(r.ambiguous, await n(`SELECT count(*) FROM ${src('problems')} WHERE kind = 'ambiguous-name'`));
  t.equal(r.unresolved, await n(`SELECT count(*) FROM ${src('problems')} WHERE kind = 'unresolved-name'`));
  t.equal(
    r.resolved + r.ambiguous + r.unresolved,
    r.namesRecorded,
    'every recorded name is resolved, ambiguous or unresolved',
  );
  t.equal(r.distinctNames, await n(`SELECT count(DISTINCT name_as_recorded) FROM ${src('positions')}`));
});

t.test('the problem list is the problems table, each row cited by document and page', async (t) => {
  const table = await rows(
    `SELECT document_id, page::INTEGER AS page, kind, detail FROM ${src('problems')} ORDER BY ALL`,
  );
  const p = report.problems;
  t.equal(p.total, table.length);
  t.equal(p.truncated, false);
  t.same(
    p.rows.map((r: Json) => ({ document_id: r.documentId, page: r.page, kind: r.kind, detail: r.detail })),
    table,
  );
  const byKind: Record<string, number> = {};
  for (const r of table) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  t.same(p.byKind, byKind);
  for (const r of p.rows) {
    t.match(r.officialUrl, new RegExp(`\\.pdf#page=${r.page}$`), 'official PDF page');
    const page = await get(r.pageUrl);
    t.equal(page.status, 200, `${r.pageUrl} resolves`);
  }
  const file = await fetch(p.fileUrl);
  t.equal(file.status, 200, 'the whole list downloads as Parquet');
  await file.arrayBuffer();
});
