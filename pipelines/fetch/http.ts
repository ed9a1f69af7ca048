// Polite HTTP: a descriptive User-Agent, at most N requests at once with a gap between starts,
// retries with exponential backoff on 429/5xx/timeouts/broken connections (honouring Retry-After),
// an idle timeout, and downloads streamed to a temporary file while the sha256 is taken.
// Every request is bounded: its body's size (declared and decoded), its wall-clock time, and its redirects, which are
// followed by hand so that a guard can refuse each hop before it is requested.
import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';

/** Defaults for the optional limits of HttpOptions. */
export const LIMITS = {
  /** download(): the largest real agendas are tens of MB. */
  maxBytes: 256 * 1024 * 1024,
  /** text(): listing pages, feeds, robots.txt. */
  maxTextBytes: 16 * 1024 * 1024,
  /** Per request, even while bytes keep trickling in (the idle timeout restarts on each byte). */
  maxDownloadMs: 10 * 60_000,
  /** Redirect hops followed per request (RFC 9309 asks at least five for robots.txt). */
  maxRedirects: 5,
};

export interface HttpOptions {
  userAgent: string;
  concurrency: number;
  delayMs: number;
  retries: number;
  timeoutMs: number;
  backoffMs: number;
  /** A Retry-After longer than this fails the request instead of stalling the run. */
  maxRetryAfterMs: number;
  /** Largest body download() accepts, counted after decoding (default LIMITS.maxBytes). */
  maxBytes?: number;
  /** Largest body text() accepts, counted after decoding (default LIMITS.maxTextBytes). */
  maxTextBytes?: number;
  /** Wall-clock limit of one request, body included (default LIMITS.maxDownloadMs). */
  maxDownloadMs?: number;
}

/** Called before every request, each redirect hop included: a reason to refuse the URL, or null. */
export type Guard = (url: URL) => Promise<string | null>;

export class HttpError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface TextResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  headers: Headers;
  text: string;
}
export interface Download {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  headers: Headers;
  bytes: number;
  sha256: string;
}

