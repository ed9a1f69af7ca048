// BM25 ranking in JavaScript from the release's postings stores (src/queries/postings-store.ts): the ranking bm25.ts's
// SQL gives (the same sums of impacts, phrase rule, weighted phrases and thesaurus expansions, filters, order by score
// then doc_id, total), without a DuckDB statement. The terms' lists are read first; the ranking itself is synchronous,
// so one set of per-document arrays per collection (the accumulator, the touched documents) serves every request.
import type { Collection } from '../../core/lake/format.ts';
import { meetingIdPrefix } from '../../core/lake/ids.ts';
import { isStopTerm, type ParsedQuery } from '../../core/text/analysis.ts';
import type { Release } from '../lake/release.ts';
import { postingsStore, type PostingsStore, type TermPositions } from './postings-store.ts';

export interface RankFilters {
  from: number;
  to: number;
  kind?: string;
  date?: string;
  limit: number;
  /** Only these documents (ids). */
  ids?: string[];
}
export interface Ranked { ids: { id: string; score: number }[]; total: number }

/** Per-document working arrays of a store; every entry a ranking touches is reset before it returns. */
interface Scratch { state: Uint8Array; score: Float64Array; slot: Int32Array; touched: Int32Array }
const scratches = new WeakMap<PostingsStore, Scratch>();
const UNSEEN = 0;
const IN = 1;
const OUT = 2;

/** The top `f.limit` documents of the collection for the query, by score descending then doc_id, and how many match. */
export async function rankBm25(release: Release, collection: Collection, query: ParsedQuery, f: RankFilters): Promise<Ranked> {
  const own = [...new Set([...query.terms, ...query.phrases.flat()])];
  const read = byBytes([...own, ...query.weighted.flatMap((w) => w.terms)]);
  if (own.length === 0 || f.from > f.to) return { ids: [], total: 0 };
  const store = await postingsStore(release, collection);
  const kind = f.kind === undefined ? -1 : store.kind(f.kind);
  if (f.kind !== undefined && kind < 0) return { ids: [], total: 0 };
  const ordered = [...query.phrases, ...query.weighted.flatMap((w) => [w.terms, ...(w.instead ? [w.instead] : [])])].filter((p) => p.length > 1);
  const withPositions = [...new Set(ordered.flat())];
  const [lists, positions] = await Promise.all([
    Promise.all(read.map((t) => store.postings(t))),
    Promise.all(withPositions.map((t) => store.positions(t))),
  ]);
  const prefix = f.date ? Buffer.from(meetingIdPrefix(f.date)) : null;
  const only = f.ids ? new Set(f.ids.map((id) => store.docNo(id))) : null;
  const keep = (d: number) => store.docYear[d] >= f.from && store.docYear[d] <= f.to && (kind < 0 || store.docKind[d] === kind)
    && (!prefix || store.docIdStartsWith(d, prefix)) && (!only || only.has(d));
  const s = scratchOf(store);
  const top = new TopK(f.limit);
  let total = 0;
  let touched = 0;
  try {
    if (query.phrases.length === 0 && query.weighted.length === 0) {
      // A plain sum of impacts: one accumulator.
      for (const list of lists) {
        for (let i = 0; i < list.docs.length; i++) {
          const d = list.docs[i];
          if (s.state[d] === UNSEEN) {
            s.state[d] = keep(d) ? IN : OUT;
            s.touched[touched++] = d;
          }
          if (s.state[d] === IN) s.score[d] += list.impacts[i];
        }
      }
      for (let j = 0; j < touched; j++) {
        const d = s.touched[j];
        if (s.state[d] !== IN) continue;
        total++;
        top.add(s.score[d], d);
      }
    } else {
      // Each kept document gets a slot; its row of `impact` holds each term's impact (NaN: no posting) and of `at`
      // the posting's index in the term's list (for its positions).
      let slots = 0;
      for (const list of lists) {
        for (const d of list.docs) {
          if (s.state[d] !== UNSEEN) continue;
          s.touched[touched++] = d;
          s.state[d] = keep(d) ? IN : OUT;
          if (s.state[d] === IN) s.slot[d] = slots++;
        }
      }
      const n = read.length;
      const impact = new Float64Array(slots * n).fill(NaN);
      const at = new Int32Array(slots * n);
      lists.forEach((list, k) => {
        for (let i = 0; i < list.docs.length; i++) {
          const d = list.docs[i];
          if (s.state[d] !== IN) continue;
          impact[s.slot[d] * n + k] = list.impacts[i];
          at[s.slot[d] * n + k] = i;
        }
      });
      const doc = new Document(read, impact, at, withPositions, positions);
      const score = scorer(query, own, read, doc);
      for (let j = 0; j < touched; j++) {
        const d = s.touched[j];
        if (s.state[d] !== IN) continue;
        doc.slot = s.slot[d];
        const x = score();
        if (x === null) continue;
        total++;
        top.add(x, d);
      }
    }
  } finally {
    for (let j = 0; j < touched; j++) {
      const d = s.touched[j];
      s.state[d] = UNSEEN;
      s.score[d] = 0;
    }
  }
  return { ids: top.sorted().map(([score, d]) => ({ id: store.docId(d), score })), total };
}

