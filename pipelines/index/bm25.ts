// BM25 index tables for one text collection (pages, items or comments), computed in DuckDB from analysed terms.
// Each posting stores its precomputed impact (idf × saturated tf with length normalisation): all of it is static
// per release, so ranking at query time is a sum over the query terms' postings.
import type { DuckDBConnection } from '@duckdb/node-api';
import { ANALYSIS } from '../../src/text/analysis.ts';
import { copyOut } from '../publish/tables.ts';

/**
 * `source` is a table with `doc_id VARCHAR, year INTEGER, kind VARCHAR, terms VARCHAR[]` (analysed terms in order).
 * Writes `<dir>/<name>_terms.parquet`, `<name>_postings.parquet`, `<name>_docs.parquet`, `<name>_stats.parquet`.
 */
export async function writeBm25(db: DuckDBConnection, source: string, name: string, dir: string): Promise<void> {
  const { k1, b } = ANALYSIS.bm25;
  await db.run(`
    CREATE OR REPLACE TABLE ${name}_stats AS
      SELECT count(*)::BIGINT AS num_docs, coalesce(avg(len(terms)), 0)::DOUBLE AS avgdl, ${k1}::DOUBLE AS k1, ${b}::DOUBLE AS b
      FROM ${source};
    CREATE OR REPLACE TABLE ${name}_tf AS
      SELECT doc_id, any_value(year) AS year, any_value(kind) AS kind, term, count(*)::INTEGER AS tf
      FROM (SELECT doc_id, year, kind, unnest(terms) AS term FROM ${source})
      GROUP BY doc_id, term;
    CREATE OR REPLACE TABLE ${name}_terms AS
      SELECT term, count(*)::INTEGER AS df,
             log((((SELECT num_docs FROM ${name}_stats) - count(*) + 0.5) / (count(*) + 0.5)) + 1) AS idf
      FROM ${name}_tf GROUP BY term;
    CREATE OR REPLACE TABLE ${name}_docs AS
      SELECT doc_id, year, kind, len(terms)::INTEGER AS doclen, ' ' || array_to_string(terms, ' ') || ' ' AS term_string
      FROM ${source};
  `);
  const postings = `
    SELECT p.term, p.doc_id, p.year, p.kind, p.tf, d.doclen,
           (t.idf * p.tf * (s.k1 + 1) / (p.tf + s.k1 * (1 - s.b + s.b * d.doclen / s.avgdl)))::DOUBLE AS impact
    FROM ${name}_tf p JOIN ${name}_terms t USING (term) JOIN ${name}_docs d USING (doc_id), ${name}_stats s`;
  await copyOut(db, postings, `${dir}/${name}_postings`, { orderBy: 'term, doc_id', rowGroupSize: 16384 });
  await copyOut(db, `SELECT * FROM ${name}_terms`, `${dir}/${name}_terms`, { orderBy: 'term' });
  await copyOut(db, `SELECT * FROM ${name}_docs`, `${dir}/${name}_docs`, { orderBy: 'doc_id' });
  await copyOut(db, `SELECT * FROM ${name}_stats`, `${dir}/${name}_stats`, { orderBy: 'num_docs' });
}
