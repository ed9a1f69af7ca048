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
  // Equalities joined by OR, not IN: DuckDB prunes row groups of the term-sorted postings on each value, not on the list's min–max.
  let where = `(${query.terms.map(() => 'term = ?').join(' OR ') || 'false'}) AND year BETWEEN ? AND ?`;
  if (kind) {
    where += ' AND kind = ?';
    params.push(kind);
  }
  const having = query.phrases.map((phrase) => {
    params.push(...phrase);
    return `len(${phrasePositions(phrase)}) > 0`;
  });
  const sql = `SELECT doc_id, sum(impact) AS score FROM ${collection}_postings WHERE ${where} GROUP BY doc_id${having.length ? ` HAVING ${having.join(' AND ')}` : ''}`;
  return { sql, params, query, empty: query.terms.length === 0 || years.from > years.to };
}

/**
 * A document's start positions of the phrase, from the postings of its terms already grouped per document: the first
 * term's positions, shifted by one and intersected with the next term's, and so on (empty or NULL: no match).
 */
function phrasePositions(phrase: string[]): string {
  const positionsOf = 'any_value(positions) FILTER (WHERE term = ?)';
  let positions = positionsOf;
  for (let i = 1; i < phrase.length; i++) positions = `list_intersect(list_transform(${positions}, x -> x + 1), ${positionsOf})`;
  return positions;
}

export function interpreted(query: ParsedQuery): string[] {
  return [query.terms.join(' '), ...query.phrases.map((p) => `"${p.join(' ')}"`)].filter((s) => s.length > 0);
}

export const round = (x: number) => Math.round(x * 10000) / 10000;
