// What the HTTP layer does with connections themselves: work that must run exactly once when a response is over
// (however it ended), request bodies read under a size and a time bound, and one log line for a client's broken
// connection instead of a stack trace.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream';

type Waiters = Set<() => void>;
const byResponse = new WeakMap<ServerResponse, Waiters>();
const bySocket = new WeakMap<Socket, Waiters>();

/** The functions waiting on `key`'s end: one listener per response or socket, however many wait on it. */
function waiters<K extends object>(map: WeakMap<K, Waiters>, key: K, listen: (fire: () => void) => void): Waiters {
  let set = map.get(key);
  if (!set) {
    const mine: Waiters = (set = new Set());
    map.set(key, mine);
    listen(() => {
      map.delete(key);
      for (const f of mine) f();
    });
  }
  return set;
}

/**
 * Runs `fn` once the response is over: sent, failed, or its client gone, also when that happened before this call
 * (a `close` listener added after the close never fires; `finished` checks the state it finds). A response queued
 * behind another on a pipelining connection never hears of that connection closing: the socket says it.
 */
export function whenDone(res: ServerResponse, fn: () => void): void {
  const socket = res.req.socket;
  if (socket.destroyed) return fn();
  const onResponse = waiters(byResponse, res, (fire) => finished(res, fire));
  const onSocket = waiters(bySocket, socket, (fire) => socket.once('close', fire));
  const once = () => {
    onResponse.delete(once);
    onSocket.delete(once);
    fn();
  };
  onResponse.add(once);
  onSocket.add(once);
}

/** Why a body was not read: too large (413), too slow (408), too many bodies held (503), or the client left (`null`). */
export class BodyRefused extends Error {
  constructor(
    readonly status: 408 | 413 | 503 | null,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The bytes of request bodies held in memory at once, across requests, and their cap. The first `free` bytes of each
 * body are not counted, so small requests are read even while large ones hold the whole budget.
 */
export class BodyBudget {
  held = 0;

  constructor(
    readonly cap: number,
    readonly free = 16 * 1024,
  ) {}

  /** Reserves `n` bytes; false (nothing reserved) when that would pass the cap. */
  take(n: number): boolean {
    if (this.held + n > this.cap) return false;
    this.held += n;
    return true;
  }

  give(n: number): void {
    this.held -= n;
  }
}

/**
 * Reads a request body into memory: at most `maxBytes` (a larger declared or actual size is refused as soon as it is
 * known) within `timeoutMs` from now, holding its bytes against `budget` while it is read: the declared length at
 * once, else each chunk as it comes, past the budget's free bytes (503 once the budget is spent). Stops reading on refusal, leaving the rest
 * unread: answer with `Connection: close`.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
  budget: BodyBudget = new BodyBudget(Infinity),
): Promise<Buffer> {
  const tooLarge = () => new BodyRefused(413, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
  const busy = () =>
    new BodyRefused(503, `Service Unavailable: request bodies being read hold ${budget.cap} bytes; retry shortly`);
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) return Promise.reject(tooLarge());
  const counted = (bytes: number) => Math.max(0, bytes - budget.free);
  let reserved = declared > 0 ? counted(declared) : 0;
  if (!budget.take(reserved)) return Promise.reject(busy());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (e: BodyRefused | null) => {
      clearTimeout(timer);
      budget.give(reserved);
      reserved = 0;
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      if (!e) return resolve(Buffer.concat(chunks));
      req.pause();
      reject(e);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return stop(tooLarge());
      if (counted(size) > reserved) {
        if (!budget.take(counted(size) - reserved)) return stop(busy());
        reserved = counted(size);
      }
      chunks.push(chunk);
    };
    const onEnd = () => stop(null);
    const onGone = () => stop(new BodyRefused(null, 'the client left before its request body arrived'));
    const timer = setTimeout(
      () => stop(new BodyRefused(408, `Request Timeout: the request body did not arrive within ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

/** Errors that say a client broke its connection or spoke bad HTTP, not that the server failed. */
export function clientFault(e: Error & { code?: string }): boolean {
  return (
    /^(ECONNRESET|EPIPE|ECONNABORTED|ETIMEDOUT|ERR_STREAM_PREMATURE_CLOSE|ERR_STREAM_DESTROYED|ERR_HTTP_REQUEST_TIMEOUT|HPE_)/.test(
      e.code ?? '',
    ) || e.message === 'aborted'
  );
}

/** One JSON log line for a client fault: what happened, never a stack. */
export const faultLine = (event: string, e: Error & { code?: string }, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    time: new Date().toISOString(),
    level: 'warn',
    event,
    code: e.code ?? null,
    message: e.message,
    ...extra,
  });

/**
 * The server's `clientError` handler: a malformed request or a connection timed out before its request was read.
 * Answers as Node would (431 for an oversized header, 408 for a timeout, else 400, unless an answer already
 * began), logs one line, closes.
 */
export function onClientError(log: (line: string) => void) {
  return (e: Error & { code?: string }, socket: Socket) => {
    const status = e.code === 'HPE_HEADER_OVERFLOW' ? 431 : e.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    if (e.code !== 'ECONNRESET') log(faultLine('bad-request', e, { status }));
    if (socket.writable && socket.bytesWritten === 0)
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroySoon();
  };
}
