// Misbehaving clients on raw sockets, shared by test/hostile.test.ts (a few of each, in `make test`) and
// test/chaos/run.ts (`make chaos`: more, for longer). Each scenario sends `n` clients and counts what each one saw:
// the response's status, `closed` (the server closed the connection before answering), `open` (nothing happened
// within the scenario's wait: the client gave up), `aborted` (the client left on purpose).
import { connect, type Socket } from 'node:net';

export interface Target {
  url: string;
  /** Requests admitted right now (the server's own count). */
  admitted: () => number;
}

export interface Outcome {
  scenario: string;
  sent: number;
  statuses: Record<string, number>;
  ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const portOf = (t: Target) => Number(new URL(t.url).port);

/**
 * One raw connection: `act` writes to it and may `leave()` (the client closes it); resolves with the status code of
 * the first response line, `closed` if the server closed it without one, `aborted` if the client left, `open` if
 * nothing happened within `waitMs`. With `trickleMs` the client reads one chunk (up to 64 KiB) that often and keeps
 * the connection until the server closes it.
 */
export function connection(
  t: Target,
  act: (s: Socket, leave: () => void) => void | Promise<void>,
  waitMs: number,
  trickleMs = 0,
): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(portOf(t), '127.0.0.1');
    let first = '';
    let left = false;
    const status = () => /^HTTP\/1\.1 (\d{3})/.exec(first)?.[1];
    const settle = (what: string) => {
      clearTimeout(timer);
      s.destroy();
      resolve(what);
    };
    const timer = setTimeout(() => settle('open'), waitMs);
    s.on('data', (d: Buffer) => {
      if (first.length < 16) first += d.toString('latin1', 0, 16);
      if (!trickleMs) {
        if (status()) settle(status()!);
        return;
      }
      s.pause();
      setTimeout(() => s.resume(), trickleMs);
    });
    s.on('error', () => {});
    s.on('close', () => settle(left ? 'aborted' : (status() ?? 'closed')));
    s.once(
      'connect',
      () =>
        void act(s, () => {
          left = true;
          s.destroy();
        }),
    );
  });
}

const count = (scenario: string, started: number, results: string[]): Outcome => {
  const statuses: Record<string, number> = {};
  for (const r of results) statuses[r] = (statuses[r] ?? 0) + 1;
  return { scenario, sent: results.length, statuses, ms: Math.round(performance.now() - started) };
};

const mcpHeaders = 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n';

/** POSTs to /api/mcp whose body is cut off: the client sends part of it and leaves. */
export async function abortedPosts(t: Target, n: number): Promise<Outcome> {
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      connection(
        t,
        async (s, leave) => {
          s.write(
            `POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${mcpHeaders}Content-Length: 4000\r\n\r\n{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"search_pages","arguments":{"q":"hous`,
          );
          await sleep(5 + (i % 4) * 10);
          leave();
        },
        2000,
      ),
    ),
  );
  return count('aborted POSTs', started, results);
}

/** NDJSON snapshot pages whose client leaves before the page is built. */
export async function abortedPages(t: Target, n: number): Promise<Outcome> {
  const started = performance.now();
  const entities = ['documents', 'legislative-files', 'recorded-positions', 'supervisors'];
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      connection(
        t,
        async (s, leave) => {
          s.write(
            `GET /api/snapshots/${entities[i % 4]}?format=ndjson&limit=1000&cursor=${i % 50} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
          );
          await sleep(i % 3);
          leave();
        },
        2000,
      ),
    ),
  );
  return count('aborted NDJSON pages', started, results);
}

/**
 * Slow readers: each pipelines `pages` large NDJSON pages on one connection (more than the kernel's socket buffers
 * hold, so the server is left holding answers) and reads 64 KiB a second for `waitMs`. `heldAtEnd` is what the
 * server still had admitted just before they gave up: their answers must have been cut off by then (the bytes the
 * kernel already took still trickle in, so a client learns of the cut late).
 */
export async function slowReaders(
  t: Target,
  n: number,
  waitMs: number,
  pages = 8,
): Promise<Outcome & { heldAtEnd: number }> {
  const started = performance.now();
  let heldAtEnd = -1;
  const sample = setTimeout(() => (heldAtEnd = t.admitted()), waitMs - 50);
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      connection(
        t,
        (s) => {
          const path = (k: number) =>
            `/api/snapshots/legislative-files?format=ndjson&limit=1000&cursor=${(i * pages + k) % 240}`;
          s.write(
            Array.from({ length: pages }, (_, k) => `GET ${path(k)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join(''),
          );
        },
        waitMs,
        1000,
      ),
    ),
  );
  clearTimeout(sample);
  return { ...count('slow readers', started, results), heldAtEnd };
}

/** Bodies to /api/mcp sent a byte every `everyMs`: the server must answer 408 (or close) instead of waiting. */
export async function slowBodies(t: Target, n: number, waitMs: number, everyMs = 300): Promise<Outcome> {
  const started = performance.now();
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const results = await Promise.all(
    Array.from({ length: n }, () =>
      connection(
        t,
        async (s) => {
          s.write(`POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${mcpHeaders}Content-Length: ${body.length}\r\n\r\n`);
          for (const ch of body) {
            if (s.destroyed || !s.writable) return;
            s.write(ch);
            await sleep(everyMs);
          }
        },
        waitMs,
      ),
    ),
  );
  return count('slow bodies', started, results);
}

/** Connections that send part of a request header and nothing more. */
export async function headerOnly(t: Target, n: number, waitMs: number): Promise<Outcome> {
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      connection(
        t,
        (s) => {
          s.write(i % 2 ? 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n' : 'GET /api/search?q=hou');
        },
        waitMs,
      ),
    ),
  );
  return count('header-only connections', started, results);
}

/** A JSON-RPC batch of `calls` tool calls in one POST. */
export function batch(
  calls: number,
  tool = 'search_pages',
  args: Record<string, unknown> = { q: 'housing', limit: 5 },
): string {
  return JSON.stringify(
    Array.from({ length: calls }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: tool, arguments: args },
    })),
  );
}

/** `n` concurrent POSTs each carrying a batch of `calls` tool calls; statuses and the slowest answer. */
export async function mcpBatches(t: Target, n: number, calls: number): Promise<Outcome & { slowestMs: number }> {
  const started = performance.now();
  let slowestMs = 0;
  const results = await Promise.all(
    Array.from({ length: n }, async () => {
      const t0 = performance.now();
      try {
        const res = await fetch(`${t.url}/api/mcp`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: batch(calls),
          signal: AbortSignal.timeout(60_000),
        });
        await res.text();
        return String(res.status);
      } catch {
        return 'failed';
      } finally {
        slowestMs = Math.max(slowestMs, performance.now() - t0);
      }
    }),
  );
  return { ...count(`MCP batches of ${calls}`, started, results), slowestMs: Math.round(slowestMs) };
}

/**
 * After a scenario: the server's health within 2 s, and how long until nothing is admitted any more (up to
 * `settleMs`). `admitted` is what is left at the end.
 */
export async function aftermath(
  t: Target,
  settleMs = 2000,
): Promise<{ health: number; healthMs: number; admitted: number; settledMs: number }> {
  const t0 = performance.now();
  let health = 0;
  try {
    health = (await fetch(`${t.url}/api/health`, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    health = 0;
  }
  const healthMs = Math.round(performance.now() - t0);
  const t1 = performance.now();
  while (t.admitted() > 0 && performance.now() - t1 < settleMs) await sleep(20);
  return { health, healthMs, admitted: t.admitted(), settledMs: Math.round(performance.now() - t1) };
}
