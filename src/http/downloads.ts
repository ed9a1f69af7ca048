// The pool of release-file downloads (GET /api/releases/:id/files/…), bounded apart from admission, and the byte
// ranges (RFC 9110 §14) a download may be limited to.
import { constants, type ReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
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

/** One download in progress: whose it is, its file stream, and when its client first pushed back. */
interface Download {
  client: string;
  started: number;
  file: ReadStream;
  cut: () => void;
  /** When the response last pushed back (the file stream paused), until it takes bytes again. */
  paused?: number;
  /** The same at the start of its first pause that lasted: the socket buffers were full. */
  full?: [number, number];
}

/** A request waiting for a slot. */
interface Waiter {
  client: string;
  wake: () => void;
}

/**
 * Release file downloads, apart from the bound on DuckDB work: at most `downloadMax` at once. A download is counted
 * until its file stream is done (read to its end, or destroyed with the response when the client goes away or is cut
 * off; stream.finished calls back exactly once). It is cut off when its client takes no byte for `downloadIdleMs` or
 * is not done after `downloadSendMs`. When every slot is held, a new download waits, and while anyone waits:
 * - a freed slot goes to the waiting client address that holds the fewest (the oldest request among equals), so no
 *   address holds more than its share while others wait;
 * - every `downloadGraceMs` / 10 the holder furthest below `downloadMinBytesPerS` is cut off, its rate measured over
 *   what it has actually taken: the bytes read from the file since its socket buffers first filled (the response
 *   first pushed back), over the time since, once that is at least `downloadGraceMs`. Nobody waiting, nobody is cut
 *   for being slow.
 * A waiter not served within 10 × `downloadGraceMs` (at most 4 × `downloadMax` wait) is answered 503 with
 * Retry-After. A range read is a download like any other.
 */
export class Downloads {
  private readonly held = new Set<Download>();
  /** Requests waiting for a slot, oldest first. */
  private readonly waiting: Waiter[] = [];
  private reclaiming?: NodeJS.Timeout;

  constructor(private readonly limits: Limits) {}

  /** In progress now. */
  get active(): number {
    return this.held.size;
  }

  /** Waiting for a slot now. */
  get waiters(): number {
    return this.waiting.length;
  }

  /**
   * Sends an opened release file (`openReleaseFile`) or its range once a slot is free; the handle is closed when the
   * stream ends; one turned away (503) is the caller's to close.
   */
  async start(ctx: Context, handle: FileHandle, range: ByteRange | null = null): Promise<Readable> {
    const { downloadMax, downloadIdleMs, downloadSendMs, downloadGraceMs } = this.limits;
    const client = ctx.ip;
    const until = Date.now() + 10 * downloadGraceMs;
    while (this.held.size >= downloadMax) {
      if (!(await this.slotFreed(client, until))) {
        throw new HttpError(
          503,
          'Downloads busy',
          `${downloadMax} release files are being downloaded; retry shortly`,
          {},
          { 'Retry-After': '5' },
        );
      }
    }
    const file = handle.createReadStream(range ?? {});
    const download: Download = { client, started: Date.now(), file, cut: () => ctx.res.destroy() };
    file.on('pause', () => (download.paused = Date.now()));
    file.on('resume', () => {
      this.filled(download, Date.now());
      download.paused = undefined;
    });
    this.held.add(download);
    const send = setTimeout(download.cut, downloadSendMs);
    ctx.res.setTimeout(downloadIdleMs, download.cut);
    finished(file, () => {
      this.free(download);
      clearTimeout(send);
    });
    return file;
  }

  /**
   * Notes when a download's buffers first filled: at the start of a pause that has lasted a tenth of the grace (a
   * pause relieved at once is a chunk waiting for the socket, not a full buffer).
   */
  private filled(d: Download, now: number): void {
    if (!d.full && d.paused && now - d.paused >= this.limits.downloadGraceMs / 10)
      d.full = [d.paused, d.file.bytesRead]; // with a chunk that was on its way when it paused
  }

  /** How many bytes a download is behind the minimum rate since its buffers filled; null before it can be judged. */
  private behind(d: Download, now: number): number | null {
    this.filled(d, now);
    if (!d.full || now - d.full[0] < this.limits.downloadGraceMs) return null;
    return (this.limits.downloadMinBytesPerS * (now - d.full[0])) / 1000 - (d.file.bytesRead - d.full[1]);
  }

  /** While anyone waits: cuts off the download furthest behind the minimum rate, one per waiter. */
  private reclaim(): void {
    const now = Date.now();
    const behind = [...this.held]
      .map((d) => [d, this.behind(d, now) ?? 0] as const)
      .filter(([, b]) => b > 0)
      .sort((a, b) => b[1] - a[1]);
    for (const [d] of behind.slice(0, this.waiting.length)) {
      this.free(d); // its slot is free now, before its stream reports the end
      d.cut();
    }
  }

  /** Lets go of a download's slot (once) and wakes the waiting client that holds the fewest. */
  private free(d: Download): void {
    if (!this.held.delete(d) || this.waiting.length === 0) return;
    const holds = (client: string) => [...this.held].filter((h) => h.client === client).length;
    let next = 0;
    for (let i = 1; i < this.waiting.length; i++)
      if (holds(this.waiting[i].client) < holds(this.waiting[next].client)) next = i;
    this.waiting.splice(next, 1)[0].wake();
  }

  /** Waits until a slot is let go (true) or `until` passes (false); at most 4 × `downloadMax` requests wait. */
  private slotFreed(client: string, until: number): Promise<boolean> {
    if (this.waiting.length >= 4 * this.limits.downloadMax || Date.now() >= until) return Promise.resolve(false);
    this.reclaiming ??= setInterval(() => this.reclaim(), this.limits.downloadGraceMs / 10);
    return new Promise((resolve) => {
      const settle = (freed: boolean) => {
        clearTimeout(timer);
        if (this.waiting.length === 0) this.reclaiming = void clearInterval(this.reclaiming);
        resolve(freed);
      };
      const waiter: Waiter = { client, wake: () => settle(true) };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        settle(false);
      }, until - Date.now());
      this.waiting.push(waiter);
    });
  }
}

/**
 * Opens a file of a verified release without following a link and checks its size against the manifest's: a file
 * swapped or changed since the release was verified is refused (409) rather than sent under the manifest's ETag.
 */
export async function openReleaseFile(path: string, name: string, bytes: number): Promise<FileHandle> {
  const changed = (why: string) =>
    new HttpError(
      409,
      'Release file changed',
      `${name} ${why} since the release was verified; it is not served`,
      { file: name },
      {},
      'release-file-changed',
    );
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ELOOP' ? changed('was replaced by a link') : changed('cannot be opened');
  });
  const size = (await handle.stat()).size;
  if (size !== bytes) {
    await handle.close();
    throw changed(`has ${size} bytes, not the manifest's ${bytes},`);
  }
  return handle;
}
