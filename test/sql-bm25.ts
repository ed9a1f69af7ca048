// The reference the engine is held to: BM25 over a collection's postings Parquet as SQL (the server's ranking before it
// moved to the in-memory postings of src/engine/), with the item search's filters and groupings in SQL beside it.
// test/ranking.test.ts and test/items-ranking.test.ts check that src/engine/ ranks exactly as these queries do; the
// bench times the SQL as a baseline. Scores are sums of precomputed posting impacts (lake/README.md).
import { join } from 'node:path';

import { type Collection, indexTable, POSTINGS_PART } from '../core/lake/format.ts';
import { itemFileNumberSql, itemMeetingDateSql, meetingIdPrefix } from '../core/lake/ids.ts';
import type { Supervisor } from '../core/roster.ts';
import { sqlString } from '../core/sql.ts';
import { isStopTerm, type ParsedQuery, parseQuery } from '../core/text/analysis.ts';
import type { Release } from '../src/lake/release.ts';
import { type ItemSearchParams, rollCallFilter } from '../src/queries/items.ts';
import { Params } from '../src/queries/sql.ts';

export interface Matches {
  /** `SELECT doc_id, score FROM …`: every matching document of the collection (its values added to the caller's Params). */
  sql: string;
  query: ParsedQuery;
  /** No term or phrase survived analysis (unquoted stopwords only, or punctuation), or the year range is empty. */
  empty: boolean;
}

export async function bm25(
  release: Release,
  q: Params,
  collection: Collection,
  text: string,
  years: { from: number; to: number },
  kind?: string,
): Promise<Matches> {
  const query = parseQuery(text);
  // The user's words and phrases (a phrase's stopwords are read for their positions and score 0: impact 0), then the
  // weighted phrases' (compounds, thesaurus expansions), which rank without adding matches of their own parts.
  const own = [...new Set([...query.terms, ...query.phrases.flat()])];
  const read = [...new Set([...own, ...query.weighted.flatMap((w) => w.terms)])];
  // Equalities joined by OR, not IN: DuckDB prunes row groups of the term-sorted postings on each value, not on the list's min–max.
  let where = `(${read.map((t) => `term = ${q.add(t)}`).join(' OR ') || 'false'}) AND year BETWEEN ${q.add(years.from)} AND ${q.add(years.to)}`;
  if (kind) where += ` AND kind = ${q.add(kind)}`;
  const having = query.phrases.map((phrase) => `len(${phrasePositions(phrase, q)}) > 0`);
  if (query.weighted.some((w) => w.expansion)) {
    // A document that holds none of the user's words counts only where an expansion is printed.
    const printed = query.weighted.filter((w) => w.expansion).map((w) => printedSql(w.terms, q));
    having.push(`(${[`count(*) FILTER (WHERE ${inSql(own, q)}) > 0`, ...printed].join(' OR ')})`);
  }
  const sql = `SELECT doc_id, ${scoreSql(query, q)} AS score FROM ${await postingsOf(release, collection, read)} WHERE ${where} GROUP BY doc_id${having.length ? ` HAVING ${having.join(' AND ')}` : ''}`;
  return { sql, query, empty: own.length === 0 || years.from > years.to };
}

/**
 * A document's score: the sum of its postings' impacts, each term counted once at its weight. A term of the user's
 * outside compounds counts 1; a weighted phrase's other terms count its `weight` where it is printed (an expansion:
 * and the query's own name for it is not), else `partWeight`.
 */
function scoreSql(query: ParsedQuery, q: Params): string {
  if (query.weighted.length === 0) return 'sum(impact)';
  const counted = new Set(query.terms.filter((t) => !query.weighted.some((w) => !w.expansion && w.terms.includes(t))));
  const parts = [`coalesce(sum(impact) FILTER (WHERE ${inSql([...counted], q)}), 0)`];
  for (const w of query.weighted) {
    const own = w.terms.filter((t) => !counted.has(t) && !isStopTerm(t));
    own.forEach((t) => counted.add(t));
    if (own.length === 0) continue;
    const printed = w.instead
      ? `${printedSql(w.terms, q)} AND NOT ${printedSql(w.instead, q)}`
      : printedSql(w.terms, q);
    const weight =
      w.partWeight === w.weight && !w.instead
        ? String(w.weight)
        : `CASE WHEN ${printed} THEN ${w.weight} ELSE ${w.partWeight} END`;
    parts.push(`${weight} * coalesce(sum(impact) FILTER (WHERE ${inSql(own, q)}), 0)`);
  }
  return parts.join(' + ');
}

