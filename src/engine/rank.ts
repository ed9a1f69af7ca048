// The search engine's one entry point: a collection's documents (pages, items, comments) ranked for an analysed query
// under its filters, answered as ranked ids with scores, the total and, when asked, snippets. A request may pin
// documents first or rank groups of documents; mode=hybrid fuses the page ranking with the page vectors (vectors.ts).
//
// BM25 from the release's postings stores (postings.ts): every matching document's score is the sum of its terms'
// precomputed impacts, with the phrase rule, weighted phrases and thesaurus expansions, and the filters (the ranking
// the SQL of test/sql-bm25.ts gives, without a DuckDB statement). The terms' lists are read first; the matching itself
// is synchronous, so one set of per-document arrays per collection (the accumulator, the touched documents) serves
// every request.
import { decodePositions } from '../../core/lake/codecs/postings-store.ts';
import { type Collection, COLLECTIONS } from '../../core/lake/format.ts';
import { meetingIdPrefix } from '../../core/lake/ids.ts';
import { isStopTerm, type ParsedQuery, phraseText } from '../../core/text/analysis.ts';
import { type PostingsStore, postingsStore, type TermPositions } from './postings.ts';
import type { EngineRelease } from './release.ts';
import { snippet } from './snippet.ts';
import { textsById, warmStores } from './texts.ts';
import { TopK } from './top-k.ts';
import { hybridRank, type Retrieval, warmVectors } from './vectors.ts';

export interface RankFilters {
  from: number;
  to: number;
  kind?: string;
  date?: string;
  /** Only these documents (ids). */
  ids?: string[];
  /** Only the documents whose number is 1 here (documents numbered as the collection's store numbers them). */
  docs?: Uint8Array;
}

export interface RankRequest extends RankFilters {
  collection: Collection;
  query: ParsedQuery;
  limit: number;
  /** Documents ranked before every other match (see pinFirst; grouped: their groups, when they match); a promise is
   * awaited while the ranking runs. */
  pinned?: Pin[] | Promise<Pin[]>;
  /** One hit per group of documents, its best match (see rankGroups). */
  grouping?: Grouping;
  /** Pages: fuse the ranking with the vector ranking of this text (mode=hybrid). */
  hybrid?: { text: string };
  /** Each hit with its snippet, cut from its stored text. */
  snippets?: boolean;
  /** Words each snippet shows (SNIPPET_WORDS unless given). */
  snippetWords?: number;
}

/** A pinned document: pins rank by `order`, then by their cluster's best score, the cluster, their own score and id. */
export interface Pin {
  id: string;
  order: number;
  cluster: string;
}

/** Groups of a collection's documents, by their numbers in its postings store (postings.ts PostingsStore.docNo). */
export interface Grouping {
  /** Each document's group, 0 .. groups - 1 (-1: none; the document is left out). */
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
  /** The query as searched (see interpreted). */
  interpreted: string[];
  /** Hybrid only: how the ranking was made. */
  retrieval?: Retrieval;
}

/** A ranking before the engine states its query. */
type Ranked = Omit<Ranking, 'interpreted'>;

export async function rank(release: EngineRelease, r: RankRequest): Promise<Ranking> {
  // A pending pin list is awaited in pinFirst; marked handled here so a ranking that fails first leaves no stray rejection.
  if (r.pinned instanceof Promise) r.pinned.catch(() => undefined);
  const lexical = (limit: number) =>
    r.grouping
      ? rankGroups(release, r, r.grouping, limit)
      : r.pinned
        ? pinFirst(release, r, r.pinned, limit)
        : rankDocuments(release, r, limit);
  const ranked = r.hybrid ? await hybridRank(release, { ...r, text: r.hybrid.text }, lexical) : await lexical(r.limit);
  const ranking = { ...ranked, interpreted: interpreted(r.query) };
  if (!r.snippets) return ranking;
  const texts = await textsById(
    release,
    r.collection,
    ranking.hits.map((h) => h.id),
  );
  return {
    ...ranking,
    hits: ranking.hits.map((h) => ({ ...h, snippet: snippet(texts.get(h.id) ?? '', r.query, r.snippetWords) })),
  };
}

