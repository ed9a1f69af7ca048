// Training of the built-in LSA model (core/embed/lsa.ts): TF-IDF over the analysed terms reduced to `dim` dimensions
// by a truncated SVD, computed with the randomized range finder of Halko, Martinsson & Tropp (2011): a seeded Gaussian
// test matrix, `oversample` extra columns and `powerIterations` power iterations, then the exact SVD of the small
// projected matrix (Jacobi eigensolver on B·Bᵀ). Deterministic: a seeded generator and a fixed order of floating-point
// operations give the same model for the same passages; the model's name carries a hash of its terms, weights and
// projection, so it is versioned with the release that stores it.
import { createHash } from 'node:crypto';

import type { LsaModel, LsaOptions } from '../../core/embed/lsa.ts';

export const LSA_VERSION = 'lsa-v1';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(rand: () => number): () => number {
  return () => {
    const u = 1 - rand();
    const v = rand();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** Sparse rows (CSR) of L2-normalised TF-IDF weights. */
interface Csr {
  rows: number;
  cols: number;
  ptr: Int32Array;
  idx: Int32Array;
  val: Float64Array;
}

/** Y = A · X, X given as `l` columns of length `cols`; Y as `l` columns of length `rows`. */
function mul(a: Csr, x: Float64Array[]): Float64Array[] {
  return x.map((col) => {
    const y = new Float64Array(a.rows);
    for (let i = 0; i < a.rows; i++) {
      let s = 0;
      for (let p = a.ptr[i]; p < a.ptr[i + 1]; p++) s += a.val[p] * col[a.idx[p]];
      y[i] = s;
    }
    return y;
  });
}

/** Z = Aᵀ · Y, Y given as columns of length `rows`; Z as columns of length `cols`. */
function mulT(a: Csr, y: Float64Array[]): Float64Array[] {
  return y.map((col) => {
    const z = new Float64Array(a.cols);
    for (let i = 0; i < a.rows; i++) {
      const yi = col[i];
      if (yi === 0) continue;
      for (let p = a.ptr[i]; p < a.ptr[i + 1]; p++) z[a.idx[p]] += a.val[p] * yi;
    }
    return z;
  });
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** Orthonormal columns spanning the same space (modified Gram-Schmidt; twice for the final basis); dependent columns become zero. */
function orth(cols: Float64Array[], passes = 2): Float64Array[] {
  for (let pass = 0; pass < passes; pass++) {
    for (let j = 0; j < cols.length; j++) {
      const c = cols[j];
      for (let i = 0; i < j; i++) {
        const d = dot(cols[i], c);
        if (d !== 0) for (let k = 0; k < c.length; k++) c[k] -= d * cols[i][k];
      }
      const n = Math.sqrt(dot(c, c));
      if (n > 1e-10) for (let k = 0; k < c.length; k++) c[k] /= n;
      else c.fill(0);
    }
  }
  return cols;
}

/** Eigen-decomposition of a symmetric matrix (cyclic Jacobi): eigenvalues and eigenvectors as columns, descending. */
function symmetricEigen(m: Float64Array[], n: number): { values: number[]; vectors: Float64Array[] } {
  const a = m.map((r) => Float64Array.from(r));
  const v = Array.from({ length: n }, (_, i) => {
    const r = new Float64Array(n);
    r[i] = 1;
    return r;
  });
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p][q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p],
            akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k],
            aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p],
            vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y][y] - a[x][x] || x - y);
  return {
    values: order.map((i) => a[i][i]),
    vectors: order.map((i) => Float64Array.from({ length: n }, (_, k) => v[k][i])),
  };
}

/**
 * Trains the model on passages given as analysed term lists (`lsaTerms`). Vocabulary: terms in at least `minDf`
 * passages, the `maxTerms` most frequent (ties by term). idf = ln((1 + N) / (1 + df)) + 1.
 */