const inSql = (terms: string[], q: Params): string =>
  terms.length ? terms.map((t) => `term = ${q.add(t)}`).join(' OR ') : 'false';

/** Whether a document prints these terms in order (one term: holds it). */
function printedSql(terms: string[], q: Params): string {
  return terms.length === 1
    ? `count(*) FILTER (WHERE term = ${q.add(terms[0])}) > 0`
    : `coalesce(len(${phrasePositions(terms, q)}) > 0, false)`;
}

/** A collection's postings part files, by the first term each holds (UTF-8 byte order: DuckDB's order of VARCHAR). */
interface Parts {
  first: Buffer[];
  files: string[];
}

/**
 * The postings holding these terms: the part files their terms fall in, or the whole table (a release written in one
 * file, or a collection with no postings at all, whose table is one empty file).
 */
export async function postingsOf(release: Release, collection: Collection, terms: string[]): Promise<string> {
  const parts = await release.memo(`postings-parts:${collection}`, async (): Promise<Parts | null> => {
    const files = release.manifest.tables[indexTable(collection, 'postings')].files;
    if (!files.some((f) => POSTINGS_PART.test(f.path))) return null;
    const pathOf = new Map(files.map((f) => [Number(POSTINGS_PART.exec(f.path)?.[1]), join(release.dir, f.path)]));
    const rows = await release.pool.rows(
      `SELECT part::INTEGER AS part, min(term) AS first FROM ${indexTable(collection, 'terms')} GROUP BY part ORDER BY first`,
    );
    return {
      first: rows.map((r) => Buffer.from(String(r.first))),
      files: rows.map((r) => pathOf.get(Number(r.part))!),
    };
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
  for (let i = 1; i < phrase.length; i++)
    positions = `list_intersect(list_transform(${positions}, x -> x + 1), ${positionsOf(phrase[i])})`;
  return positions;
}

/** Per grouping: its key and the meeting date that orders a group. */
const GROUPING = {
  file: { key: itemFileNumberSql('m.item_id'), date: itemMeetingDateSql('m.item_id'), join: '' },
  matter: { key: 'lower(i.matter)', date: 'i.meeting_date', join: 'JOIN items i USING (item_id)' },
} as const;

export type SqlRankedItems = { item_id: string; score: number; group_count: number; total: number }[];

/** The item search's ranking in SQL: every filter (roll calls and recorded positions by SQL) and grouping. */
export async function rankItemsBySql(
  release: Release,
  p: ItemSearchParams,
  range: { from: number; to: number },
  voter: Supervisor | null,
): Promise<SqlRankedItems> {
  const q = new Params();
  const m = await bm25(release, q, 'item', p.q, range);
  if (m.empty) return [];
  const conditions: string[] = [];
  if (p.date) conditions.push(`starts_with(h.doc_id, ${q.add(meetingIdPrefix(p.date))})`);
  const rolls = rollCallFilter({ ...p, voter: voter?.id }, q, 'h.doc_id');
  if (rolls) conditions.push(rolls);
  const matched = `SELECT h.doc_id AS item_id, h.score FROM (${m.sql}) h ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}`;
  const limit = q.add(p.limit);
  const rows = await release.pool.rows(
    p.groupBy === 'none'
      ? `
    SELECT item_id, score, 1 AS group_count, (count(*) OVER ())::INTEGER AS total
    FROM (${matched}) ORDER BY score DESC, item_id LIMIT ${limit}`
      : `
    WITH grouped AS (
      SELECT m.item_id, m.score, (count(*) OVER (PARTITION BY ${GROUPING[p.groupBy].key}))::INTEGER AS group_count,
             row_number() OVER (PARTITION BY ${GROUPING[p.groupBy].key} ORDER BY m.score DESC, ${GROUPING[p.groupBy].date} DESC, m.item_id) AS rank_in_group
      FROM (${matched}) m ${GROUPING[p.groupBy].join}
    )
    SELECT item_id, score, group_count, (count(*) OVER ())::INTEGER AS total
    FROM grouped WHERE rank_in_group = 1 ORDER BY score DESC, item_id LIMIT ${limit}`,
    q,
  );
  return rows.map((r) => ({
    item_id: String(r.item_id),
    score: Number(r.score),
    group_count: Number(r.group_count),
    total: Number(r.total),
  }));
}