/** The top `limit` documents by score descending then doc_id, and how many match. */
async function rankDocuments(release: EngineRelease, r: RankRequest, limit: number): Promise<Ranked> {
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
async function pinFirst(
  release: EngineRelease,
  r: RankRequest,
  pinning: Pin[] | Promise<Pin[]>,
  limit: number,
): Promise<Ranked> {
  const [ranked, pinned] = await Promise.all([rankDocuments(release, r, 2 * limit), pinning]);
  if (pinned.length === 0) return { hits: ranked.hits.slice(0, limit), total: ranked.total };
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
async function rankGroups(release: EngineRelease, r: RankRequest, g: Grouping, limit: number): Promise<Ranked> {
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
  // Groups of pinned documents first (by the pins' order, then score), when they match.
  const pinnedOrder = new Map<number, number>();
  for (const n of r.pinned ? await r.pinned : []) {
    const d = store.docNo(n.id);
    const k = d < 0 ? -1 : g.of[d];
    const order = pinnedOrder.get(k);
    if (k >= 0 && count[k] > 0 && (order === undefined || n.order < order)) pinnedOrder.set(k, n.order);
  }
  const pinned = [...pinnedOrder.keys()].sort(
    (a, b) => pinnedOrder.get(a)! - pinnedOrder.get(b)! || score[b] - score[a] || best[a] - best[b],
  );
  const top = new TopK(Math.max(0, limit - pinned.length));
  for (const k of seen) if (!pinnedOrder.has(k)) top.add(score[k], best[k]);
  const hit = (x: number, d: number) => ({ id: store.docId(d), score: x, groupCount: count[g.of[d]] });
  return {
    hits: [...pinned.slice(0, limit).map((k) => hit(score[k], best[k])), ...top.sorted().map(([x, d]) => hit(x, d))],
    total: seen.length,
  };
}

/** The query as searched: its terms, its quoted phrases, and each thesaurus expansion marked `~` (a lower weight). */
function interpreted(query: ParsedQuery): string[] {
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

// ---------------------------------------------------------------------------------------------------------------
// BM25 matching

/** Per-document working arrays of a store; every entry a ranking touches is reset before it returns. */
interface Scratch {
  state: Uint8Array;
  score: Float64Array;
  slot: Int32Array;
  touched: Int32Array;
}
const scratches = new WeakMap<PostingsStore, Scratch>();
const UNSEEN = 0;
const IN = 1;
const OUT = 2;

/**
 * Calls `visit` with every matching document's score and number in the store, in no order;
 * returns the store, or null when nothing can match.
 */
async function matchBm25(
  release: EngineRelease,
  collection: Collection,
  query: ParsedQuery,
  f: RankFilters,
  visit: (score: number, doc: number) => void,
): Promise<PostingsStore | null> {
  const own = [...new Set([...query.terms, ...query.phrases.flat()])];
  const read = byBytes([...own, ...query.weighted.flatMap((w) => w.terms)]);
  if (own.length === 0 || f.from > f.to) return null;
  const store = await postingsStore(release, collection);
  const kind = f.kind === undefined ? -1 : store.kind(f.kind);
  if (f.kind !== undefined && kind < 0) return null;
  const ordered = [
    ...query.phrases,
    ...query.weighted.flatMap((w) => [w.terms, ...(w.instead ? [w.instead] : [])]),
  ].filter((p) => p.length > 1);
  const withPositions = [...new Set(ordered.flat())];
  const [lists, positions] = await Promise.all([
    Promise.all(read.map((t) => store.postings(t))),
    Promise.all(withPositions.map((t) => store.positions(t))),
  ]);
  const prefix = f.date ? Buffer.from(meetingIdPrefix(f.date)) : null;
  const only = f.ids ? new Set(f.ids.map((id) => store.docNo(id))) : null;
  const { docYear, docKind } = store;
  const { from, to, docs } = f;
  // Years alone (the common case) in a closure of their own: this runs once per document a term reaches.
  const keep =
    kind < 0 && !prefix && !only && !docs
      ? (d: number) => docYear[d] >= from && docYear[d] <= to
      : (d: number) =>
          docYear[d] >= from &&
          docYear[d] <= to &&
          (kind < 0 || docKind[d] === kind) &&
          (!prefix || store.docIdStartsWith(d, prefix)) &&
          (!only || only.has(d)) &&
          (!docs || docs[d] === 1);
  const s = scratchOf(store);
  let touched = 0;
  try {
    if (query.phrases.length === 0 && query.weighted.length === 0) {
      // A plain sum of impacts: one accumulator.
      const { state, score } = s;
      for (const { docs, impacts } of lists) {
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i];
          let st = state[d];
          if (st === UNSEEN) {
            st = state[d] = keep(d) ? IN : OUT;
            s.touched[touched++] = d;
          }
          if (st === IN) score[d] += impacts[i];
        }
      }
      for (let j = 0; j < touched; j++) {
        const d = s.touched[j];
        if (s.state[d] !== IN) continue;
        visit(s.score[d], d);
      }
    } else {
      // Each kept document gets a slot; its row of `impact` holds each term's impact (NaN: no posting) and of `at`
      // the posting's index in the term's list (for its positions). With a quoted phrase, only the documents holding
      // its rarest term can match; else every document a term reaches is a candidate.
      const phrased = query.phrases.flat().map((t) => lists[read.indexOf(t)]);
      const candidates = phrased.length ? [phrased.reduce((a, b) => (b.docs.length < a.docs.length ? b : a))] : lists;
      let slots = 0;
      for (const list of candidates) {
        for (let i = 0; i < list.docs.length; i++) {
          const d = list.docs[i];
          if (s.state[d] !== UNSEEN) continue;
          s.touched[touched++] = d;
          s.state[d] = keep(d) ? IN : OUT;
          if (s.state[d] === IN) s.slot[d] = slots++;
        }
      }
      const n = read.length;
      const impact = new Float64Array(slots * n).fill(NaN);
      const at = new Int32Array(slots * n);
      for (let k = 0; k < n; k++) {
        const { docs, impacts } = lists[k];
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i];
          if (s.state[d] !== IN) continue;
          const cell = s.slot[d] * n + k;
          impact[cell] = impacts[i];
          at[cell] = i;
        }
      }
      const doc = new Document(
        n,
        impact,
        at,
        read.map((t) => positions[withPositions.indexOf(t)]),
      );
      const score = scorer(query, own, read, doc);
      for (let j = 0; j < touched; j++) {
        const d = s.touched[j];
        if (s.state[d] !== IN) continue;
        doc.slot = s.slot[d];
        const x = score();
        if (x === null) continue;
        visit(x, d);
      }
    }
  } finally {
    for (let j = 0; j < touched; j++) {
      const d = s.touched[j];
      s.state[d] = UNSEEN;
      s.score[d] = 0;
    }
  }
  return store;
}

