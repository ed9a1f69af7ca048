// BM25 index tables for one text collection (pages, items or comments), computed in DuckDB from analysed terms.
// Each posting stores its precomputed impact (idf × saturated tf with length normalisation): all of it is static
// per release, so ranking at query time is a sum over the query terms' postings. Postings also keep the term's
// positions, so a quoted phrase is checked on the postings of its own words. A text store beside the tables lets the
// server read a few documents' text for snippets without decoding whole Parquet row groups.
import { writeFile } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ANALYSIS, terms } from '../../src/text/analysis.ts';
import { copyOut, loadRows } from '../publish/tables.ts';

export interface IndexDoc { doc_id: string; year: number; kind: string; text: string }

/**
 * Writes `<dir>/<name>_terms.parquet`, `_postings`, `_docs`, `_stats` and `<name>_text.bin` (each document's text,
 * raw-deflated, at `text_offset` / `text_bytes` in `_docs`).
 */
export async function writeBm25(db: DuckDBConnection, scratch: string, name: string, dir: string, docs: IndexDoc[]): Promise<void> {
  const sorted = [...docs].sort((a, b) => (a.doc_id < b.doc_id ? -1 : a.doc_id > b.doc_id ? 1 : 0));
  const chunks: Buffer[] = [];
  let offset = 0;
  const rows = sorted.map((d) => {
    // A copy: the deflated result sits in a 16 KiB buffer, and a hundred thousand of those would hold gigabytes.
    const bytes = Buffer.from(deflateRawSync(Buffer.from(d.text, 'utf8'), { level: 6 }));
    chunks.push(bytes);
    const row = { doc_id: d.doc_id, year: d.year, kind: d.kind, terms: terms(d.text), text_offset: offset, text_bytes: bytes.length };
    offset += bytes.length;
    return row;
  });
  await writeFile(`${dir}/${name}_text.bin`, Buffer.concat(chunks));
  const source = `${name}_source`;
  await loadRows(db, scratch, source, { doc_id: 'VARCHAR', year: 'INTEGER', kind: 'VARCHAR', terms: 'VARCHAR[]', text_offset: 'BIGINT', text_bytes: 'INTEGER' }, rows);

  const { k1, b } = ANALYSIS.bm25;
  await db.run(`
    CREATE OR REPLACE TABLE ${name}_stats AS
      SELECT count(*)::BIGINT AS num_docs, coalesce(avg(len(terms)), 0)::DOUBLE AS avgdl, ${k1}::DOUBLE AS k1, ${b}::DOUBLE AS b
      FROM ${source};
    CREATE OR REPLACE TABLE ${name}_tf AS
      SELECT doc_id, any_value(year) AS year, any_value(kind) AS kind, term, count(*)::INTEGER AS tf, list(pos ORDER BY pos) AS positions
      FROM (SELECT doc_id, year, kind, unnest(terms) AS term, unnest(range(len(terms)))::INTEGER AS pos FROM ${source})
      GROUP BY doc_id, term;
    CREATE OR REPLACE TABLE ${name}_terms AS
      SELECT term, count(*)::INTEGER AS df,
             log((((SELECT num_docs FROM ${name}_stats) - count(*) + 0.5) / (count(*) + 0.5)) + 1) AS idf
      FROM ${name}_tf GROUP BY term;
    CREATE OR REPLACE TABLE ${name}_docs AS
      SELECT doc_id, year, kind, len(terms)::INTEGER AS doclen, text_offset, text_bytes FROM ${source};
  `);
  const postings = `
    SELECT p.term, p.doc_id, p.year, p.kind, p.tf, d.doclen,
           (t.idf * p.tf * (s.k1 + 1) / (p.tf + s.k1 * (1 - s.b + s.b * d.doclen / s.avgdl)))::DOUBLE AS impact, p.positions
    FROM ${name}_tf p JOIN ${name}_terms t USING (term) JOIN ${name}_docs d USING (doc_id), ${name}_stats s`;
  await copyOut(db, postings, `${dir}/${name}_postings`, { orderBy: 'term, doc_id', rowGroupSize: 16384 });
  await copyOut(db, `SELECT * FROM ${name}_terms`, `${dir}/${name}_terms`, { orderBy: 'term' });
  await copyOut(db, `SELECT * FROM ${name}_docs`, `${dir}/${name}_docs`, { orderBy: 'doc_id' });
  await copyOut(db, `SELECT * FROM ${name}_stats`, `${dir}/${name}_stats`, { orderBy: 'num_docs' });
  await db.run(`DROP TABLE ${name}_tf; DROP TABLE ${source};`);
}
