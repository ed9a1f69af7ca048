// The embedding stage: passages (items' blocks and short page chunks without the corpus's standing text,
// passages.ts) embedded in batches and written to the release as `page_embeddings.parquet` (FLOAT[dim], unit length),
// with a stored model's term vectors in `embedding_terms.parquet`. The model: pretrained GloVe word vectors (the
// default, glove.ts), the built-in LSA trained on the corpus (lsa-train.ts), or an OpenAI-compatible endpoint.
// Vectors of passages whose text is unchanged since the previous release (same content hash, same model) are copied,
// not recomputed. A stored model (its idf weights, LSA's projection) is kept from the previous release while at most
// `retrainShare` of the passages are new, and fitted again on the whole corpus otherwise.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

import {
  ARRAY,
  arrayValue,
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBType,
  FLOAT,
  INTEGER,
  VARCHAR,
} from '@duckdb/node-api';

import { GloveEmbedder } from '../../core/embed/glove.ts';
import { LsaEmbedder, type LsaOptions, lsaTerms } from '../../core/embed/lsa.ts';
import type { Embedder } from '../../core/embed/provider.ts';
import type { TermModel, TermProvider, TermVectorEmbedder } from '../../core/embed/term-vectors.ts';
import { type EmbeddingsEntry, MANIFEST_FILE, readManifest } from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import { stage } from '../progress.ts';
import { NdjsonWriter, readNdjson } from '../store/scratch.ts';
import { copyOut } from '../store/tables.ts';
import { gloveModel } from './glove.ts';
import { trainLsa } from './lsa-train.ts';
import {
  BOILERPLATE,
  Boilerplate,
  CHUNK,
  type DocumentInput,
  type Passage,
  passagesOf,
  unitTexts,
} from './passages.ts';

/** Training sample cap: larger corpora fit the model on this many passages, chosen by content hash (deterministic). */
const MAX_TRAINING_PASSAGES = 20000;

export interface EmbedOptions {
  /** The release to reuse vectors (and the stored model) from, usually the lake's current one. */
  previousReleaseDir?: string | null;
  /** An endpoint embedder; absent: a model stored in the release, `model`. */
  provider?: Embedder | null;
  /** The stored model: `glove` (default) or `lsa`. */
  model?: TermProvider;
  lsa?: LsaOptions;
  /** Keep the previous stored model while at most this share of passages is new (default 0.2). */
  retrainShare?: number;
  batchSize?: number;
  quiet?: boolean;
}

/**
 * The previous release's embeddings: which content hashes it has vectors for. The vectors stay in its Parquet file until
 * the reused rows are filled in by one join (`fillReused`): held in JavaScript, they were a second copy of every vector,
 * growing with the corpus.
 */
interface Previous {
  manifest: EmbeddingsEntry;
  hashes: Set<string>;
  dir: string;
}

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

/** The previous release's stored model of that provider, to keep. */
async function readTermModel(
  db: DuckDBConnection,
  prev: Previous,
  provider: TermProvider,
): Promise<StoredModel | null> {
  const path = join(prev.dir, 'embedding_terms.parquet');
  const params = prev.manifest.provider === provider ? prev.manifest[provider] : null;
  if (!params || !existsSync(path)) return null;
  const rows = (
    await db.runAndReadAll(`SELECT term, idf, projection FROM read_parquet(${sqlString(path)}) ORDER BY term`)
  ).getRowsJson() as [string, number, number[]][];
  const dim = prev.manifest.dim;
  const projection = new Float32Array(rows.length * dim);
  rows.forEach(([, , row], i) => projection.set(row, i * dim));
  const { terms: _n, ...kept } = params;
  return {
    name: prev.manifest.model,
    dim,
    terms: rows.map((r) => r[0]),
    idf: Float64Array.from(rows, (r) => r[1]),
    projection,
    params: kept,
  };
}

type StoredModel = TermModel & { params: object };

/** Fits the stored model on the training sample's passages. */
async function fitModel(provider: TermProvider, texts: string[], opts: EmbedOptions): Promise<StoredModel> {
  if (provider === 'lsa') return trainLsa(texts.map(lsaTerms), { dim: 256, ...opts.lsa });
  return gloveModel(texts);
}

const embedderOf = (provider: TermProvider, m: TermModel): TermVectorEmbedder =>
  provider === 'lsa' ? LsaEmbedder.fromModel(m) : GloveEmbedder.fromModel(m);

