// The pool of release-file downloads (GET /api/releases/:id/files/…), bounded apart from admission, and the byte
// ranges (RFC 9110 §14) a download may be limited to.
import { createReadStream } from 'node:fs';
import { finished, type Readable } from 'node:stream';

import type { Context } from 'koa';

import type { Limits } from '../config.ts';
import { HttpError } from './errors.ts';

/** Bytes `start` to `end` of a file, both inclusive (as `Content-Range` writes them). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The media type of a release file: Parquet (`application/vnd.apache.parquet`, registered with IANA), the manifest
 * JSON, the `SHA256SUMS` checksum list plain text, anything else (the raw-deflated text stores, `*.bin`) bytes.
 */
export function releaseFileType(path: string): string {
  if (path.endsWith('.parquet')) return 'application/vnd.apache.parquet';
  if (path.endsWith('.json')) return 'application/json';
  if (path === 'SHA256SUMS') return 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}

/**
 * The range a `Range` header asks of a file of `size` bytes: null to answer the whole file (no header, a header that
 * is not `bytes=` ranges, which RFC 9110 says to ignore), 'unsatisfiable' (416) when no range overlaps the file, else
 * one range. Several ranges are answered as one: from the first byte asked to the last (a single-part 206 covering all
 * of them, which RFC 9110 allows; no `multipart/byteranges`). `bytes=-N` is the last N bytes, `bytes=N-` from N on.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const m = /^bytes=(.+)$/i.exec(header?.trim() ?? '');
  if (!m) return null;
  const ranges: ByteRange[] = [];
  for (const spec of m[1].split(',')) {
    const r = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(spec);
    if (!r || (r[1] === '' && r[2] === '')) return null; // not a range set: ignored
    if (r[1] === '') {
      const suffix = Number(r[2]);
      if (suffix > 0 && size > 0) ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    const last = r[2] === '' ? Infinity : Number(r[2]);
    if (last < start) return null; // invalid: the whole header is ignored
    if (start < size) ranges.push({ start, end: Math.min(last, size - 1) });
  }
  if (ranges.length === 0) return 'unsatisfiable';
  return { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) };
}

/**
 * The part of a file of `size` bytes with `sha256` as its strong ETag that a request asks for: null for the whole file,
 * or the range of a GET whose `Range` applies (no `If-Range`, or an `If-Range` naming this ETag; a date never matches:
 * the whole file is always a correct answer). Throws 416 with `Content-Range: bytes *\/size` when no range overlaps the file. HEAD
 * ignores Range (RFC 9110 defines it for GET only). `sendRange` then answers 206.
 */
export function rangeOf(ctx: Context, size: number, sha256: string): ByteRange | null {
  if (ctx.method !== 'GET') return null;
  const ifRange = ctx.get('If-Range');
  if (ifRange && ifRange !== `"${sha256}"`) return null; // the client's copy is another file: send all of this one
  const range = requestedRange(ctx.get('Range') || undefined, size);
  if (range === 'unsatisfiable') {
    throw new HttpError(
      416,
      'Range not satisfiable',
      `the file has ${size} bytes; no range asked for overlaps them`,
      { size },
      { 'Content-Range': `bytes */${size}` },
    );
  }
  return range;
}

/** Status and length of an answer of `size` bytes, whole (200) or the range (206 with `Content-Range`). */
export function sendRange(ctx: Context, size: number, range: ByteRange | null): void {
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  }
  ctx.length = range ? range.end - range.start + 1 : size;
}

/**
 * Release file downloads, apart from the bound on DuckDB work: at most `downloadMax` at once (503 with Retry-After
 * beyond). A download is counted until its file stream is done (read to its end, or destroyed with the response when
 * the client goes away or is cut off; stream.finished calls back exactly once), and cut off when the client takes no
 * byte for `downloadIdleMs` or is not done after `downloadSendMs`. A range read is a download like any other.
 */
export class Downloads {
  /** In progress now. */
  active = 0;

  constructor(private readonly limits: Limits) {}

  start(ctx: Context, path: string, range: ByteRange | null = null): Readable {
    const { downloadMax, downloadIdleMs, downloadSendMs } = this.limits;
    if (this.active >= downloadMax) {
      throw new HttpError(
        503,
        'Downloads busy',
        `${downloadMax} release files are being downloaded; retry shortly`,
        {},
        { 'Retry-After': '5' },
      );
    }
    this.active++;
    const file = createReadStream(path, range ?? {});
    const cut = () => ctx.res.destroy();
    const send = setTimeout(cut, downloadSendMs);
    ctx.res.setTimeout(downloadIdleMs, cut);
    finished(file, () => {
      this.active--;
      clearTimeout(send);
    });
    return file;
  }
}
