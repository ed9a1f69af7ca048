// The embedding stage: page passages (a page, or overlapping word windows of a long page) embedded in batches and
// written to the release as `page_embeddings.parquet` (FLOAT[dim], unit length), with the built-in model's terms in
// `embedding_terms.parquet`. Vectors of passages whose text is unchanged since the previous release (same content
// hash, same model) are copied, not recomputed. The built-in LSA model is kept from the previous release while at most
// `retrainShare` of the passages are new (new passages are folded in), and retrained on the whole corpus otherwise.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ARRAY, DOUBLE, FLOAT, type DuckDBAppender, type DuckDBArrayType, type DuckDBConnection } from '@duckdb/node-api';
import { LsaEmbedder, lsaTerms, type LsaModel, type LsaOptions } from '../../core/embed/lsa.ts';
import { trainLsa } from './lsa-train.ts';
import type { Embedder } from '../../core/embed/provider.ts';
import { MANIFEST_FILE, readManifest, type EmbeddingsEntry } from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import { copyOut } from '../store/tables.ts';
import { stage } from '../progress.ts';

export const WINDOW = { words: 300, overlap: 50 } as const;
/** Training sample cap: larger corpora train on this many passages, chosen by content hash (deterministic). */
const MAX_TRAINING_PASSAGES = 20000;

export interface PageInput { page_id: string; year: number; kind: string; text: string; indexed: boolean }

export interface EmbedOptions {
  /** The release to reuse vectors (and the built-in model) from, usually the lake's current one. */
  previousReleaseDir?: string | null;
  /** An endpoint embedder; absent: the built-in LSA model trained on these pages. */
  provider?: Embedder | null;
  lsa?: LsaOptions;
  /** Keep the previous built-in model while at most this share of passages is new (default 0.2). */
  retrainShare?: number;
  batchSize?: number;
  quiet?: boolean;
}

export interface Passage { page_id: string; passage: number; year: number; kind: string; text: string; hash: string }

/** A page's passages: the whole page up to words + overlap words, else windows of `words` advancing by words − overlap. */
export function passagesOf(page: PageInput): Passage[] {
  const w = page.text.split(/\s+/).filter(Boolean);
  if (w.length === 0) return [];
  const spans: [number, number][] = [];
  if (w.length <= WINDOW.words + WINDOW.overlap) spans.push([0, w.length]);
  else for (let s = 0; ; s += WINDOW.words - WINDOW.overlap) {
    const e = Math.min(w.length, s + WINDOW.words);
    spans.push([s, e]);
    if (e === w.length) break;
  }
  return spans.map(([s, e], i) => {
    const text = w.slice(s, e).join(' ');
    return { page_id: page.page_id, passage: i + 1, year: page.year, kind: page.kind, text, hash: createHash('sha256').update(text).digest('hex').slice(0, 16) };
  });
}

/**
 * The previous release's embeddings: which content hashes it has vectors for. The vectors stay in its Parquet file until
 * the reused rows are filled in by one join (`fillReused`): held in JavaScript, they were a second copy of every vector,
 * growing with the corpus.
 */
interface Previous { manifest: EmbeddingsEntry; hashes: Set<string>; dir: string }

const vectorsFile = (dir: string) => join(dir, 'page_embeddings.parquet');

async function readPrevious(db: DuckDBConnection, dir: string | null | undefined): Promise<Previous | null> {
  if (!dir || !existsSync(join(dir, MANIFEST_FILE)) || !existsSync(vectorsFile(dir))) return null;
  const manifest = (await readManifest(dir)).embeddings;
  if (!manifest) return null;
  const hashes = new Set<string>();
  const result = await db.stream(`SELECT DISTINCT content_hash FROM read_parquet(${sqlString(vectorsFile(dir))})`);
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (const hash of chunk.getColumnVector(0).toArray()) hashes.add(String(hash));
  }
  return { manifest, hashes, dir };
}

/**
 * Fills the rows appended without a vector (reused passages) with the previous release's vector of the same content
 * hash, in DuckDB (its memory limit holds, and it spills), not in JavaScript. Coalesced as lists: DuckDB 1.5 has no
 * CASE over fixed-size arrays.
 */
