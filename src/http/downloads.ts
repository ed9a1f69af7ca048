// The pool of release-file downloads (GET /api/releases/:id/files/…), bounded apart from admission, and the byte
// ranges (RFC 9110 §14) a download may be limited to.
import { createReadStream, type ReadStream } from 'node:fs';
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

/** One download in progress: its file stream and the bytes it had read at the last two rate checks. */
interface Download {
  file: ReadStream;
  cut: () => void;
  /** [time, bytes read] at the last two rate checks (or the start): the spans a rate is measured over. */
  marks: [number, number][];
  /** Rate checks passed so far. */
  checks: number;
}

/**
 * Release file downloads, apart from the bound on DuckDB work: at most `downloadMax` at once. A download is counted
 * until its file stream is done (read to its end, or destroyed with the response when the client goes away or is cut
 * off; stream.finished calls back exactly once). It is cut off when its client takes no byte for `downloadIdleMs`, is
 * not done after `downloadSendMs`, or takes fewer than `downloadMinBytesPerS` over any `downloadRateWindowMs` window
 * after the first (the idle limit never fires on a client that trickles). When every slot is held, a new download
 * takes the slot of the slowest one past its first window taking less than that lately (cut off at once), and
 * when none is, it waits for a slot up to two windows (the longest such a reader holds one; at most 4 × `downloadMax`
 * wait), so slow readers never hold the pool; only then is it answered 503 with Retry-After. A range
 * read is a download like any other. Rates count bytes read from the file, which backpressure ties to what the client
 * takes (plus the socket buffers, filled in the first window).
 */
export class Downloads {
  private readonly held = new Set<Download>();
  /** Requests waiting for a slot, oldest first. */
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: Limits) {}

  /** In progress now. */
  get active(): number {
    return this.held.size;
  }

  async start(ctx: Context, path: string, range: ByteRange | null = null): Promise<Readable> {
    const { downloadMax, downloadIdleMs, downloadSendMs, downloadRateWindowMs } = this.limits;
    // The longest a reader below the minimum rate holds a slot: its first window, then the one that measures it.
    const until = Date.now() + 2 * downloadRateWindowMs;
    while (this.held.size >= downloadMax && !this.evictSlowest()) {
      if (!(await this.slotFreed(until)) && !this.evictSlowest()) {
        throw new HttpError(
          503,
          'Downloads busy',
          `${downloadMax} release files are being downloaded; retry shortly`,
          {},
          { 'Retry-After': '5' },
        );
      }
    }
    const file = createReadStream(path, range ?? {});
    const download: Download = { file, cut: () => ctx.res.destroy(), marks: [[Date.now(), 0]], checks: 0 };
    this.held.add(download);
    const send = setTimeout(download.cut, downloadSendMs);
    const check = setInterval(() => this.check(download), downloadRateWindowMs);
    ctx.res.setTimeout(downloadIdleMs, download.cut);
    finished(file, () => {
      this.free(download);
      clearTimeout(send);
      clearInterval(check);
    });
    return file;
  }

  /**
   * Bytes per second a download took lately, null in its first window (when the socket buffers fill): since the last
   * check, or since the one before when the last was less than a quarter window ago (too short a span to judge; null
   * if that one is the start).
   */
  private rate(d: Download, now: number): number | null {
    if (d.checks === 0) return null;
    const window = this.limits.downloadRateWindowMs;
    const [last, before] = [d.marks[d.marks.length - 1], d.marks[0]];
    if (now - last[0] < window / 4 && d.checks < 2) return null; // the one before is the start: the buffers filling
    const [at, bytes] = now - last[0] >= window / 4 ? last : before;
    return ((d.file.bytesRead - bytes) * 1000) / (now - at);
  }

  /** Every window after the first: a download below the minimum rate over the last one is cut off. */
  private check(d: Download): void {
    const now = Date.now();
    const last = d.marks[d.marks.length - 1];
    const took = ((d.file.bytesRead - last[1]) * 1000) / (now - last[0]);
    if (d.checks > 0 && took < this.limits.downloadMinBytesPerS) return this.evict(d);
    d.checks++;
    d.marks = [last, [now, d.file.bytesRead]];
  }

  /** Cuts off the slowest download measured below the minimum rate, freeing its slot now; false if there is none. */
  private evictSlowest(): boolean {
    const now = Date.now();
    let slowest: Download | undefined;
    let lowest = this.limits.downloadMinBytesPerS;
    for (const d of this.held) {
      const r = this.rate(d, now);
      if (r !== null && r < lowest) [slowest, lowest] = [d, r];
    }
    if (!slowest) return false;
    this.evict(slowest);
    return true;
  }

  private evict(d: Download): void {
    this.free(d); // its slot is free now, before its stream reports the end
    d.cut();
  }

  /** Lets go of a download's slot (once) and wakes the longest waiting request. */
  private free(d: Download): void {
    if (this.held.delete(d)) this.waiting.shift()?.();
  }

  /** Waits until a slot is let go (true) or `until` passes (false); at most 4 × `downloadMax` requests wait. */
  private slotFreed(until: number): Promise<boolean> {
    if (this.waiting.length >= 4 * this.limits.downloadMax || Date.now() >= until) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(wake), 1);
        resolve(false);
      }, until - Date.now());
      this.waiting.push(wake);
    });
  }
}
