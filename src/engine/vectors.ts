// Hybrid page search: the release's passage vectors in memory (a table in the release's own in-memory DuckDB, created
// once per release on first use), the query embedded by the release's model, and the lexical (BM25) and vector
// rankings fused by fusion.ts (a score blend; exact matches keep their lexical rank).
//
// The query is embedded by the model that embedded the passages: a stored model (GloVe word vectors or the built-in
// LSA) from the release's `embedding_terms` (no network); an endpoint model needs EMBEDDING_URL with the same
// EMBEDDING_MODEL. Whatever fails (no vectors, no or another endpoint, an endpoint error or timeout, a query the model
// has no words for) answers lexically with `fallbackReason` saying which; it is never an error.
import type { EmbeddingSettings } from '../../core/config.ts';
import { GloveEmbedder } from '../../core/embed/glove.ts';
import { LsaEmbedder } from '../../core/embed/lsa.ts';
import { OpenAIEmbedder } from '../../core/embed/openai.ts';
import { type Embedder, EmbeddingError, isZero } from '../../core/embed/provider.ts';
import { type TermModel, TermVectorEmbedder } from '../../core/embed/term-vectors.ts';
import type { EmbeddingsEntry } from '../../core/lake/format.ts';
import type { ParsedQuery } from '../../core/text/analysis.ts';
import { type ExactSignal, exactSignals, fuse, PROTECTED } from './fusion.ts';
import { postingsStore } from './postings.ts';
import type { EngineRelease } from './release.ts';
import { sortedIndexOf } from './texts.ts';
import { nearestPages, vectorIndex } from './vector-index.ts';

export const DEPTH = 100;

/** A ranking as the engine answers it (rank.ts Ranking): hits by score, and the total. */
interface Ranked {
  hits: { id: string; score: number }[];
  total: number;
}

export interface Retrieval {
  requested: 'lexical' | 'hybrid';
  used: 'lexical' | 'hybrid';
  embeddingModel: string | null;
  semanticCoverage: number;
  fallbackReason: string | null;
  /** Hybrid only: the query's exact signals and how many top results kept their lexical rank for them. */
  exactMatch?: { signals: ExactSignal[]; kept: number };
  /** Hybrid only: how many of the results answered stand where BM25 alone would not put them (0: fusion stayed out). */
  reordered?: number;
}

interface Loaded {
  entry: EmbeddingsEntry;
  /** The query's embedder, or why there is none. */
  embedder: Embedder | string;
}

/** Why a release's last load of its vectors failed, until a load succeeds. */
const failures = new WeakMap<EngineRelease, string>();

/** The release's vectors in memory (vector-index.ts) and its query embedder, loaded once per release. */
const vectorsOf = (release: EngineRelease): Promise<Loaded | null> =>
  release.memo('vectors', () =>
    load(release).then(
      (loaded) => {
        failures.delete(release);
        return loaded;
      },
      (e: Error) => {
        failures.set(release, `page embeddings could not be loaded (${e.message})`);
        throw e;
      },
    ),
  );

/** Reads the release's vectors and query model ahead of the first hybrid query (a release without them: nothing). */
export const warmVectors = (release: EngineRelease): Promise<unknown> => vectorsOf(release);

/**
 * The release's vectors, or why a request does not wait for them: after a failed load (the warm-up's or a later one),
 * the next one runs in the background while requests answer lexically with the reason (waiting, each would wait the
 * whole load, seconds to a minute, and its time limit would run out first).
 */
function vectorsFor(release: EngineRelease): Promise<Loaded | null> | string {
  const failed = failures.get(release);
  const loading = vectorsOf(release);
  if (failed === undefined) return loading;
  loading.catch(() => {}); // a failure again is the next request's reason
  return `${failed}; they are being loaded again`;
}

async function load(release: EngineRelease): Promise<Loaded | null> {
  const entry = release.manifest.embeddings;
  if (!entry || !release.has('page_embeddings') || !Number.isInteger(entry.dim) || entry.dim <= 0) return null;
  const stored = entry.provider !== 'openai-compatible' && release.has('embedding_terms');
  await vectorIndex(release, entry.dim);
  // A stored model's terms are held in memory (a few MB): a query's words are looked up without a statement.
  const lookup = stored ? TermVectorEmbedder.lookupOf(await termModel(release, entry)) : null;
  const model = !lookup
    ? null
    : entry.provider === 'lsa'
      ? new LsaEmbedder(entry.model, entry.dim, lookup)
      : new GloveEmbedder(entry.model, entry.dim, lookup);
  return { entry, embedder: queryEmbedder(entry, model, release.settings.embedding ?? null) };
}

/** The release's stored model (table `embedding_terms`) as a model in memory. */
async function termModel(release: EngineRelease, entry: EmbeddingsEntry): Promise<TermModel> {
  const rows = await release.pool.rows('SELECT term, idf, projection FROM embedding_terms ORDER BY term');
  const projection = new Float32Array(rows.length * entry.dim);
  rows.forEach((r, i) => projection.set(r.projection as number[], i * entry.dim));
  return {
    name: entry.model,
    dim: entry.dim,
    terms: rows.map((r) => String(r.term)),
    idf: Float64Array.from(rows, (r) => Number(r.idf)),
    projection,
  };
}

/**
 * The query's embedder, or why there is none: the release's stored model, or the configured endpoint when it serves
 * the release's model. Queries do not retry: the lexical answer is the fallback.
 */