async function fillReused(db: DuckDBConnection, previous: Previous, dim: number): Promise<void> {
  await db.run(`CREATE OR REPLACE TABLE page_embeddings AS
    SELECT e.page_id, e.passage, e.year, e.kind, e.content_hash, coalesce(e.vector::FLOAT[], r.vector)::FLOAT[${dim}] AS vector
    FROM page_embeddings e LEFT JOIN (
      SELECT DISTINCT ON (content_hash) content_hash, vector::FLOAT[] AS vector FROM read_parquet(${sqlString(vectorsFile(previous.dir))})
      WHERE content_hash IN (SELECT content_hash FROM page_embeddings WHERE vector IS NULL)
    ) r ON e.vector IS NULL AND r.content_hash = e.content_hash`);
}

async function readLsaModel(db: DuckDBConnection, prev: Previous): Promise<LsaModel | null> {
  const path = join(prev.dir, 'embedding_terms.parquet');
  if (prev.manifest.provider !== 'lsa' || !prev.manifest.lsa || !existsSync(path)) return null;
  const rows = (await db.runAndReadAll(`SELECT term, idf, projection FROM read_parquet(${sqlString(path)}) ORDER BY term`)).getRowsJson() as [string, number, number[]][];
  const dim = prev.manifest.dim;
  const projection = new Float32Array(rows.length * dim);
  rows.forEach(([, , row], i) => projection.set(row, i * dim));
  const { terms: _n, ...params } = prev.manifest.lsa;
  return { name: prev.manifest.model, dim, terms: rows.map((r) => r[0]), idf: Float64Array.from(rows, (r) => r[1]), projection, singularValues: [], params };
}

/** The pages to embed, read once to plan and train and once more to embed: an array, or something that streams them again. */
export type PageSource = Iterable<PageInput> | (() => AsyncIterable<PageInput>);

async function* passagesByPage(pages: PageSource): AsyncGenerator<Passage[]> {
  for await (const page of typeof pages === 'function' ? pages() : pages) if (page.indexed) yield passagesOf(page);
}

/** The training sample: every passage while there are at most MAX_TRAINING_PASSAGES, else that many with the lowest hashes. */
class TrainingSample {
  private kept: { hash: string; text: string; seen: number }[] = [];
  private seen = 0;

  add(p: Passage): void {
    this.kept.push({ hash: p.hash, text: p.text, seen: this.seen++ });
    if (this.kept.length >= 2 * MAX_TRAINING_PASSAGES) this.trim();
  }

  /** The passages' texts: in the order seen when all are kept, else by hash (ties in the order seen). */
  texts(): string[] {
    if (this.seen > MAX_TRAINING_PASSAGES) this.trim();
    return this.kept.map((k) => k.text);
  }

  private trim(): void {
    this.kept.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.seen - b.seen));
    this.kept.length = MAX_TRAINING_PASSAGES;
  }
}

/**
 * Embeds the indexed pages into `<stagedDir>/page_embeddings.parquet` (and, for the built-in model,
 * `<stagedDir>/embedding_terms.parquet`); returns the manifest's `embeddings` entry. Holds the passages' vectors in
 * DuckDB and at most the training sample's texts in memory, not the pages.
 */
