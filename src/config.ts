// Server settings, all from the environment, with defaults that serve the default lake on loopback.
import { resolve } from 'node:path';

import { embeddingFromEnv, type EmbeddingSettings } from '../core/config.ts';

export interface Config {
  host: string;
  port: number;
  lakeDir: string;
  /** Absolute base for record links (`transcriptUrl`, `markdownUrl`); defaults to the listening address. */
  publicBaseUrl: string | null;
  /** DuckDB connections per release. */
  poolSize: number;
  /** DuckDB's worker threads per release: replicas sharing a machine divide its cores between them. */
  duckdbThreads?: number;
  /** Requests admitted beyond the pool size (they wait for a connection); more than that get 503 at once. */
  queueLimit: number;
  /** Per-query time limit; a query past it is interrupted and answered 503. */
  queryTimeoutMs: number;
  /** Validate every JSON response against its schema (tests turn this on; a violation becomes a 500). */
  contractChecks: boolean;
  /** Poll interval for `lake/current` changes (0 disables; SIGHUP always triggers a check). */
  watchMs: number;
  log: (line: string) => void;
  /** The endpoint that embeds queries for hybrid search (EMBEDDING_URL …; docs/hybrid.md); null: none. */
  embedding: EmbeddingSettings | null;
  /** Bounds on what one client can hold (README, Robustness); each defaults to DEFAULT_LIMITS. */
  limits?: Partial<Limits>;
  /** Bytes of rendered answers kept in memory per release (src/http/answers.ts); 0 or absent: no answer cache. */
  answerCacheBytes?: number;
}

export interface Limits {
  /** A request's header must arrive within this (408, connection closed). */
  headersTimeoutMs: number;
  /** A `POST /api/mcp` body must arrive within this, read before admission (408, connection closed). */
  bodyTimeoutMs: number;
  /** An admitted answer must be sent within this once built, and no connection may sit without a byte moving for
   * longer: past it the connection is closed. */
  sendTimeoutMs: number;
  /** One MCP request's deadline: tool calls not started by then answer isError at once. */
  mcpDeadlineMs: number;
  /** JSON-RPC messages in one `POST /api/mcp` batch (400 beyond). */
  mcpBatchLimit: number;
  /** On SIGTERM: how long requests in flight may finish before every connection is closed. */
  drainMs: number;
  /** Release-file downloads at once, apart from admission (503 with Retry-After beyond). */
  downloadMax: number;
  /** A download whose reader takes no byte for this long is cut off. */
  downloadIdleMs: number;
  /** A download not done after this long is cut off. */
  downloadSendMs: number;
  /** While another download waits for a slot, the one furthest below this rate (bytes per second) is cut off. */
  downloadMinBytesPerS: number;
  /** The least span, after its socket buffers first filled, a download's rate is judged over (src/http/downloads.ts). */
  downloadGraceMs: number;
  /** Bytes of MCP request bodies held in memory at once, across requests (declared or read); beyond it 503. */
  mcpBodyBytesTotal: number;
}

export const DEFAULT_LIMITS: Limits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  sendTimeoutMs: 30_000,
  mcpDeadlineMs: 10_000,
  mcpBatchLimit: 8,
  drainMs: 10_000,
  downloadMax: 16,
  downloadIdleMs: 30_000,
  downloadSendMs: 15 * 60_000,
  downloadMinBytesPerS: 16 * 1024,
  downloadGraceMs: 300,
  mcpBodyBytesTotal: 32 * 1024 * 1024,
};

export const limitsOf = (config: Config): Limits => ({ ...DEFAULT_LIMITS, ...config.limits });

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: env.HOST || '127.0.0.1',
    port: Number(env.PORT || 8080),
    lakeDir: resolve(env.LAKE || 'lake'),
    publicBaseUrl: env.PUBLIC_BASE_URL || null,
    poolSize: Number(env.POOL_SIZE || 3),
    duckdbThreads: Number(env.DUCKDB_THREADS || 2),
    queueLimit: Number(env.QUEUE_LIMIT || 64),
    queryTimeoutMs: Number(env.QUERY_TIMEOUT_MS || 5000),
    contractChecks: env.CONTRACT_CHECKS === '1',
    watchMs: Number(env.WATCH_MS ?? 2000),
    log: (line) => process.stdout.write(line + '\n'),
    embedding: embeddingFromEnv(env),
    answerCacheBytes: Number(env.ANSWER_CACHE_MB ?? 64) * 1024 * 1024,
    limits: {
      headersTimeoutMs: Number(env.HEADERS_TIMEOUT_MS || DEFAULT_LIMITS.headersTimeoutMs),
      bodyTimeoutMs: Number(env.BODY_TIMEOUT_MS || DEFAULT_LIMITS.bodyTimeoutMs),
      sendTimeoutMs: Number(env.SEND_TIMEOUT_MS || DEFAULT_LIMITS.sendTimeoutMs),
      mcpDeadlineMs: Number(env.MCP_DEADLINE_MS || DEFAULT_LIMITS.mcpDeadlineMs),
      mcpBatchLimit: Number(env.MCP_BATCH_LIMIT || DEFAULT_LIMITS.mcpBatchLimit),
      drainMs: Number(env.DRAIN_MS || DEFAULT_LIMITS.drainMs),
      downloadMax: Number(env.DOWNLOAD_MAX || DEFAULT_LIMITS.downloadMax),
      downloadIdleMs: Number(env.DOWNLOAD_IDLE_MS || DEFAULT_LIMITS.downloadIdleMs),
      downloadSendMs: Number(env.DOWNLOAD_SEND_MS || DEFAULT_LIMITS.downloadSendMs),
      downloadMinBytesPerS: Number(env.DOWNLOAD_MIN_BYTES_PER_S || DEFAULT_LIMITS.downloadMinBytesPerS),
      downloadGraceMs: Number(env.DOWNLOAD_GRACE_MS || DEFAULT_LIMITS.downloadGraceMs),
      mcpBodyBytesTotal: Number(env.MCP_BODY_BYTES_TOTAL || DEFAULT_LIMITS.mcpBodyBytesTotal),
    },
  };
}
