// Settings both sides read from the environment: the embeddings endpoint (the pipeline embeds pages with it, the
// server embeds queries with it).

/** An OpenAI-compatible embeddings endpoint (docs/hybrid.md); null when EMBEDDING_URL is unset. */
export interface EmbeddingSettings {
  url: string;
  model: string;
  key: string | null;
  batchSize: number;
  timeoutMs: number;
  retries: number;
}

export function embeddingFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingSettings | null {
  if (!env.EMBEDDING_URL) return null;
  return {
    url: env.EMBEDDING_URL,
    model: env.EMBEDDING_MODEL || 'nomic-embed-text',
    key: env.EMBEDDING_KEY || null,
    batchSize: Number(env.EMBEDDING_BATCH || 64),
    timeoutMs: Number(env.EMBEDDING_TIMEOUT_MS || 10000),
    retries: Number(env.EMBEDDING_RETRIES ?? 2),
  };
}
