// The built-in embedder: latent semantic analysis. TF-IDF over the release's analysed terms (core/text/analysis.ts,
// the same stemmed terms BM25 indexes) reduced to `dim` dimensions by a truncated SVD; the model is trained by the
// pipeline (pipelines/embed/lsa-train.ts) and stored in the release. A text is embedded by term-vectors.ts.
import { terms as analyse } from '../text/analysis.ts';
import { type TermLookup, type TermModel, TermVectorEmbedder } from './term-vectors.ts';

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

export interface LsaModel extends TermModel {
  singularValues: number[];
  params: Required<LsaOptions> & { version: string; trainingPassages: number };
}

/** Terms the model weighs: the analysed (stemmed) terms minus pure digits. */
export function lsaTerms(text: string): string[] {
  return analyse(text).filter((t) => !/^\d+$/.test(t));
}

export class LsaEmbedder extends TermVectorEmbedder {
  constructor(model: string, dim: number, lookup: TermLookup) {
    super('lsa', model, dim, lsaTerms, lookup);
  }

  static fromModel(m: TermModel): LsaEmbedder {
    return new LsaEmbedder(m.name, m.dim, TermVectorEmbedder.lookupOf(m));
  }
}