type Handle<T> = (res: Response, body: AsyncIterable<Uint8Array>, url: string) => Promise<T>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** At most `max` holders at once; successive starts at least `gapMs` apart. */
export class Limiter {
  private active = 0;
  private waiting: (() => void)[] = [];
  private nextStart = 0;
  constructor(
    private max: number,
    private gapMs: number,
  ) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      const start = Math.max(Date.now(), this.nextStart);
      this.nextStart = start + this.gapMs;
      await sleep(start - Date.now());
      return await fn();
    } finally {
      // The slot passes straight to the next waiter.
      const next = this.waiting.shift();
      if (next) next();
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
  constructor(
    private opts: HttpOptions,
    private onRetry: (url: string, reason: string, waitMs: number) => void = () => {},
    private guard?: Guard,
    limiter?: Limiter,
  ) {
    this.limiter = limiter ?? new Limiter(opts.concurrency, opts.delayMs);
  }

  /** The same client (options, retry reports, and the limiter: politeness is shared) with `guard` on every request. */
  guarded(guard: Guard): HttpClient {
    return new HttpClient(this.opts, this.onRetry, guard, this.limiter);
  }

  /** GET a small document (robots.txt, listing page, calendar feed). Non-retryable statuses are returned, not thrown. */
  text(url: string, headers: Record<string, string> = {}): Promise<TextResponse> {
    return this.withRetries(url, headers, this.opts.maxTextBytes ?? LIMITS.maxTextBytes, readText);
  }

  /**
   * POST a form (`application/x-www-form-urlencoded`: an ASP.NET page choosing a year or a grid page), answered as
   * text() is: the same limits, guard and retries; a redirect after it is followed with GET, as browsers do.
   */
  form(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<TextResponse> {
    const body = new URLSearchParams(fields).toString();
    const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
    return this.withRetries(url, form, this.opts.maxTextBytes ?? LIMITS.maxTextBytes, readText, body);
  }

  /** GET into `tmpPath` (only when the answer is 200), hashing on the way; a short body is an error, and no partial file survives. */
  download(url: string, headers: Record<string, string>, tmpPath: string): Promise<Download> {
    return this.withRetries(url, headers, this.opts.maxBytes ?? LIMITS.maxBytes, async (res, body, final) => {
      if (res.status !== 200) {
        await res.body?.cancel();
        return { status: res.status, url: final, headers: res.headers, bytes: 0, sha256: '' };
      }
      const declared = res.headers.get('content-length');
      const hash = createHash('sha256');
      let bytes = 0;
      const file = await open(tmpPath, 'w');
      try {
        for await (const chunk of body) {
          hash.update(chunk);
          bytes += chunk.length;
          await file.write(chunk);
        }
        await file.sync();
      } catch (err) {
        await file.close();
        await rm(tmpPath, { force: true });
        if (err instanceof HttpError) throw err;
        throw new HttpError(`body cut short after ${bytes} of ${declared ?? '?'} bytes: ${describe(err)}`, true);
      }
      await file.close();
      if (declared !== null && !res.headers.get('content-encoding') && Number(declared) !== bytes) {
        await rm(tmpPath, { force: true });
        throw new HttpError(`truncated body: ${bytes} of ${declared} bytes`, true);
      }
      return { status: 200, url: final, headers: res.headers, bytes, sha256: hash.digest('hex') };
    });
  }

  /** Final errors name the URL asked for and, after a redirect, the URL reached. */
  private async withRetries<T>(
    url: string,
    headers: Record<string, string>,
    limit: number,
    handle: Handle<T>,
    post?: string,
  ) {
    for (let attempt = 0; ; attempt++) {
      const chain = [url];
      try {
        return await this.follow(chain, headers, limit, handle, post);
      } catch (err) {
        const e = err instanceof HttpError ? err : new HttpError(describe(err), true);
        const where = chain.length > 1 ? `${url} (redirected to ${chain[chain.length - 1]})` : url;
        const after = attempt ? ` (after ${attempt + 1} attempts)` : '';
        if (!e.retryable || attempt >= this.opts.retries) throw new HttpError(`${where}: ${e.message}${after}`, false);
        const backoff = this.opts.backoffMs * 2 ** attempt;
        const wait = Math.max(backoff, e.retryAfterMs ?? 0);
        if (wait > this.opts.maxRetryAfterMs)
          throw new HttpError(
            `${where}: ${e.message}; Retry-After ${Math.round(wait / 1000)} s exceeds the limit`,
            false,
          );
        this.onRetry(where, e.message, wait);
        await sleep(wait);
      }
    }
  }

  /** One attempt: the request and its redirects, each hop checked by the guard (outside the limiter, which a guard's own requests need). */
  private async follow<T>(
    chain: string[],
    headers: Record<string, string>,
    limit: number,
    handle: Handle<T>,
    post?: string,
  ) {
    for (;;) {
      const url = new URL(chain[chain.length - 1]);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new HttpError(`refused: ${url.protocol} is not http(s)`, false);
      const refused = await this.guard?.(url);
      if (refused) throw new HttpError(`refused: ${refused}`, false);
      const body = chain.length === 1 ? post : undefined;
      const out = await this.limiter.run(() => this.once(url.href, headers, limit, handle, body));
      if (!('location' in out)) return out.value;
      let next: string;
      try {
        next = new URL(out.location, url).href;
      } catch {
        throw new HttpError(`redirect to an invalid Location: ${out.location}`, false);
      }
      if (chain.includes(next)) throw new HttpError(`redirect loop back to ${next}`, false);
      if (chain.length > LIMITS.maxRedirects) throw new HttpError(`more than ${LIMITS.maxRedirects} redirects`, false);
      chain.push(next);
    }
  }

  /** One request, under an idle timeout (restarted whenever bytes arrive) and a wall-clock limit (never restarted). */
  private async once<T>(
    url: string,
    headers: Record<string, string>,
    limit: number,
    handle: Handle<T>,
    post?: string,
  ): Promise<{ location: string } | { value: T }> {
    const abort = new AbortController();
    const { timeoutMs } = this.opts;
    const maxMs = this.opts.maxDownloadMs ?? LIMITS.maxDownloadMs;
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(new HttpError(`timeout: no data for ${timeoutMs} ms`, true)), timeoutMs);
    };
    touch();
    const wall = setTimeout(
      () => abort.abort(new HttpError(`still incomplete after ${maxMs} ms, the time limit per request`, true)),
      maxMs,
    );
    try {
      const res = await fetch(url, {
        method: post === undefined ? 'GET' : 'POST',
        headers: { 'user-agent': this.opts.userAgent, ...headers },
        body: post,
        signal: abort.signal,
        redirect: 'manual',
      });
      if (res.status === 429 || res.status >= 500) {
        await res.body?.cancel();
        throw new HttpError(`HTTP ${res.status}`, true, parseRetryAfter(res.headers.get('retry-after')));
      }
      const location = res.headers.get('location');
      if (REDIRECTS.has(res.status) && location !== null) {
        await res.body?.cancel();
        return { location };
      }
      const declared = res.headers.get('content-length');
      if (res.status !== 304 && declared !== null && Number(declared) > limit)
        throw new HttpError(`body larger than ${limit} bytes (declared ${declared})`, false);
      return { value: await handle(res, bounded(res, limit, touch), url) };
    } catch (err) {
      if (!abort.signal.aborted) abort.abort(err); // closes the connection, the body unread
      throw abort.signal.reason;
    } finally {
      clearTimeout(idle);
      clearTimeout(wall);
    }
  }
}

/** A whole answer as text (already bounded by its limit). */
async function readText(res: Response, body: AsyncIterable<Uint8Array>, final: string): Promise<TextResponse> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return { status: res.status, url: final, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
}

/** The body's chunks, decoded (fetch undoes Content-Encoding), ending in an error the moment they pass `limit`. */
async function* bounded(res: Response, limit: number, touch: () => void): AsyncGenerator<Uint8Array> {
  const encoding = res.headers.get('content-encoding');
  let bytes = 0;
  for await (const chunk of chunksOf(res.body)) {
    touch();
    bytes += chunk.length;
    if (bytes > limit) {
      const what = encoding
        ? `decoded body passed ${limit} bytes (Content-Encoding ${encoding})`
        : `body passed ${limit} bytes`;
      throw new HttpError(what, false);
    }
    yield chunk;
  }
}
