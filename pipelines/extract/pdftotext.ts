// PDF → raw page lines via poppler's `pdftotext -tsv`, one process per document (run by one shell per thread): the
// fast path where poppler is installed. Its words go through the same layout rule as pdf.js's runs (layout.ts).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

import { type Glyph, layoutLines, type RawPage } from './layout.ts';

export const PDFTOTEXT = 'pdftotext -tsv';

/**
 * pdftotext's word boxes run from the font's descent to its ascent: about 1.12 em in the fonts of these PDFs. Only the
 * line grouping's tolerance reads the size.
 */
const BOX_EM = 1.117;

let installed = true;

let version: string | undefined;

/** `pdftotext -v`'s first line (poppler's version: another version may read other text), or `none`; asked once. */
export function popplerVersion(): string {
  if (version === undefined) {
    const r = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
    version = r.error ? 'none' : `${r.stderr}${r.stdout}`.split('\n')[0];
  }
  return version;
}

/**
 * The TSV's pages: level 1 rows open a page (its height in `height`), level 5 rows are its words. A document's TSV runs
 * to megabytes, so its rows are read in one pass of character codes rather than split into strings.
 */
export function pagesOfTsv(tsv: string): RawPage[] {
  const pages: { height: number; glyphs: Glyph[] }[] = [];
  const column = new Float64Array(11);
  for (let start = 0; start < tsv.length;) {
    const newline = tsv.indexOf('\n', start);
    const end = newline < 0 ? tsv.length : newline;
    const level = tsv.charCodeAt(start);
    if ((level === 0x31 || level === 0x35) && tsv.charCodeAt(start + 1) === 9) {
      const text = readColumns(tsv, start + 2, end, column);
      if (level === 0x31) pages.push({ height: column[9], glyphs: [] });
      else if (text >= 0) {
        const page = pages[column[1] - 1];
        const [left, top, width, height] = [column[6], column[7], column[8], column[9]];
        page.glyphs.push({
          str: tsv.slice(text, end),
          x: left,
          y: page.height - (top + height / 2),
          width,
          size: height / BOX_EM,
        });
      }
    }
    start = end + 1;
  }
  return pages.map((p, i) => ({ page: i + 1, lines: layoutLines(p.glyphs) }));
}

/**
 * Reads a row's numeric columns 1–10 (from `at`, after the level) into `column` as Number() reads pdftotext's `%f`
 * (digits over a power of ten, both exact, so the quotient rounds as the decimal does), NaN where a column is not a
 * plain decimal or missing; returns where the text column starts, or -1 when the row has fewer than twelve columns.
 */
export function readColumns(tsv: string, at: number, end: number, column: Float64Array): number {
  let index = 1;
  let from = at;
  let digits = 0;
  let scale = 1;
  let dot = false;
  let negative = false;
  let digit = false;
  let other = false;
  for (; at <= end && index <= 10; at++) {
    const c = at < end ? tsv.charCodeAt(at) : 9;
    if (c === 9) {
      column[index++] = digit && !other ? (negative ? -digits : digits) / scale : NaN;
      from = at + 1;
      digits = 0;
      scale = 1;
      dot = false;
      negative = false;
      digit = false;
      other = false;
    } else if (c >= 0x30 && c <= 0x39) {
      digits = digits * 10 + (c - 0x30);
      digit = true;
      if (dot) scale *= 10;
    } else if (c === 0x2e && !dot) dot = true;
    else if (c === 0x2d && at === from) negative = true;
    else other = true;
  }
  column.fill(NaN, index);
  return index === 11 && at <= end ? at : -1;
}

/**
 * One shell per thread runs pdftotext for each path written to its stdin and ends each answer with a line of its own
 * (a random marker and pdftotext's exit status): spawning from this process, large once DuckDB and the extraction
 * threads are in it, cost ~20 ms of CPU a document; the small shell forks for almost nothing.
 */
class Runner {
  private readonly marker = `--pdftotext-done-${randomUUID()}`;
  private readonly end = new RegExp(`\n${this.marker} (\\d+)\n$`);
  private readonly child: ChildProcess;
  private chunks: Buffer[] = [];
  private waiting: ((r: { status: number; tsv: string } | null) => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor() {
    const script = 'while IFS= read -r f; do pdftotext -q -tsv "$f" -; printf \'\\n%s %d\\n\' "$0" "$?"; done';
    this.child = spawn('sh', ['-c', script, this.marker], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.on('error', () => this.finish(null));
    this.child.on('exit', () => {
      runner = null;
      this.finish(null);
    });
    this.child.stdin!.on('error', () => this.finish(null));
    this.child.stdout!.on('data', (chunk: Buffer) => this.data(chunk));
    this.idle();
  }

  /** pdftotext's exit status and output for `path`, or null when the shell is gone. */
  run(path: string): Promise<{ status: number; tsv: string } | null> {
    const next = this.queue.then(
      () =>
        new Promise<{ status: number; tsv: string } | null>((done) => {
          this.waiting = done;
          (this.child.stdout as Socket).ref();
          this.child.stdin!.write(`${path}\n`);
        }),
    );
    this.queue = next;
    return next;
  }

  private data(chunk: Buffer): void {
    this.chunks.push(chunk);
    // The marker line comes last, after which the shell waits for the next path: it is the tail of what has arrived.
    let tail = '';
    for (let i = this.chunks.length - 1; i >= 0 && tail.length < this.marker.length + 16; i--)
      tail = this.chunks[i].toString('latin1') + tail;
    const end = this.end.exec(tail);
    if (!end) return;
    const all = Buffer.concat(this.chunks);
    this.chunks = [];
    this.finish({ status: Number(end[1]), tsv: all.subarray(0, all.length - end[0].length).toString('utf8') });
  }

  private finish(r: { status: number; tsv: string } | null): void {
    const done = this.waiting;
    this.waiting = null;
    this.idle();
    done?.(r);
  }

  /** Between documents the shell does not keep the process (or thread) alive. */
  private idle(): void {
    this.child.unref();
    (this.child.stdin as Socket | null)?.unref();
    (this.child.stdout as Socket | null)?.unref();
  }
}

let runner: Runner | null = null;

/** The document's pages, or null when poppler is not installed or pdftotext cannot read the file. */
export async function pdftotextPages(path: string): Promise<RawPage[] | null> {
  if (!installed) return null;
  const r = /[\n\r]/.test(path) ? null : await (runner ??= new Runner()).run(path);
  if (r?.status === 127) installed = false; // the shell found no pdftotext
  return r && r.status === 0 ? pagesOfTsv(r.tsv) : null;
}
