// Content coding (RFC 9110 8.4): br or gzip for every compressible answer, as the client's Accept-Encoding prefers,
// with Vary: Accept-Encoding. Buffered bodies are compressed off the event loop (zlib's thread pool) and keep a
// Content-Length; streamed bodies (NDJSON pages) are compressed as they stream, each slice of at most 64 KiB flushed
// on its own, so a slow reader gets whole records as they are made and backpressure reaches the source. Release files
// (Parquet, byte ranges) and the MCP transport are sent as they are.
import { pipeline, type Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';

import type { Context, Middleware } from 'koa';

export type Coding = 'br' | 'gzip' | 'identity';

/** Media types worth compressing: JSON (problems, schemas), NDJSON, CSV, XML (Atom feeds), Markdown, HTML, CSS, JavaScript, plain text. */
const COMPRESSIBLE =
  /^(application\/([a-z0-9.+-]*\+)?(json|xml)|application\/x-ndjson|application\/javascript|text\/(html|markdown|css|csv|javascript|plain|xml))\s*(;|$)/i;

/** Not compressed whatever their type: release files (byte ranges and checksums are of the stored bytes), MCP. */
const verbatim = (path: string) => path === '/api/mcp' || /^\/api\/releases\/[^/]+\/files\//.test(path);

/** Below this a buffered body is sent as it is (still with Vary): the coding would cost more than it saves. */
export const MIN_BYTES = 1024;
/** The largest piece of a stream compressed and flushed at once. */
export const SLICE_BYTES = 64 * 1024;

const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP = { level: 6 };
const brAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The coding for an Accept-Encoding header: br or gzip when acceptable (q > 0, by name or `*`), br on a tie (it is
 * smaller at the same speed); identity when the header is absent or accepts neither.
 */
export function chooseCoding(header: string | undefined): Coding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(coding, Math.max(weight, q.get(coding) ?? 0));
  }
  const of = (c: string) => q.get(c) ?? q.get('*') ?? 0;
  const br = of('br');
  const gz = Math.max(of('gzip'), q.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

/** Splits chunks into slices of at most SLICE_BYTES, so each is compressed and flushed by itself. */
const slicer = () =>
  new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let i = 0; i < chunk.length; i += SLICE_BYTES) this.push(chunk.subarray(i, i + SLICE_BYTES));
      done();
    },
  });

const isStream = (v: unknown): v is Readable => typeof (v as Readable | null)?.pipe === 'function';

/** A strong validator names one representation: the coded one gets a weak ETag (If-None-Match compares weakly). */
function weakenETag(ctx: Context) {
  const etag = ctx.response.get('ETag');
  if (etag && !etag.startsWith('W/')) ctx.set('ETag', `W/${etag}`);
}

export function compression(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.respond === false || ctx.body === null || ctx.body === undefined || verbatim(ctx.path)) return;
    if (ctx.status === 204 || ctx.status === 304 || ctx.response.get('Content-Encoding')) return;
    if (!COMPRESSIBLE.test(ctx.response.get('Content-Type'))) return;
    ctx.vary('Accept-Encoding');
    if (/\bno-transform\b/i.test(ctx.response.get('Cache-Control'))) return;
    const coding = chooseCoding(ctx.get('Accept-Encoding'));
    if (coding === 'identity') return;
    const body: unknown = ctx.body;
    if (isStream(body)) {
      const coder =
        coding === 'br'
          ? createBrotliCompress({ ...BROTLI, flush: constants.BROTLI_OPERATION_FLUSH })
          : createGzip({ ...GZIP, flush: constants.Z_SYNC_FLUSH });
      // A client gone or cut off destroys the coder (Koa's pipeline to the response); pipeline then destroys the
      // source, which ends its own accounting (admission, downloads) as it would uncompressed.
      pipeline(body, slicer(), coder, () => {});
      ctx.set('Content-Encoding', coding);
      ctx.remove('Content-Length');
      weakenETag(ctx);
      ctx.body = coder;
      return;
    }
    let bytes: Buffer;
    if (Buffer.isBuffer(body)) bytes = body;
    else if (typeof body === 'string') bytes = Buffer.from(body);
    else if (body instanceof Uint8Array) bytes = Buffer.from(body);
    else if (Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype)
      bytes = Buffer.from(JSON.stringify(body));
    else return;
    if (bytes.length < MIN_BYTES) return;
    const coded = coding === 'br' ? await brAsync(bytes, BROTLI) : await gzipAsync(bytes, GZIP);
    ctx.set('Content-Encoding', coding);
    weakenETag(ctx);
    ctx.body = coded; // keeps the Content-Type already set; Content-Length is the coded size
  };
}
