// BM25 over one of the release's index collections (page, item, comment): the matching documents and their scores
// as a SQL fragment the resource queries build on. Scores are sums of precomputed posting impacts (lake/README.md).
import type { DuckDBValue } from '@duckdb/node-api';
import { parseQuery, termString, type ParsedQuery } from '../text/analysis.ts';

export type Collection = 'page' | 'item' | 'comment';

export interface Matches {
  /** `SELECT doc_id, score FROM …`: every matching document of the collection. */
  sql: string;
  params: DuckDBValue[];
  query: ParsedQuery;
  /** No term survived analysis (only stopwords or punctuation), or the year range is empty: nothing can match. */
  empty: boolean;
}

export function bm25(collection: Collection, q: string, years: { from: number; to: number }, kind?: string): Matches {
  const query = parseQuery(q);
  const params: DuckDBValue[] = [...query.terms, years.from, years.to];
  let where = `term IN (${query.terms.map(() => '?').join(', ') || 'NULL'}) AND year BETWEEN ? AND ?`;
  if (kind) {
    where += ' AND kind = ?';
    params.push(kind);
  }
  let sql = `SELECT doc_id, sum(impact) AS score FROM ${collection}_postings WHERE ${where} GROUP BY doc_id`;
  if (query.phrases.length) {
    sql = `SELECT h.doc_id, h.score FROM (${sql}) h JOIN ${collection}_docs d USING (doc_id) WHERE ${query.phrases.map(() => 'contains(d.term_string, ?)').join(' AND ')}`;
    params.push(...query.phrases.map(termString));
  }
  return { sql, params, query, empty: query.terms.length === 0 || years.from > years.to };
}

export function interpreted(query: ParsedQuery): string[] {
  return [query.terms.join(' '), ...query.phrases.map((p) => `"${p.join(' ')}"`)].filter((s) => s.length > 0);
}

export const round = (x: number) => Math.round(x * 10000) / 10000;
