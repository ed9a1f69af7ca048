// Server settings, all from the environment, with defaults that serve the default lake on loopback.
import { resolve } from 'node:path';

export interface Config {
  host: string;
  port: number;
  lakeDir: string;
  /** Absolute base for record links (`transcriptUrl`, `markdownUrl`); defaults to the listening address. */
  publicBaseUrl: string | null;
  /** DuckDB connections per release. */
  poolSize: number;
  /** Requests admitted beyond the pool size (they wait for a connection); more than that get 503 at once. */
  queueLimit: number;
  /** Per-query time limit; a query past it is interrupted and answered 503. */
  queryTimeoutMs: number;
  /** Validate every JSON response against its schema (tests turn this on; a violation becomes a 500). */
  contractChecks: boolean;
  /** Poll interval for `lake/current` changes (0 disables; SIGHUP always triggers a check). */
  watchMs: number;
  log: (line: string) => void;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: env.HOST || '127.0.0.1',
    port: Number(env.PORT || 8080),
    lakeDir: resolve(env.LAKE || 'lake'),
    publicBaseUrl: env.PUBLIC_BASE_URL || null,
    poolSize: Number(env.POOL_SIZE || 3),
    queueLimit: Number(env.QUEUE_LIMIT || 64),
    queryTimeoutMs: Number(env.QUERY_TIMEOUT_MS || 5000),
    contractChecks: env.CONTRACT_CHECKS === '1',
    watchMs: Number(env.WATCH_MS ?? 2000),
    log: (line) => process.stdout.write(line + '\n'),
  };
}

/** An OpenAI-compatible embeddings endpoint (README, Hybrid retrieval); null when EMBEDDING_URL is unset. */
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
