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
  /** Requests allowed to wait for a connection before new ones get 503. */
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
