// Embedders over a table of term vectors stored in the release (`embedding_terms`: term, idf, vector): the built-in
// LSA model (`lsa.ts`, stemmed terms, trained by the pipeline on the corpus) and pretrained GloVe word vectors
// (`glove.ts`, words as printed). A text's vector is the same function at build time and at query time:
// v = Σ (1 + ln tf_t) · idf_t · V_t over the text's known terms, normalised to unit length (a zero vector when it
// has none). Pure-digit terms (file numbers, years, page numbers) are left to BM25.
import { type Embedder, normalise } from './provider.ts';

/** A term's weight and vector (its row of the model). */
export interface TermRow {
  idf: number;
  row: Float32Array;
}

/** The rows of the given terms: from a model held in memory (`lookupOf`) in the pipeline and on the server. */
export type TermLookup = (terms: string[]) => Promise<Map<string, TermRow>>;

/** A model held in memory: sorted terms, their idf, and `terms.length × dim` row-major vectors. */
export interface TermModel {
  name: string;
  dim: number;
  terms: string[];
  idf: Float64Array;
  projection: Float32Array;
}

export type TermProvider = 'lsa' | 'glove';

/** What a provider weighs in a text (the analysis is `core/text/analysis.ts`'s either way). */
export type TermsOf = (text: string) => string[];

export class TermVectorEmbedder implements Embedder {
  constructor(
    readonly provider: TermProvider,
    readonly model: string,
    readonly dim: number,
    private readonly termsOf: TermsOf,
    private readonly lookup: TermLookup,
  ) {}

  /** The lookup over a model in memory. */
  static lookupOf(m: TermModel): TermLookup {
    const index = new Map(m.terms.map((t, i) => [t, i]));
    const rows: TermRow[] = []; // made once per term, as asked for: a batch of texts asks for thousands
    return async (ts) => {
      const out = new Map<string, TermRow>();
      for (const t of ts) {
        const i = index.get(t);
        if (i !== undefined)
          out.set(t, (rows[i] ??= { idf: m.idf[i], row: m.projection.subarray(i * m.dim, (i + 1) * m.dim) }));
      }
      return out;
    };
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const counts = texts.map((text) => {
      const tf = new Map<string, number>();
      for (const t of this.termsOf(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
      return tf;
    });
    const distinct = new Set<string>();
    for (const tf of counts) for (const t of tf.keys()) distinct.add(t);
    const found = await this.lookup([...distinct]);
    const dim = this.dim;
    return counts.map((tf) => {
      const v = new Float64Array(dim);
      // A text's terms in sorted order, whichever texts it is embedded with: the order every release's vectors were
      // summed in, so a vector recomputed now equals the stored one to the bit.
      for (const t of [...tf.keys()].sort()) {
        const r = found.get(t);
        if (!r) continue;
        const w = (1 + Math.log(tf.get(t)!)) * r.idf;
        const row = r.row;
        for (let d = 0; d < dim; d++) v[d] += w * row[d];
      }
      return normalise(v);
    });
  }
}