export function trainLsa(passages: string[][], options: LsaOptions = {}): LsaModel {
  const params = {
    dim: 256,
    seed: 1,
    minDf: 1,
    maxTerms: 30000,
    oversample: 16,
    powerIterations: 2,
    sigmaPower: 0,
    ...options,
  };
  const n = passages.length;
  const df = new Map<string, number>();
  for (const p of passages) for (const t of new Set(p)) df.set(t, (df.get(t) ?? 0) + 1);
  const vocab = [...df]
    .filter(([, d]) => d >= params.minDf)
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, params.maxTerms)
    .map(([t]) => t)
    .sort();
  const col = new Map(vocab.map((t, i) => [t, i]));
  const idf = Float64Array.from(vocab, (t) => Math.log((1 + n) / (1 + df.get(t)!)) + 1);

  const ptr = new Int32Array(n + 1);
  const idx: number[] = [];
  const val: number[] = [];
  passages.forEach((p, i) => {
    const tf = new Map<number, number>();
    for (const t of p) {
      const c = col.get(t);
      if (c !== undefined) tf.set(c, (tf.get(c) ?? 0) + 1);
    }
    const entries = [...tf].sort((x, y) => x[0] - y[0]).map(([c, f]) => [c, (1 + Math.log(f)) * idf[c]] as const);
    const norm = Math.sqrt(entries.reduce((s, [, w]) => s + w * w, 0)) || 1;
    for (const [c, w] of entries) {
      idx.push(c);
      val.push(w / norm);
    }
    ptr[i + 1] = idx.length;
  });
  const a: Csr = { rows: n, cols: vocab.length, ptr, idx: Int32Array.from(idx), val: Float64Array.from(val) };

  const k = Math.min(params.dim, n, vocab.length);
  const l = Math.min(k + params.oversample, n, vocab.length);
  const g = gaussian(mulberry32(params.seed));
  const omega = Array.from({ length: l }, () => Float64Array.from({ length: vocab.length }, g));
  let q = orth(mul(a, omega), params.powerIterations ? 1 : 2);
  for (let it = 0; it < params.powerIterations; it++)
    q = orth(mul(a, orth(mulT(a, q), 1)), it === params.powerIterations - 1 ? 2 : 1);
  const z = mulT(a, q); // Bᵀ = Aᵀ·Q, columns of length |vocab|
  const gram = z.map((zi) => Float64Array.from(z, (zj) => dot(zi, zj))); // B·Bᵀ (l × l)
  const { values, vectors } = symmetricEigen(gram, l);

  // V[:, r] = Bᵀ · w_r / σ_r, the top k right singular vectors; sign fixed so the largest entry is positive.
  const projection = new Float32Array(vocab.length * params.dim);
  const singularValues: number[] = [];
  for (let r = 0; r < k; r++) {
    const sigma = Math.sqrt(Math.max(values[r], 0));
    singularValues.push(sigma);
    if (sigma < 1e-10) continue;
    const column = new Float64Array(vocab.length);
    for (let j = 0; j < l; j++) {
      const w = vectors[r][j];
      if (w !== 0) for (let t = 0; t < vocab.length; t++) column[t] += z[j][t] * w;
    }
    let big = 0;
    for (let t = 0; t < vocab.length; t++) if (Math.abs(column[t]) > Math.abs(big)) big = column[t];
    const scale = ((big < 0 ? -1 : 1) / sigma) * sigma ** params.sigmaPower;
    for (let t = 0; t < vocab.length; t++) projection[t * params.dim + r] = column[t] * scale;
  }
  const hash = createHash('sha256')
    .update(`${LSA_VERSION}\n${JSON.stringify(params)}\n${vocab.join('\n')}\n`)
    .update(Buffer.from(idf.buffer))
    .update(Buffer.from(projection.buffer))
    .digest('hex')
    .slice(0, 12);
  return {
    name: `lsa-${params.dim}@${hash}`,
    dim: params.dim,
    terms: vocab,
    idf,
    projection,
    singularValues,
    params: { ...params, version: LSA_VERSION, trainingPassages: n },
  };
}
