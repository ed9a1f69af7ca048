// A small pool of DuckDB connections over one release: one query per connection at a time, and a per-query time
// limit enforced with the connection's interrupt. How many requests may wait is bounded where they are admitted
// (src/http/app.ts), not here: one admitted request may run several queries at once and must never be refused midway.
import { AsyncLocalStorage } from 'node:async_hooks';

import type {
  DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBType,
  DuckDBValue,
} from '@duckdb/node-api';

export class Overloaded extends Error {}
export class QueryTimeout extends Error {}

/** What a client is told when the service is too busy to answer (a 503, an MCP tool error); null for other errors. */
export function busyDetail(e: unknown): string | null {
  if (e instanceof QueryTimeout) return 'the query took too long and was stopped; try a narrower request';
  if (e instanceof Overloaded) return 'too many requests are waiting; retry shortly';
  return null;
}

export type Row = Record<string, unknown>;

/** A query's parameters: values for `$1`, `$2` … (src/queries/sql.ts Params), with types where DuckDB cannot infer them. */
export interface Bound {
  values: DuckDBValue[];
  types: (DuckDBType | undefined)[];
}

const INTERRUPT_GRACE_MS = 1000;

/** The signal that cancels the queries of the work in progress (an MCP request's deadline), whatever calls them. */
const cancellation = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `fn` so that every query it starts, however deep, is interrupted once `signal` aborts, as a query past its
 * time limit is; a query started after that fails at once. Queries need not pass the signal along.
 */
export function cancelledBy<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return cancellation.run(signal, fn);
}

/** Marks the work in progress as shared by requests (see `shared`). */
const sharing = new AsyncLocalStorage<true>();

/**
 * The time limit of a query of shared work. What it reads is bounded by the release, not by what a client asks, and
 * a request's limit would let one slow moment (a one-thread DuckDB busy with the warm-up) fail it for every request.
 */
export const SHARED_WORK_TIMEOUT_MS = 600_000;

/**
 * Runs `fn` as work that requests share (a release's memo): outside any request's cancellation, since it must not end
 * with one of them, and with its queries under SHARED_WORK_TIMEOUT_MS rather than the per-request limit.
 */
export function shared<T>(fn: () => T): T {
  return cancellation.exit(() => sharing.run(true, fn));
}

/**
 * Prepared statements kept per connection, by SQL text. Requests repeat a few shapes of SQL with other values, and
 * preparing one (parse, bind, plan) is ~0.7 ms of a rare term's 3.4 ms search; the least recently used goes first.
 */
const PREPARED_PER_CONNECTION = 64;