export async function embedPages(db: DuckDBConnection, stagedDir: string, pages: PageSource, opts: EmbedOptions = {}): Promise<EmbeddingsEntry> {
  const previous = await readPrevious(db, opts.previousReleaseDir);
  const isNew = (p: Passage) => !previous?.hashes.has(p.hash);
  let count = 0;
  let newCount = 0;
  let pageCount = 0;
  const sample = opts.provider ? null : new TrainingSample();
  for await (const passages of passagesByPage(pages)) {
    if (passages.length) pageCount++;
    for (const p of passages) {
      count++;
      if (isNew(p)) newCount++;
      sample?.add(p);
    }
  }

  let embedder: Embedder;
  let lsa: LsaModel | null = null;
  if (opts.provider) embedder = opts.provider;
  else {
    const kept = previous ? await readLsaModel(db, previous) : null;
    const newShare = count ? newCount / count : 0;
    const wanted = { dim: 256, ...opts.lsa };
    if (kept && kept.dim === wanted.dim && newShare <= (opts.retrainShare ?? 0.2)) lsa = kept;
    else {
      const bar = opts.quiet ? null : stage('lsa-train', 1);
      const texts = sample!.texts();
      lsa = trainLsa(texts.map(lsaTerms), wanted);
      bar?.done(`${lsa.name}: ${lsa.terms.length} terms from ${texts.length} passages`);
    }
    embedder = LsaEmbedder.fromModel(lsa);
  }
  const sameModel = previous?.manifest.model === embedder.model && previous.manifest.provider === embedder.provider;

  const todo = sameModel ? newCount : count;
  // A reused passage is appended without its vector (filled in below); the same model means the same dimension.
  const vectors = new VectorTable(db, () => embedder.dim ?? (sameModel ? previous!.manifest.dim : null));
  const batchSize = opts.batchSize ?? 64;
  const bar = opts.quiet ? null : stage('embed', todo);
  let batch: Passage[] = [];
  const embedBatch = async () => {
    const out = await embedder.embed(batch.map((p) => p.text));
    for (const [j, p] of batch.entries()) await vectors.append(p, out[j]);
    bar?.tick(batch.length);
    batch = [];
  };
  for await (const passages of passagesByPage(pages)) {
    for (const p of passages) {
      if (sameModel && !isNew(p)) await vectors.append(p, null);
      else {
        batch.push(p);
        if (batch.length === batchSize) await embedBatch();
      }
    }
  }
  if (batch.length) await embedBatch();
  const dim = await vectors.close();
  if (sameModel && count > todo) await fillReused(db, previous!, dim);
  bar?.done(`${todo} passages embedded, ${count - todo} reused (${embedder.model}, ${dim} dims)`);
  await copyOut(db, 'SELECT * FROM page_embeddings', join(stagedDir, 'page_embeddings'), { orderBy: 'page_id, passage', rowGroupSize: 16384 });

  if (lsa) {
    await db.run(`CREATE OR REPLACE TABLE embedding_terms (term VARCHAR, idf DOUBLE, projection FLOAT[${lsa.dim}])`);
    const t = await db.createAppender('embedding_terms');
    const projType = ARRAY(FLOAT, lsa.dim);
    lsa.terms.forEach((term, i) => {
      t.appendVarchar(term); t.appendValue(lsa!.idf[i], DOUBLE);
      t.appendArray(Array.from(lsa!.projection.subarray(i * lsa!.dim, (i + 1) * lsa!.dim)), projType);
      t.endRow();
    });
    t.flushSync();
    t.closeSync();
    await copyOut(db, 'SELECT * FROM embedding_terms', join(stagedDir, 'embedding_terms'), { orderBy: 'term' });
  }
  return {
    model: embedder.model, provider: embedder.provider, dim, table: 'page_embeddings',
    pages: pageCount, passages: count, embedded: todo, reused: count - todo,
    window: { ...WINDOW },
    ...(lsa ? { lsa: { ...lsa.params, terms: lsa.terms.length } } : {}),
  };
}

/** The `page_embeddings` table, created with the first vector's dimension unless the embedder declares one. */
class VectorTable {
  private app: DuckDBAppender | null = null;
  private type: DuckDBArrayType | null = null;
  private dim = 0;

  constructor(private readonly db: DuckDBConnection, private readonly declaredDim: () => number | null) {}

  /** A passage and its vector, or null: a reused passage whose vector is filled in later. */
  async append(p: Passage, vector: Float32Array | null): Promise<void> {
    const app = this.app ?? await this.create(vector?.length ?? 0);
    app.appendVarchar(p.page_id); app.appendInteger(p.passage); app.appendInteger(p.year); app.appendVarchar(p.kind); app.appendVarchar(p.hash);
    if (vector) app.appendArray(Array.from(vector), this.type!);
    else app.appendNull();
    app.endRow();
  }

  /** Flushes the rows (creating the table if there were none); returns the vectors' dimension. */
  async close(): Promise<number> {
    const app = this.app ?? await this.create(0);
    app.flushSync();
    app.closeSync();
    return this.dim;
  }

  private async create(firstLength: number): Promise<DuckDBAppender> {
    this.dim = this.declaredDim() ?? firstLength;
    this.type = ARRAY(FLOAT, this.dim);
    await this.db.run(`CREATE OR REPLACE TABLE page_embeddings (page_id VARCHAR, passage INTEGER, year INTEGER, kind VARCHAR, content_hash VARCHAR, vector FLOAT[${this.dim}])`);
    return this.app = await this.db.createAppender('page_embeddings');
  }
}
