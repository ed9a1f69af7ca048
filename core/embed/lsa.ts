// The built-in embedder: latent semantic analysis. TF-IDF over the release's analysed terms (core/text/analysis.ts,
// the same terms BM25 indexes) reduced to `dim` dimensions by a truncated SVD; the model is trained by the pipeline
// (pipelines/embed/lsa-train.ts) and stored in the release.
//
// A text's vector is the same function at build time and at query time (fold-in): w_t = (1 + ln tf_t) · idf_t over
// its known terms, v = Σ w_t · V_t (V_t: the term's row of the right singular vectors), normalised to unit length.
// Pure-digit terms (file numbers, years, page numbers) are left to BM25.
import { terms as analyse } from '../text/analysis.ts';
import { normalise, type Embedder } from './provider.ts';

export interface LsaOptions {
  dim?: number;
  seed?: number;
  /** A term must occur in at least this many training passages (default 1: on a small corpus even a rare word places a passage). */
  minDf?: number;
  /** Vocabulary cap, the most frequent terms first (default 30000). */
  maxTerms?: number;
  oversample?: number;
  powerIterations?: number;
  /** Each dimension scaled by σ^sigmaPower (0: plain right singular vectors). */
  sigmaPower?: number;
}

export interface LsaModel {
  name: string;
  dim: number;
  terms: string[];
  idf: Float64Array;
  /** terms.length × dim, row-major: row t is term t's projection. */
  projection: Float32Array;
  singularValues: number[];
  params: Required<LsaOptions> & { version: string; trainingPassages: number };
}

/** Terms the model weighs: the analysed terms minus pure digits. */
export function lsaTerms(text: string): string[] {
  return analyse(text).filter((t) => !/^\d+$/.test(t));
}

/** A term's weight and projection row. */
export interface TermRow { idf: number; row: Float32Array | number[] }

/** The embedder over a model; `lookup` fetches the rows of the given terms (a Map in the pipeline, SQL on the server). */
export class LsaEmbedder implements Embedder {
  readonly provider = 'lsa' as const;

  constructor(readonly model: string, readonly dim: number, private readonly lookup: (terms: string[]) => Promise<Map<string, TermRow>>) {}

  static fromModel(m: LsaModel): LsaEmbedder {
    const index = new Map(m.terms.map((t, i) => [t, i]));
    return new LsaEmbedder(m.name, m.dim, async (ts) => {
      const out = new Map<string, TermRow>();
      for (const t of ts) {
        const i = index.get(t);
        if (i !== undefined) out.set(t, { idf: m.idf[i], row: m.projection.subarray(i * m.dim, (i + 1) * m.dim) });
      }
      return out;
    });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const counts = texts.map((text) => {
      const tf = new Map<string, number>();
      for (const t of lsaTerms(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
      return tf;
    });
    const rows = await this.lookup([...new Set(counts.flatMap((c) => [...c.keys()]))].sort());
    return counts.map((tf) => {
      const v = new Float64Array(this.dim);
      for (const [t, f] of [...tf].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
        const r = rows.get(t);
        if (!r) continue;
        const w = (1 + Math.log(f)) * r.idf;
        for (let d = 0; d < this.dim; d++) v[d] += w * r.row[d];
      }
      return normalise(v);
    });
  }
}
