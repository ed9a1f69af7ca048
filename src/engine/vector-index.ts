// A release's passage vectors in memory, for the vector side of hybrid search: one Float32Array in (page_id,
// passage) order, each page's passages contiguous, read from `page_embeddings` once per release. A query scores pages
// under the filters by their best passage (the inner product: vectors are unit length), with no DuckDB statement.
// Over many passages it first ranks them on their projection onto the vectors' COARSE leading principal directions
// and scores exactly only the pages of the best CANDIDATES passages (and the lexical candidates): at SCALE=1 that
// finds 0.99 of the exact top 100 pages (docs/hybrid.md). Both scans run in WebAssembly SIMD (./vector-scan.wat).
import { readFileSync } from 'node:fs';

import type { DuckDBListVector } from '@duckdb/node-api';
import wabt from 'wabt';

import { meetingIdPrefix } from '../../core/lake/ids.ts';
import type { EngineRelease } from './release.ts';

/** Dimensions of the first pass (the scan in ./vector-scan.wat reads 32 floats a row). */
const COARSE = 32;
/** Passages the first pass keeps; with fewer than four times as many under the filters, every one is scored exactly. */
const CANDIDATES = 6000;

interface VectorIndex {
  dim: number;
  /** Page ids in byte order (the SQL's `ORDER BY id` on ties), and each id's index. */
  ids: string[];
  position: Map<string, number>;
  year: Uint16Array;
  kind: string[];
  /** Page k's passages are rows start[k] to start[k + 1] of `scan.vectors`. */
  start: Uint32Array;
  /** COARSE unit directions (row-major, COARSE × dim; zero beyond `dim`). */
  basis: Float32Array;
  scan: VectorScan;
}

/**
 * The passages in one WebAssembly memory with the scans of ./vector-scan.wat over them: `vectors` (rows × dim
 * floats), `coarse` (each row's coordinates on the basis, rows × COARSE), the query as `query` (dim doubles) and
 * `coarseQuery` (COARSE floats), and `scores` (a float per row). `score(from, to)` sets scores[r] to coarse row r ·
 * coarseQuery for the rows [from, to); `best(from, to)` is the largest vectors row r · query over them.
 */
interface VectorScan {
  vectors: Float32Array;
  coarse: Float32Array;
  query: Float64Array;
  coarseQuery: Float32Array;
  scores: Float32Array;
  score: (from: number, to: number) => void;
  best: (from: number, to: number) => number;
}

/** The scans' module, compiled once per process from its text. */
let scanModule: Promise<WebAssembly.Module> | undefined;

/** A memory for `rows` passages of `dim` floats (at most 4 GB: WebAssembly's 32-bit addresses). */
async function vectorScan(rows: number, dim: number): Promise<VectorScan> {
  scanModule ??= wabt().then((w) => {
    const text = w.parseWat('vector-scan.wat', readFileSync(new URL('./vector-scan.wat', import.meta.url), 'utf8'));
    return WebAssembly.compile(new Uint8Array(text.toBinary({}).buffer));
  });
  const aligned = (bytes: number) => Math.ceil(bytes / 16) * 16;
  const coarse = aligned(rows * dim * 4);
  const query = aligned(coarse + rows * COARSE * 4);
  const coarseQuery = aligned(query + dim * 8);
  const scores = coarseQuery + COARSE * 4;
  const bytes = scores + rows * 4;
  if (bytes > 2 ** 32)
    throw new Error(`${rows} passages of ${dim} dimensions need ${bytes} bytes, over WebAssembly's 4 GB`);
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65_536) });
  const { exports } = await WebAssembly.instantiate(await scanModule, { env: { memory } });
  const scoreRows = exports.scores as (coarse: number, query: number, rows: number, out: number) => void;
  const bestRow = exports.best as (vectors: number, rows: number, dim: number, query: number) => number;
  return {
    vectors: new Float32Array(memory.buffer, 0, rows * dim),
    coarse: new Float32Array(memory.buffer, coarse, rows * COARSE),
    query: new Float64Array(memory.buffer, query, dim),
    coarseQuery: new Float32Array(memory.buffer, coarseQuery, COARSE),
    scores: new Float32Array(memory.buffer, scores, rows),
    score: (from, to) => scoreRows(coarse + from * COARSE * 4, coarseQuery, to - from, scores + from * 4),
    best: (from, to) => bestRow(from * dim * 4, to - from, dim, query),
  };
}

