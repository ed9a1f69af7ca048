// Polite HTTP: a descriptive User-Agent, at most N requests at once with a gap between starts,
// retries with exponential backoff on 429/5xx/timeouts/broken connections (honouring Retry-After),
// an idle timeout, and downloads streamed to a temporary file while the sha256 is taken.
import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';

export interface HttpOptions {
  userAgent: string;
  concurrency: number;
  delayMs: number;
  retries: number;
  timeoutMs: number;
  backoffMs: number;
  /** A Retry-After longer than this fails the request instead of stalling the run. */
  maxRetryAfterMs: number;
}

export class HttpError extends Error {
  constructor(message: string, readonly retryable: boolean, readonly retryAfterMs?: number) {
    super(message);
  }
}

export interface TextResponse { status: number; url: string; headers: Headers; text: string }
export interface Download { status: number; url: string; headers: Headers; bytes: number; sha256: string }

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** At most `max` holders at once; successive starts at least `gapMs` apart. */
export class Limiter {
  private active = 0;
  private waiting: (() => void)[] = [];
  private nextStart = 0;
  constructor(private max: number, private gapMs: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      const start = Math.max(Date.now(), this.nextStart);
      this.nextStart = start + this.gapMs;
      await sleep(start - Date.now());
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // the slot passes straight to the next waiter
      else this.active--;
    }
  }
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A response body's chunks; left early, the stream is cancelled so the connection is freed. */
async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if ((done = next.done)) return;
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : String(e.message ?? err);
}

export class HttpClient {
  readonly limiter: Limiter;
  constructor(private opts: HttpOptions, private onRetry: (url: string, reason: string, waitMs: number) => void = () => {}) {
    this.limiter = new Limiter(opts.concurrency, opts.delayMs);
  }

  /** GET a small document (robots.txt, listing page, calendar feed). Non-retryable statuses are returned, not thrown. */
  text(url: string, headers: Record<string, string> = {}): Promise<TextResponse> {
    return this.withRetries(url, headers, async (res, touch) => {
      const chunks: Buffer[] = [];
      for await (const chunk of chunksOf(res.body)) {
        touch();
        chunks.push(Buffer.from(chunk));
      }
      return { status: res.status, url: res.url || url, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
    });
  }

  /** GET into `tmpPath` (only when the answer is 200), hashing on the way; a short body is an error, and no partial file survives. */
  download(url: string, headers: Record<string, string>, tmpPath: string): Promise<Download> {
    return this.withRetries(url, headers, async (res, touch) => {
      if (res.status !== 200) {
        await res.body?.cancel();
        return { status: res.status, url: res.url || url, headers: res.headers, bytes: 0, sha256: '' };
      }
      const declared = res.headers.get('content-length');
      const hash = createHash('sha256');
      let bytes = 0;
      const file = await open(tmpPath, 'w');
      try {
        for await (const chunk of chunksOf(res.body)) {
          touch();
          hash.update(chunk);
          bytes += chunk.length;
          await file.write(chunk);
        }
        await file.sync();
      } catch (err) {
        await file.close();
        await rm(tmpPath, { force: true });
        throw err instanceof HttpError ? err : new HttpError(`body cut short after ${bytes} of ${declared ?? '?'} bytes: ${describe(err)}`, true);
      }
      await file.close();
      if (declared !== null && !res.headers.get('content-encoding') && Number(declared) !== bytes) {
        await rm(tmpPath, { force: true });
        throw new HttpError(`truncated body: ${bytes} of ${declared} bytes`, true);
      }
      return { status: 200, url: res.url || url, headers: res.headers, bytes, sha256: hash.digest('hex') };
    });
  }

  private async withRetries<T>(url: string, headers: Record<string, string>, handle: (res: Response, touch: () => void) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.limiter.run(() => this.once(url, headers, handle));
      } catch (err) {
        const e = err instanceof HttpError ? err : new HttpError(describe(err), true);
        if (!e.retryable || attempt >= this.opts.retries) throw new HttpError(`${e.message} (after ${attempt + 1} attempt${attempt ? 's' : ''})`, false);
        const backoff = this.opts.backoffMs * 2 ** attempt;
        const wait = Math.max(backoff, e.retryAfterMs ?? 0);
        if (wait > this.opts.maxRetryAfterMs) throw new HttpError(`${e.message}; Retry-After ${Math.round(wait / 1000)} s exceeds the limit`, false);
        this.onRetry(url, e.message, wait);
        await sleep(wait);
      }
    }
  }

  /** One attempt. The timeout is an idle timeout: it restarts whenever bytes arrive, so large files are not cut off. */
  private async once<T>(url: string, headers: Record<string, string>, handle: (res: Response, touch: () => void) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new HttpError(`timeout: no data for ${this.opts.timeoutMs} ms`, true)), this.opts.timeoutMs);
    };
    touch();
    try {
      const res = await fetch(url, { headers: { 'user-agent': this.opts.userAgent, ...headers }, signal: abort.signal, redirect: 'follow' });
      if (res.status === 429 || res.status >= 500) {
        await res.body?.cancel();
        throw new HttpError(`HTTP ${res.status}`, true, parseRetryAfter(res.headers.get('retry-after')));
      }
      return await handle(res, touch);
    } catch (err) {
      if (abort.signal.aborted) throw abort.signal.reason;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