/** The documents to embed, read twice (boilerplate; passages, plan and fit): an array, or something that streams them again. */
export type DocumentSource = Iterable<DocumentInput> | (() => AsyncIterable<DocumentInput>);

const documents = (docs: DocumentSource) => (typeof docs === 'function' ? docs() : docs);

async function* passagesByPage(docs: DocumentSource, boilerplate: Boilerplate): AsyncGenerator<Passage[]> {
  for await (const doc of documents(docs)) yield passagesOf(doc, boilerplate);
}

/** A sample of texts: every one while there are at most `cap`, else the `cap` with the lowest content hashes. */
class Sample {
  private kept: { hash: string; text: string; seen: number }[] = [];
  private seen = 0;

  constructor(private readonly cap: number) {}

  add(hash: string, text: string): void {
    this.kept.push({ hash, text, seen: this.seen++ });
    if (this.kept.length >= 2 * this.cap) this.trim();
  }

  /** The texts: in the order seen when all are kept, else by hash (ties in the order seen). */
  texts(): string[] {
    if (this.seen > this.cap) this.trim();
    return this.kept.map((k) => k.text);
  }

  private trim(): void {
    this.kept.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.seen - b.seen));
    this.kept.length = Math.min(this.kept.length, this.cap);
  }
}

/** The corpus's standing text, learnt from a sample of its units (pages and items). */
async function learnBoilerplate(docs: DocumentSource): Promise<Boilerplate> {
  const sample = new Sample(BOILERPLATE.sampleUnits);
  for await (const doc of documents(docs))
    for (const text of unitTexts(doc)) sample.add(createHash('sha256').update(text).digest('hex'), text);
  return Boilerplate.learn(sample.texts());
}

/**
 * Embeds the documents' passages into `<stagedDir>/page_embeddings.parquet` (and, for a stored model,
 * `<stagedDir>/embedding_terms.parquet`); returns the manifest's `embeddings` entry. Holds the passages' vectors in
 * DuckDB and at most the samples' texts and the model in memory, one document at a time.
 */