/** Distinct terms in byte order: the order of the postings DuckDB sums, so scores add up alike. */
const byBytes = (terms: string[]) => [...new Set(terms)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

function scratchOf(store: PostingsStore): Scratch {
  let s = scratches.get(store);
  if (!s) scratches.set(store, (s = { state: new Uint8Array(store.docs), score: new Float64Array(store.docs), slot: new Int32Array(store.docs), touched: new Int32Array(store.docs) }));
  return s;
}

/** One document's postings among the query's terms (the document at `slot`). */
class Document {
  slot = 0;
  private readonly index: Map<string, number>;
  private readonly positionsOf: Map<string, TermPositions>;

  constructor(read: string[], private readonly impact: Float64Array, private readonly at: Int32Array, withPositions: string[], positions: TermPositions[]) {
    this.index = new Map(read.map((t, k) => [t, k]));
    this.positionsOf = new Map(withPositions.map((t, k) => [t, positions[k]]));
  }

  /** The term's impact in the document, or NaN when the document lacks it. */
  impactOf(term: string): number {
    return this.impact[this.slot * this.index.size + this.index.get(term)!];
  }

  has(term: string): boolean {
    return !Number.isNaN(this.impactOf(term));
  }

  /** Sum of the terms' impacts in the document (0 for none), in the order given. */
  sum(terms: string[]): number {
    let x = 0;
    for (const t of terms) if (this.has(t)) x += this.impactOf(t);
    return x;
  }

  /** Whether the document prints the terms in order, at consecutive positions (one term: holds it). bm25.ts phrasePositions. */
  printed(terms: string[]): boolean {
    if (!terms.every((t) => this.has(t))) return false;
    if (terms.length === 1) return true;
    let starts = this.positions(terms[0]);
    for (let i = 1; i < terms.length && starts.length; i++) {
      const next = this.positions(terms[i]);
      const kept: number[] = [];
      let j = 0;
      for (const x of starts) {
        while (j < next.length && next[j] < x + 1) j++;
        if (j < next.length && next[j] === x + 1) kept.push(x + 1);
      }
      starts = kept;
    }
    return starts.length > 0;
  }

  private positions(term: string): number[] {
    const p = this.positionsOf.get(term)!;
    const i = this.at[this.slot * this.index.size + this.index.get(term)!];
    const out: number[] = [];
    let last = 0;
    for (let b = p.from[i], value = 0, shift = 0; b < p.to[i]; b++) {
      value += (p.bytes[b] & 0x7f) * 2 ** shift;
      if (p.bytes[b] < 0x80) {
        out.push((last += value));
        value = 0;
        shift = 0;
      } else shift += 7;
    }
    return out;
  }
}

/**
 * The document's score as bm25.ts's scoreSql and HAVING give it, or null where the HAVING leaves it out: each quoted
 * phrase printed, and, with thesaurus expansions, one of the user's own words or a printed expansion present.
 */
function scorer(query: ParsedQuery, own: string[], read: string[], doc: Document): () => number | null {
  const expansions = query.weighted.filter((w) => w.expansion);
  const admitted = () => query.phrases.every((p) => doc.printed(p)) && (expansions.length === 0 || own.some((t) => doc.has(t)) || expansions.some((w) => doc.printed(w.terms)));
  if (query.weighted.length === 0) return () => (admitted() ? doc.sum(read) : null);
  const counted = new Set(query.terms.filter((t) => !query.weighted.some((w) => !w.expansion && w.terms.includes(t))));
  const base = byBytes([...counted]);
  const parts = query.weighted.map((w) => {
    const terms = byBytes(w.terms.filter((t) => !counted.has(t) && !isStopTerm(t)));
    terms.forEach((t) => counted.add(t));
    return { w, terms };
  }).filter((p) => p.terms.length > 0);
  return () => {
    if (!admitted()) return null;
    let x = doc.sum(base);
    for (const { w, terms } of parts) {
      const printed = doc.printed(w.terms) && !(w.instead && doc.printed(w.instead));
      x += (printed ? w.weight : w.partWeight) * doc.sum(terms);
    }
    return x;
  };
}

/** The best `limit` (score, document number) pairs: higher score first, then lower number (doc_id order). */
class TopK {
  private readonly heap: [number, number][] = [];
  constructor(private readonly limit: number) {}

  /** a ranks below b. */
  private static worse(a: [number, number], b: [number, number]): boolean {
    return a[0] < b[0] || (a[0] === b[0] && a[1] > b[1]);
  }

  add(score: number, doc: number): void {
    if (this.limit <= 0) return;
    const h = this.heap;
    const e: [number, number] = [score, doc];
    if (h.length < this.limit) {
      h.push(e);
      for (let i = h.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!TopK.worse(h[i], h[parent])) break;
        [h[i], h[parent]] = [h[parent], h[i]];
        i = parent;
      }
    } else if (TopK.worse(h[0], e)) {
      h[0] = e;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && TopK.worse(h[l], h[m])) m = l;
        if (r < h.length && TopK.worse(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
  }

  sorted(): [number, number][] {
    return [...this.heap].sort((a, b) => (TopK.worse(a, b) ? 1 : TopK.worse(b, a) ? -1 : 0));
  }
}