export function vectorIndex(release: EngineRelease, dim: number): Promise<VectorIndex> {
  return release.memo('vector-index', async () => {
    const [{ n, pages }] = await release.pool.rows(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT page_id)::INTEGER AS pages FROM page_embeddings`,
    );
    const scan = await vectorScan(Number(n), dim);
    const index: VectorIndex = {
      dim,
      ids: [],
      position: new Map(),
      year: new Uint16Array(Number(pages)),
      kind: [],
      start: new Uint32Array(Number(pages) + 1),
      basis: new Float32Array(COARSE * dim),
      scan,
    };
    let row = 0;
    // Each chunk's floats are read from the list column's one child vector (no JSON value per float). Read in the
    // file's order, which the build wrote sorted by page and passage: sorting again held every vector in DuckDB's
    // memory at once (0.9 GB at SCALE=10), past its limit while the warm-up read other tables beside it.
    const chunks = release.pool.chunks(
      `SELECT page_id AS id, year::INTEGER AS y, kind AS k, vector::FLOAT[] AS v FROM page_embeddings`,
    );
    for await (const chunk of chunks) {
      const [ids, years, kinds] = [0, 1, 2].map((c) => chunk.getColumnVector(c));
      const lists = chunk.getColumnVector(3) as DuckDBListVector;
      const floats = lists.childVector;
      for (let r = 0; r < chunk.rowCount; r++, row++) {
        const id = String(ids.getItem(r));
        const last = index.ids.at(-1);
        if (last !== id) {
          if (last !== undefined && id < last)
            throw new Error(`page_embeddings is not in page order (${id} after ${last})`);
          index.start[index.ids.length] = row;
          index.year[index.ids.length] = Number(years.getItem(r));
          index.kind.push(String(kinds.getItem(r)));
          index.ids.push(id);
        }
        for (let d = 0, at = lists.getEntryOffset(r), to = row * dim; d < dim; d++)
          scan.vectors[to + d] = floats.getItem(at + d) as number;
      }
    }
    index.start[index.ids.length] = row;
    index.position = new Map(index.ids.map((id, k) => [id, k]));
    index.basis.set(principalDirections(scan.vectors, dim, Math.min(COARSE, dim)));
    await project(scan.vectors, dim, index.basis, scan.coarse);
    return index;
  });
}

/**
 * The leading eigenvectors of the vectors' second-moment matrix (uncentred: they keep inner products best), from a
 * sample of the vectors, by power iteration with deflation.
 */
function principalDirections(vectors: Float32Array, dim: number, count: number): Float32Array {
  const moment = new Float64Array(dim * dim);
  const every = Math.max(8, Math.floor(vectors.length / dim / 20_000)); // about 20,000 vectors at most: a fraction of a second
  for (let o = 0; o < vectors.length; o += every * dim) {
    for (let a = 0; a < dim; a++) for (let b = a; b < dim; b++) moment[a * dim + b] += vectors[o + a] * vectors[o + b];
  }
  for (let a = 0; a < dim; a++) for (let b = 0; b < a; b++) moment[a * dim + b] = moment[b * dim + a];
  const basis = new Float32Array(count * dim);
  for (let e = 0; e < count; e++) {
    let v = Float64Array.from({ length: dim }, (_, i) => Math.cos(i * 0.7 + e)); // a fixed start: the same basis every time
    for (let step = 0; step < 100; step++) {
      const w = new Float64Array(dim);
      for (let a = 0; a < dim; a++) for (let b = 0; b < dim; b++) w[a] += moment[a * dim + b] * v[b];
      for (let f = 0; f < e; f++) {
        let along = 0;
        for (let a = 0; a < dim; a++) along += w[a] * basis[f * dim + a];
        for (let a = 0; a < dim; a++) w[a] -= along * basis[f * dim + a];
      }
      const norm = Math.hypot(...w) || 1;
      v = w.map((x) => x / norm);
    }
    basis.set(v, e * dim);
  }
  return basis;
}

/** Each row of `vectors` on the basis's directions into `out`, a slice at a time: requests are answered meanwhile. */
async function project(vectors: Float32Array, dim: number, basis: Float32Array, out: Float32Array): Promise<void> {
  const count = basis.length / dim;
  const rows = vectors.length / dim;
  for (let r = 0; r < rows; r++) {
    for (let e = 0; e < count; e++)
      out[r * count + e] = dot(basis, e * dim, vectors.subarray(r * dim, (r + 1) * dim), dim);
    if (r % 4096 === 4095) await new Promise((done) => setImmediate(done));
  }
}

export interface VectorHit {
  id: string;
  sim: number;
  rank: number;
}

/**
 * The inner product of `q` with the `dim` floats of `v` from `o`, in four sums: ./vector-scan.wat's `best` adds the
 * same products in the same order (test/vector-index.test.ts holds them to the bit).
 */
export function dot(v: Float32Array, o: number, q: Float32Array, dim: number): number {
  let a = 0,
    b = 0,
    c = 0,
    d = 0,
    j = 0;
  for (; j + 3 < dim; j += 4) {
    a += v[o + j] * q[j];
    b += v[o + j + 1] * q[j + 1];
    c += v[o + j + 2] * q[j + 2];
    d += v[o + j + 3] * q[j + 3];
  }
  for (; j < dim; j++) a += v[o + j] * q[j];
  return a + b + c + d;
}

/**
 * Pages under the filters by their best passage's similarity to `query` (descending, then id): the first `depth`, and
 * any of `also` beyond them with their rank among the pages scored.
 */
export function nearestPages(
  index: VectorIndex,
  query: ArrayLike<number>,
  f: { from: number; to: number; kind?: string; date?: string; depth: number; also: string[]; candidates?: number },
): VectorHit[] {
  const { start, ids, scan } = index;
  const q = Float32Array.from(query);
  scan.query.set(q);
  const meeting = f.date === undefined ? undefined : meetingIdPrefix(f.date);
  const pass = (k: number) =>
    index.year[k] >= f.from &&
    index.year[k] <= f.to &&
    (f.kind === undefined || index.kind[k] === f.kind) &&
    (meeting === undefined || ids[k].startsWith(meeting));
  const pages: number[] = [];
  let rows = 0;
  for (let k = 0; k < ids.length; k++) {
    if (!pass(k)) continue;
    pages.push(k);
    rows += start[k + 1] - start[k];
  }
  const candidates = f.candidates ?? CANDIDATES;
  const scored = rows < 4 * candidates ? pages : candidatePages(index, q, pages, candidates);
  const also = f.also.map((id) => index.position.get(id)).filter((k): k is number => k !== undefined && pass(k));
  // Each scored page's similarity by page number (NaN: not scored), and the pages scored, in typed arrays.
  const sims = new Float32Array(ids.length).fill(NaN);
  const order = new Int32Array(scored.length + also.length);
  let n = 0;
  for (const k of [...scored, ...also]) {
    if (!Number.isNaN(sims[k])) continue;
    sims[k] = scan.best(start[k], start[k + 1]);
    order[n++] = k;
  }
  const ranked = order.subarray(0, n).sort((a, b) => sims[b] - sims[a] || a - b);
  const wanted = new Set(also);
  const hits: VectorHit[] = [];
  ranked.forEach((k, i) => {
    if (i < f.depth || wanted.has(k)) hits.push({ id: ids[k], sim: sims[k], rank: i + 1 });
  });
  return hits;
}

/** The pages of the `candidates` passages (of `pages`) whose coarse coordinates score best. */
function candidatePages(index: VectorIndex, q: Float32Array, pages: number[], candidates: number): number[] {
  const { dim, start, basis, scan } = index;
  for (let e = 0; e < COARSE; e++) scan.coarseQuery[e] = dot(basis, e * dim, q, dim);
  // The pages' rows in runs of consecutive rows (a year's pages are consecutive), each scanned in one call.
  const runs: number[] = [];
  for (const k of pages) {
    if (runs.length && runs[runs.length - 1] === start[k]) runs[runs.length - 1] = start[k + 1];
    else runs.push(start[k], start[k + 1]);
  }
  const { scores } = scan;
  let min = Infinity;
  let max = -Infinity;
  for (let r = 0; r < runs.length; r += 2) {
    scan.score(runs[r], runs[r + 1]);
    for (let row = runs[r]; row < runs[r + 1]; row++) {
      if (scores[row] < min) min = scores[row];
      if (scores[row] > max) max = scores[row];
    }
  }
  // The score at which CANDIDATES passages are reached, to a 1/4096 of the range: a histogram, not a sort.
  const bins = new Uint32Array(4096);
  const width = (max - min) / bins.length || 1;
  for (let r = 0; r < runs.length; r += 2) {
    for (let row = runs[r]; row < runs[r + 1]; row++)
      bins[Math.min(bins.length - 1, Math.floor((scores[row] - min) / width))]++;
  }
  let bin = bins.length - 1;
  for (let seen = bins[bin]; seen < candidates && bin > 0;) seen += bins[--bin];
  const floor = min + bin * width;
  const out: number[] = [];
  for (const k of pages) {
    for (let row = start[k]; row < start[k + 1]; row++) {
      if (scores[row] < floor) continue;
      out.push(k);
      break;
    }
  }
  return out;
}
