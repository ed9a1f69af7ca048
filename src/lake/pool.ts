// A small pool of DuckDB connections over one release: one query per connection at a time, and a per-query time
// limit enforced with the connection's interrupt. How many requests may wait is bounded where they are admitted
// (src/http/app.ts), not here: one admitted request may run several queries at once and must never be refused midway.
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';

export class Overloaded extends Error {}
export class QueryTimeout extends Error {}

export type Row = Record<string, unknown>;

const INTERRUPT_GRACE_MS = 1000;

export class Pool {
  private idle: DuckDBConnection[] = [];
  private waiting: ((c: DuckDBConnection) => void)[] = [];
  private all: DuckDBConnection[] = [];

  private constructor(private readonly instance: DuckDBInstance, private readonly timeoutMs: number) {}

  static async open(instance: DuckDBInstance, size: number, timeoutMs: number, setup: string): Promise<Pool> {
    const pool = new Pool(instance, timeoutMs);
    for (let i = 0; i < size; i++) {
      const c = await instance.connect();
      if (setup) await c.run(setup);
      pool.all.push(c);
      pool.idle.push(c);
    }
    return pool;
  }

  private acquire(): Promise<DuckDBConnection> {
    const c = this.idle.pop();
    if (c) return Promise.resolve(c);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(c: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  /** Runs a parameterised query and returns its rows as JSON-safe objects (cast BIGINTs in SQL). */
  async rows(sql: string, params: DuckDBValue[] = []): Promise<Row[]> {
    return this.with(async (c) => (await c.runAndReadAll(sql, params)).getRowObjectsJson() as Row[]);
  }

  /**
   * Runs `fn` with a connection held, interrupting its query when the time limit passes. A query that does not come
   * back within a short grace after the interrupt is abandoned with its connection, which a fresh one replaces, so
   * no request can wait forever.
   */
  async with<T>(fn: (c: DuckDBConnection) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    const c = await this.acquire();
    let timedOut = false;
    let running = true;
    let grace: NodeJS.Timeout | undefined;
    let abandon: (e: Error) => void = () => {};
    const abandoned = new Promise<never>((_, reject) => { abandon = reject; });
    const timer = setTimeout(() => {
      timedOut = true;
      c.interrupt();
      grace = setTimeout(() => abandon(new QueryTimeout(`query exceeded ${timeoutMs} ms`)), INTERRUPT_GRACE_MS);
    }, timeoutMs);
    const work = fn(c).finally(() => { running = false; });
    try {
      const result = await Promise.race([work, abandoned]);
      // An interrupted query can come back with a partial result instead of an error: it is never an answer.
      if (timedOut) throw new QueryTimeout(`query exceeded ${timeoutMs} ms`);
      return result;
    } catch (e) {
      if (timedOut) throw new QueryTimeout(`query exceeded ${timeoutMs} ms`);
      throw e;
    } finally {
      clearTimeout(timer);
      clearTimeout(grace);
      if (running) {
        work.catch(() => {});
        this.replace(c);
      } else this.release(c);
    }
  }

  /** Connections given up on because their query ignored the interrupt. */
  abandoned = 0;

  private replace(stuck: DuckDBConnection): void {
    this.abandoned++;
    this.all = this.all.filter((x) => x !== stuck);
    void this.instance.connect().then((c) => {
      this.all.push(c);
      this.release(c);
    });
  }

  /**
   * Streams a query's rows chunk by chunk (DuckDB's own chunks, as it reads them) while holding one connection; the
   * connection goes back when the consumer finishes or stops early (`return()` on the iterator).
   */
  async *stream(sql: string, params: DuckDBValue[] = [], timeoutMs = this.timeoutMs * 6): AsyncGenerator<Row[]> {
    const c = await this.acquire();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; c.interrupt(); }, timeoutMs);
    try {
      const result = await c.stream(sql, params);
      for await (const rows of result.yieldRowObjectJson()) yield rows as Row[];
    } catch (e) {
      if (timedOut) throw new QueryTimeout(`query exceeded ${timeoutMs} ms`);
      throw e;
    } finally {
      clearTimeout(timer);
      this.release(c);
    }
  }

  /** Closes the connections it still uses (an abandoned one is never closed: closing would wait for its query). */
  close(): void {
    for (const c of this.all) c.closeSync();
    this.all = [];
    this.idle = [];
  }
}
