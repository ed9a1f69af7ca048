// The search engine's one entry point: a collection's documents (pages, items, comments) ranked for an analysed query
// under its filters, answered as ranked ids with scores, the total and, when asked, snippets. BM25 sums the
// precomputed impacts of the in-memory postings (bm25.ts); a request may pin documents first or rank groups of
// documents, and mode=hybrid fuses the page ranking with the page vectors (vectors.ts).
import { COLLECTIONS, type Collection } from '../../core/lake/format.ts';
import { phraseText, type ParsedQuery } from '../../core/text/analysis.ts';
import { matchBm25, TopK, type RankFilters } from './bm25.ts';
import { postingsStore } from './postings.ts';
import type { EngineRelease } from './release.ts';
import { snippet } from './snippet.ts';
import { textsById, warmStores } from './texts.ts';
import { hybridRank, warmVectors, type Retrieval } from './vectors.ts';

export interface RankRequest extends RankFilters {
  collection: Collection;
  query: ParsedQuery;
  limit: number;
  /** Documents ranked before every other match (see pinFirst). */
  pinned?: Pin[];
  /** One hit per group of documents, its best match (see rankGroups). */
  grouping?: Grouping;
  /** Pages: fuse the ranking with the vector ranking of this text (mode=hybrid). */
  hybrid?: { text: string };
  /** Each hit with its snippet, cut from its stored text. */
  snippets?: boolean;
}

/** A pinned document: pins rank by `order`, then by their cluster's best score, the cluster, their own score and id. */
export interface Pin {
  id: string;
  order: number;
  cluster: string;
}

/** Groups of a collection's documents, by their numbers in its postings store (postings.ts PostingsStore.docNo). */
export interface Grouping {
  /** Each document's group, 0 .. groups - 1. */
  of: Int32Array;
  groups: number;
  /** Of a group's documents of equal score, the one of higher `recency` (then the lower number) is its best. */
  recency: Uint32Array;
}

export interface Hit {
  id: string;
  score: number;
  /** Grouped: how many documents of its group match. */
  groupCount?: number;
  snippet?: string;
}

export interface Ranking {
  hits: Hit[];
  /** Matching documents (grouped: groups); hybrid: the fused candidates. */
  total: number;
  /** Hybrid only: how the ranking was made. */
  retrieval?: Retrieval;
}

export async function rank(release: EngineRelease, r: RankRequest): Promise<Ranking> {
  const lexical = (limit: number) =>
    r.grouping
      ? rankGroups(release, r, r.grouping, limit)
      : r.pinned?.length
        ? pinFirst(release, r, r.pinned, limit)
        : rankDocuments(release, r, limit);
  const ranking = r.hybrid ? await hybridRank(release, { ...r, text: r.hybrid.text }, lexical) : await lexical(r.limit);
  if (!r.snippets) return ranking;
  const texts = await textsById(
    release,
    r.collection,
    ranking.hits.map((h) => h.id),
  );
  return { ...ranking, hits: ranking.hits.map((h) => ({ ...h, snippet: snippet(texts.get(h.id) ?? '', r.query) })) };
}

/** The top `limit` documents by score descending then doc_id, and how many match. */
async function rankDocuments(release: EngineRelease, r: RankRequest, limit: number): Promise<Ranking> {
  const top = new TopK(limit);
  let total = 0;
  const store = await matchBm25(release, r.collection, r.query, r, (score, d) => {
    total++;
    top.add(score, d);
  });
  return { hits: store ? top.sorted().map(([score, d]) => ({ id: store.docId(d), score })) : [], total };
}

/**
 * The pinned documents first (see Pin; a pin the query does not match scores 0), then every other match by score. The
 * pins' scores are read where the ranking did not reach them; the total counts the pins that do not match too.
 */
async function pinFirst(release: EngineRelease, r: RankRequest, pinned: Pin[], limit: number): Promise<Ranking> {
  const ranked = await rankDocuments(release, r, 2 * limit);
  const scores = new Map(ranked.hits.map((h) => [h.id, h.score]));
  const missing = pinned.filter((n) => !scores.has(n.id)).map((n) => n.id);
  let extra = missing.length;
  if (missing.length) {
    const found = await rankDocuments(release, { ...r, ids: missing }, missing.length);
    for (const h of found.hits) scores.set(h.id, h.score);
    extra -= found.total;
  }
  const score = (id: string) => scores.get(id) ?? 0;
  const key = (n: Pin) => `${n.order} ${n.cluster}`;
  const best = new Map<string, number>();
  for (const n of pinned) best.set(key(n), Math.max(best.get(key(n)) ?? 0, score(n.id)));
  const pins = [...pinned].sort(
    (a, b) =>
      a.order - b.order ||
      best.get(key(b))! - best.get(key(a))! ||
      a.cluster.localeCompare(b.cluster) ||
      score(b.id) - score(a.id) ||
      a.id.localeCompare(b.id),
  );
  const pinnedIds = new Set(pins.map((n) => n.id));
  const hits = [
    ...pins.map((n) => ({ id: n.id, score: score(n.id) })),
    ...ranked.hits.filter((h) => !pinnedIds.has(h.id)),
  ];
  return { hits: hits.slice(0, limit), total: ranked.total + extra };
}

/**
 * One hit per group over every match: the group's best match (score, then recency, then number) with the group's
 * number of matches, groups ranked by their best match's score, then its id.
 */
async function rankGroups(release: EngineRelease, r: RankRequest, g: Grouping, limit: number): Promise<Ranking> {
  const best = new Int32Array(g.groups);
  const score = new Float64Array(g.groups);
  const count = new Int32Array(g.groups);
  const seen: number[] = [];
  const store = await matchBm25(release, r.collection, r.query, r, (x, d) => {
    const k = g.of[d];
    if (k < 0) return; // a document outside every group (an item the items table lacks)
    if (count[k]++ === 0) {
      seen.push(k);
    } else {
      const b = best[k];
      if (!(
        x > score[k] ||
        (x === score[k] && (g.recency[d] > g.recency[b] || (g.recency[d] === g.recency[b] && d < b)))
      ))
        return;
    }
    best[k] = d;
    score[k] = x;
  });
  if (!store) return { hits: [], total: 0 };
  const top = new TopK(limit);
  for (const k of seen) top.add(score[k], best[k]);
  return {
    hits: top.sorted().map(([x, d]) => ({ id: store.docId(d), score: x, groupCount: count[g.of[d]] })),
    total: seen.length,
  };
}

/** The query as searched: its terms, its quoted phrases, and each thesaurus expansion marked `~` (a lower weight). */
export function interpreted(query: ParsedQuery): string[] {
  const expansions = query.weighted
    .filter((w) => w.expansion)
    .map((w) => `~${w.terms.length === 1 ? w.terms[0] : phraseText(w.terms)}`);
  return [query.terms.join(' '), ...query.phrases.map(phraseText), ...expansions].filter((s) => s.length > 0);
}

/** A BM25 score as answers show it: four decimals. */
export const roundScore = (x: number): number => Math.round(x * 10000) / 10000;

/** Opens the release's stores (postings, texts, item records) and loads its vectors, ahead of the first request. */
export const warmEngine = (release: EngineRelease): Promise<unknown> =>
  Promise.allSettled([...COLLECTIONS.map((c) => postingsStore(release, c)), warmStores(release), warmVectors(release)]);