function queryEmbedder(
  entry: EmbeddingsEntry,
  stored: TermVectorEmbedder | null,
  endpoint: EmbeddingSettings | null,
): Embedder | string {
  if (entry.provider !== 'openai-compatible')
    return stored ?? `this release's ${entry.model} vectors have no embedding_terms to embed the query with`;
  if (!endpoint)
    return `no embedding endpoint is configured for this release's model ${entry.model} (set EMBEDDING_URL)`;
  if (endpoint.model !== entry.model)
    return `the configured embedding model ${endpoint.model} is not this release's model ${entry.model}`;
  return new OpenAIEmbedder({ ...endpoint, retries: 0 });
}

function failureReason(e: unknown, model: string): string {
  if (e instanceof EmbeddingError) {
    if (e.kind === 'timeout') return `the embedding endpoint timed out (${e.message}); model ${model}`;
    if (e.kind === 'http') return `the embedding endpoint failed with HTTP ${e.status}; model ${model}`;
    if (e.kind === 'network') return `the embedding endpoint is unreachable (${e.message}); model ${model}`;
    return `the embedding endpoint gave an unusable answer (${e.message}); model ${model}`;
  }
  return `embedding the query failed (${(e as Error).message})`;
}

/**
 * Hybrid ranking of pages: `lexical(depth)` is the BM25 ranking (the same as mode=lexical); the answer is either the
 * fused ranking (`used: hybrid`) or the lexical one cut to `limit` with the reason. `text` is the query as typed (it is
 * embedded, and read for exact signals), `query` its analysis.
 */
export async function hybridRank(
  release: EngineRelease,
  p: { text: string; query: ParsedQuery; kind?: string; date?: string; from: number; to: number; limit: number },
  lexical: (depth: number) => Promise<Ranked>,
): Promise<Ranked & { retrieval: Retrieval }> {
  const depth = Math.max(DEPTH, p.limit);
  const fallback = async (reason: string, lex?: Ranked) => {
    const l = lex ?? (await lexical(p.limit));
    return {
      hits: l.hits.slice(0, p.limit),
      total: l.total,
      retrieval: {
        requested: 'hybrid' as const,
        used: 'lexical' as const,
        embeddingModel: null,
        semanticCoverage: 0,
        fallbackReason: reason,
      },
    };
  };
  const loading = vectorsFor(release);
  if (typeof loading === 'string') return fallback(loading);
  const vectors = await loading.catch((e: Error) => new Error(`page embeddings could not be loaded (${e.message})`));
  if (vectors instanceof Error) return fallback(vectors.message);
  if (!vectors)
    return fallback(
      release.settings.embedding
        ? 'this release has no page embeddings (the embedding endpoint is configured, but the pages were not embedded)'
        : 'this release has no page embeddings and no embedding endpoint is configured',
    );
  const { embedder } = vectors;
  if (typeof embedder === 'string') return fallback(embedder);

  const [lex, qv] = await Promise.all([
    lexical(depth),
    embedder.embed([p.text]).then(
      (v) => v[0],
      (e: unknown) => failureReason(e, vectors.entry.model),
    ),
  ]);
  if (typeof qv === 'string') return fallback(qv, lex);
  if (qv.length !== vectors.entry.dim)
    return fallback(
      `the embedding endpoint returned ${qv.length} dimensions, this release's vectors have ${vectors.entry.dim}`,
      lex,
    );
  if (isZero(qv)) return fallback(`none of the query's words is in the vocabulary of ${vectors.entry.model}`, lex);

  // The vector ranking over every page under the filters; kept: its top `depth` and the lexical candidates.
  const rows = nearestPages(await vectorIndex(release, vectors.entry.dim), qv, {
    from: p.from,
    to: p.to,
    kind: p.kind,
    date: p.date,
    depth,
    also: lex.hits.map((r) => r.id),
  });
  const similarity = new Map(rows.map((r) => [r.id, r.sim]));
  const inTop = rows.filter((r) => r.rank <= depth).map((r) => r.sim);
  const floor = inTop.length ? Math.min(...inTop) : 0;
  for (const r of rows) if (r.rank > depth) similarity.set(r.id, Math.min(floor, r.sim));

  const signals = exactSignals(p.text);
  const whole = signals.length
    ? null
    : await wholeMatches(
        release,
        p.query.terms,
        lex.hits.slice(0, PROTECTED).map((r) => r.id),
      );
  const { ranked, kept } = fuse(lex.hits, similarity, floor, (id) => !whole || whole.has(id));
  const covered = ranked.filter((r) => similarity.has(r.id)).length;
  const hits = ranked.slice(0, p.limit);
  return {
    hits,
    total: ranked.length,
    retrieval: {
      requested: 'hybrid',
      used: 'hybrid',
      embeddingModel: vectors.entry.model,
      semanticCoverage: ranked.length ? Math.round((covered / ranked.length) * 1000) / 1000 : 0,
      fallbackReason: null,
      exactMatch: { signals, kept },
      reordered: hits.filter((h, i) => lex.hits[i]?.id !== h.id).length,
    },
  };
}

/**
 * Of the given pages, those whose text contains every word of the query (its own words, stemmed; no expansions): read
 * from the page postings store, whose terms are the same analysis of the same texts (a stem is indexed for a page
 * exactly when `terms` of its text holds it), so no page text is read or analysed.
 */
async function wholeMatches(release: EngineRelease, wanted: string[], ids: string[]): Promise<Set<string>> {
  if (wanted.length === 0) return new Set();
  const store = await postingsStore(release, 'page');
  const lists = await Promise.all(wanted.map((t) => store.postings(t)));
  return new Set(
    ids.filter((id) => {
      const d = store.docNo(id);
      return d >= 0 && lists.every((l) => sortedIndexOf(l.docs, d) >= 0);
    }),
  );
}
