// BM25 over one of the release's index collections (page, item, comment): the matching documents and their scores
// as a SQL fragment the resource queries build on. Scores are sums of precomputed posting impacts (lake/README.md).
import type { DuckDBValue } from '@duckdb/node-api';
import { parseQuery, type ParsedQuery } from '../text/analysis.ts';

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
  for (const phrase of query.phrases) {
    const p = phraseMatch(collection, phrase, years, kind);
    where += ` AND doc_id IN (${p.sql})`;
    params.push(...p.params);
  }
  return { sql: `SELECT doc_id, sum(impact) AS score FROM ${collection}_postings WHERE ${where} GROUP BY doc_id`, params, query, empty: query.terms.length === 0 || years.from > years.to };
}

/**
 * Documents holding the phrase's terms at consecutive positions: the first term's positions, shifted by one and
 * intersected with the next term's, and so on; a document matches when any start position survives.
 */
function phraseMatch(collection: Collection, phrase: string[], years: { from: number; to: number }, kind?: string): { sql: string; params: DuckDBValue[] } {
  let positions = 'p0.positions';
  const joins: string[] = [];
  for (let i = 1; i < phrase.length; i++) {
    joins.push(`JOIN ${collection}_postings p${i} ON p${i}.doc_id = p0.doc_id AND p${i}.term = ?`);
    positions = `list_intersect(list_transform(${positions}, x -> x + 1), p${i}.positions)`;
  }
  const sql = `SELECT p0.doc_id FROM ${collection}_postings p0 ${joins.join(' ')}
    WHERE p0.term = ? AND p0.year BETWEEN ? AND ?${kind ? ' AND p0.kind = ?' : ''} AND len(${positions}) > 0`;
  return { sql, params: [...phrase.slice(1), phrase[0], years.from, years.to, ...(kind ? [kind] : [])] };
}

export function interpreted(query: ParsedQuery): string[] {
  return [query.terms.join(' '), ...query.phrases.map((p) => `"${p.join(' ')}"`)].filter((s) => s.length > 0);
}

export const round = (x: number) => Math.round(x * 10000) / 10000;
