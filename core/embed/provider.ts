// Embedding providers: something that turns texts into unit-length vectors of one fixed model and dimension.
// Three: `glove.ts` (pretrained word vectors, the default) and `lsa.ts` (trained on the corpus), both term-vector
// models stored in the release (`term-vectors.ts`), and `openai.ts` (any OpenAI-compatible `/v1/embeddings`
// endpoint). Pipeline and server embed through the same interface.

export interface Embedder {
  /** The name reported as `retrieval.embeddingModel` and stored in the manifest (`glove-100@<hash>`, `lsa-256@<hash>`, or the endpoint's model). */
  readonly model: string;
  /** `glove` or `lsa` (models stored in the release) or `openai-compatible`. */
  readonly provider: 'lsa' | 'glove' | 'openai-compatible';
  /** Vector length; null until an endpoint has answered once. */
  readonly dim: number | null;
  /** One unit-length vector per text, in order. A text with nothing to embed gives a zero vector. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export type EmbeddingFailure = 'timeout' | 'http' | 'network' | 'invalid-response';

/** An embedding request that failed after its retries; `kind` says how, for `retrieval.fallbackReason`. */
export class EmbeddingError extends Error {
  constructor(
    readonly kind: EmbeddingFailure,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalise(v: Float32Array | Float64Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const out = v instanceof Float32Array ? v : Float32Array.from(v);
  if (n > 0) {
    const s = 1 / Math.sqrt(n);
    for (let i = 0; i < out.length; i++) out[i] = out[i] * s;
  }
  return out;
}

export function isZero(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
}