/** Distinct terms in byte order: the order of the postings DuckDB sums, so scores add up alike. */
const byBytes = (terms: string[]) => [...new Set(terms)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

function scratchOf(store: PostingsStore): Scratch {
  let s = scratches.get(store);
  if (!s)
    scratches.set(
      store,
      (s = {
        state: new Uint8Array(store.docs),
        score: new Float64Array(store.docs),
        slot: new Int32Array(store.docs),
        touched: new Int32Array(store.docs),
      }),
    );
  return s;
}

/** Positions decoded for phrase checks: two buffers, grown as needed (the ranking is synchronous). */
let first = new Int32Array(256);
let next = new Int32Array(256);

/** One document's postings among the query's terms (the document at `slot`), terms by their index in the read terms. */
class Document {
  slot = 0;

  constructor(
    private readonly n: number,
    private readonly impact: Float64Array,
    private readonly at: Int32Array,
    private readonly positions: (TermPositions | undefined)[],
  ) {}

  has(k: number): boolean {
    return !Number.isNaN(this.impact[this.slot * this.n + k]);
  }

  /** Sum of the terms' impacts in the document (0 for none), in the order given. */
  sum(ks: number[]): number {
    const row = this.slot * this.n;
    let x = 0;
    for (const k of ks) {
      const v = this.impact[row + k];
      if (!Number.isNaN(v)) x += v;
    }
    return x;
  }

  /** Whether the document prints the terms in order, at consecutive positions (one term: holds it). test/sql-bm25.ts phrasePositions. */
  printed(ks: number[]): boolean {
    for (let i = 0; i < ks.length; i++) if (!this.has(ks[i])) return false;
    if (ks.length === 1) return true;
    first = this.decode(ks[0], first);
    let count = this.count;
    for (let i = 1; i < ks.length && count > 0; i++) {
      next = this.decode(ks[i], next);
      // Starts shifted by one, kept where the next term stands (both ascending); in place.
      let kept = 0;
      for (let a = 0, b = 0; a < count; a++) {
        const x = first[a] + 1;
        while (b < this.count && next[b] < x) b++;
        if (b < this.count && next[b] === x) first[kept++] = x;
      }
      count = kept;
    }
    return count > 0;
  }

  /** Positions decoded by the last decode. */
  private count = 0;

  /** The term's positions in the document, into `into` (or a larger buffer, returned); their number in `count`. */
  private decode(k: number, into: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
    const p = this.positions[k]!;
    const i = this.at[this.slot * this.n + k];
    const out = into.length >= p.to[i] - p.from[i] ? into : new Int32Array(2 * (p.to[i] - p.from[i]));
    const count = decodePositions(p, i, out);
    this.count = count;
    return out;
  }
}

/**
 * The document's score as test/sql-bm25.ts's scoreSql and HAVING give it, or null where the HAVING leaves it out: each quoted
 * phrase printed, and, with thesaurus expansions, one of the user's own words or a printed expansion present.
 */
function scorer(query: ParsedQuery, own: string[], read: string[], doc: Document): () => number | null {
  // Terms by their index in `read`, ascending: byte order, the order the SQL sums in.
  const ix = (terms: string[]) => [...new Set(terms.map((t) => read.indexOf(t)))].sort((a, b) => a - b);
  const inOrder = (terms: string[]) => terms.map((t) => read.indexOf(t));
  const phrases = query.phrases.map(inOrder);
  const ownIx = ix(own);
  const expansions = query.weighted.filter((w) => w.expansion).map((w) => inOrder(w.terms));
  const admitted = () =>
    phrases.every((p) => doc.printed(p)) &&
    (expansions.length === 0 || ownIx.some((k) => doc.has(k)) || expansions.some((p) => doc.printed(p)));
  if (query.weighted.length === 0) {
    const all = ix(read);
    return () => (admitted() ? doc.sum(all) : null);
  }
  const counted = new Set(query.terms.filter((t) => !query.weighted.some((w) => !w.expansion && w.terms.includes(t))));
  const base = ix([...counted]);
  const parts = query.weighted
    .map((w) => {
      const terms = w.terms.filter((t) => !counted.has(t) && !isStopTerm(t));
      terms.forEach((t) => counted.add(t));
      return { w, terms: ix(terms), printed: inOrder(w.terms), instead: w.instead ? inOrder(w.instead) : null };
    })
    .filter((p) => p.terms.length > 0);
  return () => {
    if (!admitted()) return null;
    let x = doc.sum(base);
    for (const { w, terms, printed, instead } of parts)
      x += (doc.printed(printed) && !(instead && doc.printed(instead)) ? w.weight : w.partWeight) * doc.sum(terms);
    return x;
  };
}