export class Pool {
  private idle: DuckDBConnection[] = [];
  private waiting: ((c: DuckDBConnection) => void)[] = [];
  private all: DuckDBConnection[] = [];
  private readonly prepared = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly timeoutMs: number,
  ) {}

  static async open(instance: DuckDBInstance, size: number, timeoutMs: number): Promise<Pool> {
    const pool = new Pool(instance, timeoutMs);
    for (let i = 0; i < size; i++) {
      const c = await instance.connect();
      pool.all.push(c);
      pool.idle.push(c);
    }
    return pool;
  }

  /** Connections handed out since the pool opened: one per query or stream, so a count of the DuckDB work done. */
  leased = 0;

  private acquire(): Promise<DuckDBConnection> {
    this.leased++;
    const c = this.idle.pop();
    if (c) return Promise.resolve(c);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(c: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  /** Runs a parameterised query (prepared once per connection) and returns its rows as JSON-safe objects (cast BIGINTs in SQL). */
  async rows(sql: string, params: Bound | DuckDBValue[] = []): Promise<Row[]> {
    const { values, types } = Array.isArray(params) ? { values: params, types: [] } : params;
    if (values.length === 0) return this.with(async (c) => (await c.runAndReadAll(sql)).getRowObjectsJson() as Row[]);
    return this.with(async (c) => {
      const statement = await this.statement(c, sql);
      try {
        statement.bind(values, types as DuckDBType[]);
        return (await statement.runAndReadAll()).getRowObjectsJson() as Row[];
      } catch (e) {
        this.prepared.get(c)?.delete(sql); // not reused after a failure (an interrupt, a bad value): prepared afresh
        throw e;
      }
    });
  }

  private async statement(c: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
    let byText = this.prepared.get(c);
    if (!byText) this.prepared.set(c, (byText = new Map()));
    let statement = byText.get(sql);
    if (statement)
      byText.delete(sql); // to the most recently used end
    else {
      statement = await c.prepare(sql);
      if (byText.size >= PREPARED_PER_CONNECTION) {
        const [oldest, old] = byText.entries().next().value!;
        byText.delete(oldest);
        old.destroySync();
      }
    }
    byText.set(sql, statement);
    return statement;
  }

  /** A query's time limit where its caller names none: the request's, or that of shared work (`shared`). */
  private limit(streamed = false): number {
    return sharing.getStore() ? SHARED_WORK_TIMEOUT_MS : streamed ? this.timeoutMs * 6 : this.timeoutMs;
  }

  /** Runs `fn` with a connection held, under the time limit (see Lease). */
  async with<T>(fn: (c: DuckDBConnection) => Promise<T>, timeoutMs = this.limit()): Promise<T> {
    const lease = new Lease(this, await this.acquire(), timeoutMs);
    try {
      return await lease.run(fn);
    } finally {
      lease.end();
    }
  }

  /**
   * Streams a query's rows chunk by chunk (DuckDB's own chunks, as it reads them) while holding one connection under
   * the time limit, which counts from the start for the whole stream; the connection goes back when the consumer
   * finishes or stops early (`return()` on the iterator).
   */
  async *stream(sql: string, params: DuckDBValue[] = [], timeoutMs = this.limit(true)): AsyncGenerator<Row[]> {
    yield* this.read(sql, params, timeoutMs, (result) => result.yieldRowObjectJson() as AsyncIterableIterator<Row[]>);
  }

  /** As `stream`, DuckDB's chunks themselves: column vectors read without a value per cell (e.g. FLOAT[n] arrays). */
  chunks(sql: string, params: DuckDBValue[] = [], timeoutMs = this.limit(true)): AsyncGenerator<DuckDBDataChunk> {
    return this.read(sql, params, timeoutMs, (result) => result[Symbol.asyncIterator]());
  }

  private async *read<T>(
    sql: string,
    params: DuckDBValue[],
    timeoutMs: number,
    from: (result: DuckDBResult) => AsyncIterator<T>,
  ): AsyncGenerator<T> {
    const lease = new Lease(this, await this.acquire(), timeoutMs);
    try {
      const items = from(await lease.run((c) => c.stream(sql, params)));
      for (;;) {
        const next = await lease.run(() => items.next());
        if (next.done) return;
        yield next.value;
      }
    } finally {
      lease.end();
    }
  }

  /** Connections given up on because their query ignored the interrupt. */
  abandoned = 0;

  /** Takes back a leased connection: to the next waiting query, or replaced by a fresh one if it was abandoned. */
  giveBack(c: DuckDBConnection, stuck: boolean): void {
    if (!stuck) return this.release(c);
    this.abandoned++;
    this.all = this.all.filter((x) => x !== c);
    void this.instance.connect().then((fresh) => {
      this.all.push(fresh);
      this.release(fresh);
    });
  }

  /** Closes the connections it still uses (an abandoned one is never closed: closing would wait for its query). */
  close(): void {
    for (const c of this.all) {
      for (const statement of this.prepared.get(c)?.values() ?? []) statement.destroySync();
      c.closeSync();
    }
    this.all = [];
    this.idle = [];
  }
}

/**
 * One connection held under a time limit, for one query or one stream: when the limit passes, the connection's query
 * is interrupted; whatever comes back after that (it can be a partial result instead of an error) is never an answer;
 * a call that does not come back within a short grace after the interrupt is abandoned with its connection, which a
 * fresh one replaces, so no request can wait forever.
 */
class Lease {
  private timedOut = false;
  private inFlight = false;
  private readonly timer: NodeJS.Timeout;
  private grace: NodeJS.Timeout | undefined;
  private abandon: () => void = () => {};
  private readonly givenUp = new Promise<never>((_, reject) => {
    this.abandon = () => reject(this.timeout());
  });

  private readonly signal = cancellation.getStore();
  private readonly stop = () => {
    if (this.timedOut) return;
    this.timedOut = true;
    this.c.interrupt();
    this.grace = setTimeout(this.abandon, INTERRUPT_GRACE_MS);
  };

  constructor(
    private readonly pool: Pool,
    private readonly c: DuckDBConnection,
    private readonly timeoutMs: number,
  ) {
    this.givenUp.catch(() => {}); // the grace can run out while no call is waiting on it (a stream's consumer is slow)
    this.timer = setTimeout(this.stop, timeoutMs);
    if (this.signal?.aborted)
      this.timedOut = true; // nothing has run on the connection yet: nothing to interrupt
    else this.signal?.addEventListener('abort', this.stop, { once: true });
  }

  private timeout(): QueryTimeout {
    return new QueryTimeout(
      this.signal?.aborted ? 'query cancelled: its request ran out of time' : `query exceeded ${this.timeoutMs} ms`,
    );
  }

  async run<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.timedOut) throw this.timeout();
    this.inFlight = true;
    const work = fn(this.c).finally(() => {
      this.inFlight = false;
    });
    work.catch(() => {}); // an abandoned call's outcome is nobody's
    try {
      const result = await Promise.race([work, this.givenUp]);
      if (this.timedOut) throw this.timeout();
      return result;
    } catch (e) {
      throw this.timedOut ? this.timeout() : e;
    }
  }

  end(): void {
    this.signal?.removeEventListener('abort', this.stop);
    clearTimeout(this.timer);
    clearTimeout(this.grace);
    this.pool.giveBack(this.c, this.inFlight);
  }
}
