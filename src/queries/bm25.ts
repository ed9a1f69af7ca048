// BM25 over one of the release's index collections (page, item, comment): the matching documents and their scores
// as a SQL fragment the resource queries build on. Scores are sums of precomputed posting impacts (lake/README.md).
import { join } from 'node:path';
import { indexTable, POSTINGS_PART, type Collection } from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import type { Release } from '../lake/release.ts';
import { parseQuery, phraseText, type ParsedQuery } from '../../core/text/analysis.ts';
import type { Params } from './sql.ts';

export interface Matches {
  /** `SELECT doc_id, score FROM …`: every matching document of the collection (its values added to the caller's Params). */
  sql: string;
  query: ParsedQuery;
  /** No term or phrase survived analysis (unquoted stopwords only, or punctuation), or the year range is empty. */
  empty: boolean;
}

export async function bm25(release: Release, q: Params, collection: Collection, text: string, years: { from: number; to: number }, kind?: string): Promise<Matches> {
  const query = parseQuery(text);
  // The scored terms and every phrase's words: a phrase's stopwords are read for their positions and score 0 (impact 0).
  const read = [...new Set([...query.terms, ...query.phrases.flat()])];
  // Equalities joined by OR, not IN: DuckDB prunes row groups of the term-sorted postings on each value, not on the list's min–max.
  let where = `(${read.map((t) => `term = ${q.add(t)}`).join(' OR ') || 'false'}) AND year BETWEEN ${q.add(years.from)} AND ${q.add(years.to)}`;
  if (kind) where += ` AND kind = ${q.add(kind)}`;
  const having = query.phrases.map((phrase) => `len(${phrasePositions(phrase, q)}) > 0`);
  const sql = `SELECT doc_id, sum(impact) AS score FROM ${await postingsOf(release, collection, read)} WHERE ${where} GROUP BY doc_id${having.length ? ` HAVING ${having.join(' AND ')}` : ''}`;
  return { sql, query, empty: read.length === 0 || years.from > years.to };
}

/** A collection's postings part files, by the first term each holds (UTF-8 byte order: DuckDB's order of VARCHAR). */
interface Parts { first: Buffer[]; files: string[] }

/**
 * The postings holding these terms: the part files their terms fall in, or the whole table (a release written in one
 * file, or a collection with no postings at all, whose table is one empty file).
 */
export async function postingsOf(release: Release, collection: Collection, terms: string[]): Promise<string> {
  const parts = await release.memo(`postings-parts:${collection}`, async (): Promise<Parts | null> => {
    const files = release.manifest.tables[indexTable(collection, 'postings')].files;
    if (!files.some((f) => POSTINGS_PART.test(f.path))) return null;
    const pathOf = new Map(files.map((f) => [Number(POSTINGS_PART.exec(f.path)?.[1]), join(release.dir, f.path)]));
    const rows = await release.pool.rows(`SELECT part::INTEGER AS part, min(term) AS first FROM ${indexTable(collection, 'terms')} GROUP BY part ORDER BY first`);
    return { first: rows.map((r) => Buffer.from(String(r.first))), files: rows.map((r) => pathOf.get(Number(r.part))!) };
  });
  if (!parts || terms.length === 0) return indexTable(collection, 'postings');
  const chosen = [...new Set(terms.map((t) => parts.files[partIndex(parts.first, Buffer.from(t))]))].sort();
  return `read_parquet([${chosen.map(sqlString).join(', ')}], hive_partitioning = false)`;
}

/** The last part whose first term is at most `term` (the first part for a term before them all). */
function partIndex(first: Buffer[], term: Buffer): number {
  let lo = 0;
  let hi = first.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Buffer.compare(first[mid], term) <= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A document's start positions of the phrase, from the postings of its terms already grouped per document: the first
 * term's positions, shifted by one and intersected with the next term's, and so on (empty or NULL: no match).
 * Positions count every word, stopwords included, so `"public convenience or necessity"` needs its `or` in place
 * and a phrase of stopwords alone (`"to be"`) matches too.
 */
function phrasePositions(phrase: string[], q: Params): string {
  const positionsOf = (term: string) => `any_value(positions) FILTER (WHERE term = ${q.add(term)})`;
  let positions = positionsOf(phrase[0]);
  for (let i = 1; i < phrase.length; i++) positions = `list_intersect(list_transform(${positions}, x -> x + 1), ${positionsOf(phrase[i])})`;
  return positions;
}

export function interpreted(query: ParsedQuery): string[] {
  return [query.terms.join(' '), ...query.phrases.map(phraseText)].filter((s) => s.length > 0);
}

export const round = (x: number) => Math.round(x * 10000) / 10000;
