// Short postings lists held in memory per release, in front of DuckDB: a query whose every term (rare words, file
// numbers, the words of a rare phrase) has at most SHORT postings is ranked here, in JavaScript, with the same BM25
// sums, phrase rule, filters and order as the SQL of bm25.ts, instead of paying DuckDB's per-statement floor. A term
// is read from DuckDB once (with the other unknown terms of its query, in one statement); a long one is remembered as
// long, and its queries go to DuckDB as before. Bounded: the least recently used lists go first past MAX_POSTINGS.
import type { Collection } from '../../core/lake/format.ts';
import type { Release } from '../lake/release.ts';
import type { ParsedQuery } from '../../core/text/analysis.ts';
import { postingsOf } from './bm25.ts';
import { Params } from './sql.ts';

/** Postings of a term kept in memory at most; a longer list stays in DuckDB. */
export const SHORT = 4096;
/** Postings held per collection at most. */
const MAX_POSTINGS = 1_000_000;

interface Posting { doc: string; year: number; kind: string; impact: number; positions: number[] }

class TermCache {
  /** term → its postings (short), or null (long); in least recently used order. */
  private readonly lists = new Map<string, Posting[] | null>();
  private held = 0;

  get(term: string): Posting[] | null | undefined {
    const v = this.lists.get(term);
    if (v !== undefined) {
      this.lists.delete(term);
      this.lists.set(term, v);
    }
    return v;
  }

  set(term: string, list: Posting[] | null): void {
    this.lists.set(term, list);
    this.held += list?.length ?? 0;
    for (const [k, v] of this.lists) {
      if (this.held <= MAX_POSTINGS) break;
      this.lists.delete(k);
      this.held -= v?.length ?? 0;
    }
  }
}

export interface RankFilters { from: number; to: number; kind?: string; date?: string; limit: number }

/**
 * The top `limit` documents and the total, as bm25.ts's SQL ranks them (score descending, then doc_id), when every
 * term the query reads has a short postings list; null when one is long (the caller asks DuckDB).
 */
export async function rankShort(release: Release, collection: Collection, query: ParsedQuery, f: RankFilters): Promise<{ ids: { id: string; score: number }[]; total: number } | null> {
  // Weighted phrases (compounds, thesaurus expansions) are scored by the SQL of bm25.ts alone.
  if (query.weighted.length > 0) return null;
  const read = [...new Set([...query.terms, ...query.phrases.flat()])];
  if (read.length === 0) return null;
  const cache = await release.memo(`short-postings:${collection}`, async () => new TermCache());
  const unknown = read.filter((t) => cache.get(t) === undefined);
  if (unknown.length) await load(release, collection, cache, unknown);
  const lists = read.map((t) => cache.get(t));
  if (lists.some((l) => !l)) return null;

  const byDoc = new Map<string, { score: number; positions: Map<string, number[]> }>();
  read.forEach((term, k) => {
    for (const p of lists[k]!) {
      if (p.year < f.from || p.year > f.to || (f.kind !== undefined && p.kind !== f.kind)) continue;
      let d = byDoc.get(p.doc);
      if (!d) byDoc.set(p.doc, (d = { score: 0, positions: new Map() }));
      d.score += p.impact;
      d.positions.set(term, p.positions);
    }
  });
  const prefix = f.date ? `${f.date}-` : null;
  const hits: { id: string; score: number }[] = [];
  for (const [id, d] of byDoc) {
    if (prefix && !id.startsWith(prefix)) continue;
    if (query.phrases.every((phrase) => hasPhrase(phrase, d.positions))) hits.push({ id, score: d.score });
  }
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { ids: hits.slice(0, f.limit), total: hits.length };
}

/** The phrase's words at consecutive positions somewhere in the document (bm25.ts phrasePositions). */
function hasPhrase(phrase: string[], positions: Map<string, number[]>): boolean {
  let starts = positions.get(phrase[0]);
  for (let i = 1; i < phrase.length && starts; i++) {
    const next = new Set(positions.get(phrase[i]) ?? []);
    starts = starts.map((x) => x + 1).filter((x) => next.has(x));
  }
  return (starts?.length ?? 0) > 0;
}

/** Reads the terms' postings in one statement, at most SHORT + 1 each: a term with more is long. */
async function load(release: Release, collection: Collection, cache: TermCache, terms: string[]): Promise<void> {
  const q = new Params();
  const rows = await release.pool.rows(`
    SELECT term, doc_id, year::INTEGER AS year, kind, impact, positions FROM ${await postingsOf(release, collection, terms)}
    WHERE ${terms.map((t) => `term = ${q.add(t)}`).join(' OR ')}
    QUALIFY row_number() OVER (PARTITION BY term) <= ${SHORT + 1}`, q);
  const lists = new Map<string, Posting[]>(terms.map((t) => [t, []]));
  for (const r of rows) lists.get(String(r.term))!.push({ doc: String(r.doc_id), year: Number(r.year), kind: String(r.kind), impact: Number(r.impact), positions: (r.positions as number[]) ?? [] });
  for (const [t, list] of lists) cache.set(t, list.length > SHORT ? null : list);
}
