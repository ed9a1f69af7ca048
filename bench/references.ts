// Two in-process JavaScript search libraries as references beside SQLite FTS5 (issue 42): what a TypeScript developer
// would pick instead of this service's engine. Both index the same page texts FTS5 does (the release's pages Parquet,
// indexed pages only, digit groups joined as core/text/analysis.ts and fts5.ts do), with each library's own default
// tokenizer and scoring (BM25 in both), in this process, and are timed query by query beside the others.
//
// How each query class is expressed (the words are those FTS5 gets: core/text/analysis.ts's words, stopwords dropped
// outside quotes):
// - words (rare, common, multi-term, file number): the words OR'ed. MiniSearch `combineWith: 'OR'`, whole terms (its
//   default: no prefix, no fuzzy). Orama `threshold: 1` (any word), its default prefix matching (`exact: true` is a
//   case-sensitive whole-word check over the stored text, not a tokenizer option), tolerance 0.
// - quoted phrase: neither library has phrases or positions. Closest: every word of the phrase required, in any order
//   and at any distance. MiniSearch `combineWith: 'AND'`; Orama `threshold: 0`. So both match more pages than a phrase.
// - year+kind filtered: MiniSearch's `filter` option (a callback over stored fields, applied to the scored matches);
//   Orama's `where` (`year: { eq }` on a number field, `kind: { eq }` on an enum), which selects documents before scoring.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { create, insert, type Orama, search as oramaSearch } from '@orama/orama';
import MiniSearch, { type SearchResult } from 'minisearch';

import { terms, words } from '../core/text/analysis.ts';
import type { FtsQuery, PageRow } from './fts5.ts';

/** A query as the libraries take it: plain words (OR'ed), or a phrase's words (all required). */
export interface LibQuery {
  text: string;
  all: boolean;
  year?: number;
  kind?: string;
}

export function libQuery(f: FtsQuery): LibQuery {
  const phrase: string[] = [];
  const rest = f.q.replace(/"([^"]*)"/g, (_, p: string) => {
    phrase.push(...words(p));
    return ' ';
  });
  const plain = words(rest).filter((w) => terms(w).length > 0);
  // Ours and FTS5 add the other words' scores to a phrase's; the classes here have phrases alone.
  return { text: [...phrase, ...plain].join(' '), all: phrase.length > 0, year: f.year, kind: f.kind };
}

// Heap retained by an index: a full collection before and after the build, the index still referenced.
let gcFn: (() => void) | null = null;
function gc(): void {
  if (!gcFn) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

export interface RefBuild {
  pages: number;
  ms: number;
  heapMb: number;
}

export interface Reference {
  name: 'MiniSearch' | 'Orama';
  build: RefBuild;
  /** Top 20 page ids, best first. */
  search(q: LibQuery): Promise<string[]>;
}

export function buildMiniSearch(rows: PageRow[]): Reference {
  const before = heapMb();
  const t = performance.now();
  const ms = new MiniSearch<PageRow>({ idField: 'page_id', fields: ['text'], storeFields: ['year', 'kind'] });
  ms.addAll(rows);
  const elapsed = performance.now() - t;
  const build = { pages: ms.documentCount, ms: Math.round(elapsed), heapMb: Math.round(heapMb() - before) };
  return {
    name: 'MiniSearch',
    build,
    search: (q) => {
      const filter =
        q.year !== undefined || q.kind
          ? (r: SearchResult) => (q.year === undefined || r.year === q.year) && (!q.kind || r.kind === q.kind)
          : undefined;
      const hits = ms.search(q.text, { combineWith: q.all ? 'AND' : 'OR', ...(filter ? { filter } : {}) });
      return Promise.resolve(hits.slice(0, 20).map((h) => String(h.id)));
    },
  };
}

const SCHEMA = { page_id: 'string', text: 'string', year: 'number', kind: 'enum' } as const;

export async function buildOrama(rows: PageRow[]): Promise<Reference> {
  const before = heapMb();
  const t = performance.now();
  const db: Orama<typeof SCHEMA> = create({ schema: SCHEMA });
  // page_id is stored (the hit's document) and not searched: `properties: ['text']` below.
  for (const r of rows)
    await insert(db, { id: r.page_id, page_id: r.page_id, text: r.text, year: r.year, kind: r.kind });
  const elapsed = performance.now() - t;
  const build = { pages: rows.length, ms: Math.round(elapsed), heapMb: Math.round(heapMb() - before) };
  return {
    name: 'Orama',
    build,
    search: async (q) => {
      const where: Record<string, unknown> = {};
      if (q.year !== undefined) where.year = { eq: q.year };
      if (q.kind) where.kind = { eq: q.kind };
      const r = await oramaSearch(db, {
        term: q.text,
        properties: ['text'],
        limit: 20,
        threshold: q.all ? 0 : 1,
        ...(Object.keys(where).length ? { where } : {}),
      });
      return r.hits.map((h) => h.id);
    },
  };
}
