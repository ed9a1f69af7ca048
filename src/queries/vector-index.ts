// A release's passage vectors in memory, for the vector side of hybrid search: one Float32Array in (page_id,
// passage) order, each page's passages contiguous, read from `page_embeddings` once per release. A query scores each
// page under the filters by its best passage (the inner product: vectors are unit length) in JavaScript, so it costs
// no DuckDB statement and no second thread.
import type { Release } from '../lake/release.ts';

interface VectorIndex {
  dim: number;
  /** Page ids in byte order (the SQL's `ORDER BY id` on ties). */
  ids: string[];
  year: Uint16Array;
  kind: string[];
  /** Page k's passages are rows start[k] to start[k + 1] of `vectors`. */
  start: Uint32Array;
  vectors: Float32Array;
}

export function vectorIndex(release: Release, dim: number): Promise<VectorIndex> {
  return release.memo('vector-index', async () => {
    const [{ n, pages }] = await release.pool.rows(`SELECT count(*)::INTEGER AS n, count(DISTINCT page_id)::INTEGER AS pages FROM page_embeddings`);
    const index: VectorIndex = {
      dim, ids: [], year: new Uint16Array(Number(pages)), kind: [], start: new Uint32Array(Number(pages) + 1), vectors: new Float32Array(Number(n) * dim),
    };
    let row = 0;
    const rows = release.pool.stream(`SELECT page_id AS id, year::INTEGER AS y, kind AS k, vector AS v FROM page_embeddings ORDER BY page_id, passage`, [], 600_000);
    for await (const chunk of rows) {
      for (const r of chunk) {
        const id = String(r.id);
        if (index.ids.at(-1) !== id) {
          index.start[index.ids.length] = row;
          index.year[index.ids.length] = Number(r.y);
          index.kind.push(String(r.k));
          index.ids.push(id);
        }
        index.vectors.set(r.v as number[], row * dim);
        row++;
      }
    }
    index.start[index.ids.length] = row;
    return index;
  });
}

export interface VectorHit { id: string; sim: number; rank: number }

/** The inner product of `q` with the `dim` floats of `v` from `o` (four at a time: the scan is this loop). */
function dot(v: Float32Array, o: number, q: Float32Array, dim: number): number {
  let a = 0, b = 0, c = 0, d = 0, j = 0;
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
 * any of `also` beyond them with their rank.
 */
export function nearestPages(index: VectorIndex, query: ArrayLike<number>, f: { from: number; to: number; kind?: string; depth: number; also: string[] }): VectorHit[] {
  const { dim, vectors, start, ids } = index;
  const q = Float32Array.from(query);
  const sims = new Float64Array(ids.length).fill(NaN);
  const kept: number[] = [];
  for (let k = 0; k < ids.length; k++) {
    if (index.year[k] < f.from || index.year[k] > f.to || (f.kind !== undefined && index.kind[k] !== f.kind)) continue;
    let best = -Infinity;
    for (let row = start[k]; row < start[k + 1]; row++) best = Math.max(best, dot(vectors, row * dim, q, dim));
    sims[k] = Math.fround(best);
    kept.push(k);
  }
  if (kept.length === 0) return [];
  // Ranks: the pages at or above the depth-th similarity are sorted; a page below it counts those above it.
  const descending = Float64Array.from(kept, (k) => sims[k]).sort().reverse();
  const floor = descending[Math.min(f.depth, kept.length) - 1];
  const top = kept.filter((k) => sims[k] >= floor).sort((a, b) => sims[b] - sims[a] || a - b);
  const hits: VectorHit[] = top.map((k, i) => ({ id: ids[k], sim: sims[k], rank: i + 1 })).filter((h) => h.rank <= f.depth);
  const listed = new Set(hits.map((h) => h.id));
  const position = new Map(ids.map((id, k) => [id, k]));
  for (const id of new Set(f.also)) {
    const k = position.get(id);
    if (k === undefined || listed.has(id) || Number.isNaN(sims[k])) continue;
    const above = kept.reduce((n, j) => n + (sims[j] > sims[k] || (sims[j] === sims[k] && j < k) ? 1 : 0), 0);
    hits.push({ id, sim: sims[k], rank: above + 1 });
  }
  return hits;
}