export async function embedPages(
  db: DuckDBConnection,
  stagedDir: string,
  docs: DocumentSource,
  opts: EmbedOptions = {},
): Promise<EmbeddingsEntry> {
  const previous = await readPrevious(db, opts.previousReleaseDir);
  const isNew = (p: Passage) => !previous?.hashes.has(p.hash);
  const boilerplate = await learnBoilerplate(docs);
  let count = 0;
  let newCount = 0;
  let pageCount = 0;
  const sample = opts.provider ? null : new Sample(MAX_TRAINING_PASSAGES);
  // The passages are cut once (the boilerplate stripped from every page and item) and read back to be embedded.
  const cut = await NdjsonWriter.create(join(stagedDir, '.passages.ndjson'));
  try {
    for await (const passages of passagesByPage(docs, boilerplate)) {
      pageCount += new Set(passages.map((p) => p.page_id)).size;
      for (const p of passages) {
        count++;
        if (isNew(p)) newCount++;
        sample?.add(p.hash, p.text);
        await cut.write(p);
      }
    }
  } finally {
    await cut.close();
  }

  let embedder: Embedder;
  let stored: StoredModel | null = null;
  const provider = opts.model ?? 'glove';
  if (opts.provider) embedder = opts.provider;
  else {
    const kept = previous ? await readTermModel(db, previous, provider) : null;
    const newShare = count ? newCount / count : 0;
    const wantedDim = provider === 'lsa' ? (opts.lsa?.dim ?? 256) : kept?.dim;
    if (kept && kept.dim === wantedDim && newShare <= (opts.retrainShare ?? 0.2)) stored = kept;
    else {
      const bar = opts.quiet ? null : stage(`${provider}-fit`, 1);
      const texts = sample!.texts();
      stored = await fitModel(provider, texts, opts);
      bar?.done(`${stored.name}: ${stored.terms.length} terms, fitted on ${texts.length} passages`);
    }
    embedder = embedderOf(provider, stored);
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
  try {
    for await (const p of readNdjson<Passage>(cut.path)) {
      if (sameModel && !isNew(p)) await vectors.append(p, null);
      else {
        batch.push(p);
        if (batch.length === batchSize) await embedBatch();
      }
    }
    if (batch.length) await embedBatch();
  } finally {
    await rm(cut.path);
  }
  const dim = await vectors.close();
  if (sameModel && count > todo) await fillReused(db, previous!, dim);
  bar?.done(`${todo} passages embedded, ${count - todo} reused (${embedder.model}, ${dim} dims)`);
  await copyOut(db, 'SELECT * FROM page_embeddings', join(stagedDir, 'page_embeddings'), {
    orderBy: 'page_id, passage',
    rowGroupSize: 16384,
  });

  if (stored) await writeTerms(db, stagedDir, stored);
  return {
    model: embedder.model,
    provider: embedder.provider,
    dim,
    table: 'page_embeddings',
    pages: pageCount,
    passages: count,
    embedded: todo,
    reused: count - todo,
    window: { ...CHUNK },
    boilerplate: { ngram: BOILERPLATE.ngram, share: BOILERPLATE.share, phrases: boilerplate.size },
    ...(stored ? { [provider]: { ...stored.params, terms: stored.terms.length } } : {}),
  };
}

/**
 * `<stagedDir>/embedding_terms.parquet` from a model in memory, through an NDJSON scratch file DuckDB reads (appending
 * 40,000 rows of 100 floats value by value took seconds and gigabytes of garbage).
 */
async function writeTerms(db: DuckDBConnection, stagedDir: string, m: TermModel): Promise<void> {
  const scratch = join(stagedDir, '.embedding_terms.ndjson');
  const out = await NdjsonWriter.create(scratch);
  try {
    for (let i = 0; i < m.terms.length; i++) {
      await out.write({
        term: m.terms[i],
        idf: m.idf[i],
        projection: Array.from(m.projection.subarray(i * m.dim, (i + 1) * m.dim)),
      });
    }
  } finally {
    await out.close();
  }
  await copyOut(
    db,
    `SELECT term, idf, projection::FLOAT[${m.dim}] AS projection FROM read_json(${sqlString(scratch)}, format = 'newline_delimited', columns = {term: 'VARCHAR', idf: 'DOUBLE', projection: 'FLOAT[]'})`,
    join(stagedDir, 'embedding_terms'),
    { orderBy: 'term' },
  );
  await rm(scratch);
}

/** Rows appended to `page_embeddings` per data chunk (DuckDB's vector size). */
const CHUNK_ROWS = 2048;

/**
 * The `page_embeddings` table, created with the first vector's dimension unless the embedder declares one. Rows are
 * appended a data chunk at a time: the floats are copied into the chunk's array vector, where appending row by row made
 * a DuckDB value of every float (11 s of SCALE=1's build).
 */
class VectorTable {
  private app: DuckDBAppender | null = null;
  private types: DuckDBType[] = [];
  private dim = 0;
  private rows: { p: Passage; vector: Float32Array | null }[] = [];

  constructor(
    private readonly db: DuckDBConnection,
    private readonly declaredDim: () => number | null,
  ) {}

  /** A passage and its vector, or null: a reused passage whose vector is filled in later. */
  async append(p: Passage, vector: Float32Array | null): Promise<void> {
    if (!this.app) await this.create(vector?.length ?? 0);
    this.rows.push({ p, vector });
    if (this.rows.length === CHUNK_ROWS) this.flush();
  }

  /** Flushes the rows (creating the table if there were none); returns the vectors' dimension. */
  async close(): Promise<number> {
    if (!this.app) await this.create(0);
    this.flush();
    this.app!.flushSync();
    this.app!.closeSync();
    return this.dim;
  }

  private flush(): void {
    if (this.rows.length === 0) return;
    const chunk = DuckDBDataChunk.create(this.types, this.rows.length);
    const columns: (keyof Passage)[] = ['page_id', 'passage', 'year', 'kind', 'hash'];
    columns.forEach((c, i) =>
      chunk.setColumnValues(
        i,
        this.rows.map((r) => r.p[c]),
      ),
    );
    const vectors = chunk.getColumnVector(columns.length);
    // arrayValue reads its items by index: the Float32Array serves as it is.
    this.rows.forEach((r, i) => vectors.setItem(i, r.vector ? arrayValue(r.vector as unknown as number[]) : null));
    vectors.flush();
    this.app!.appendDataChunk(chunk);
    this.rows = [];
  }

  private async create(firstLength: number): Promise<void> {
    this.dim = this.declaredDim() ?? firstLength;
    this.types = [VARCHAR, INTEGER, INTEGER, VARCHAR, VARCHAR, ARRAY(FLOAT, this.dim)];
    await this.db.run(
      `CREATE OR REPLACE TABLE page_embeddings (page_id VARCHAR, passage INTEGER, year INTEGER, kind VARCHAR, content_hash VARCHAR, vector FLOAT[${this.dim}])`,
    );
    this.app = await this.db.createAppender('page_embeddings');
  }
}
