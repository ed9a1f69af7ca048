// Documents read in worker threads: each thread loads pdf.js (legacy build) once and reads whole documents, one at a
// time, handed out in order to whichever thread is free: extracts the text, checks it against the source, and turns it
// into the document's rows (document/rows.ts). Results are yielded in document order, so the output (and the
// order of any error reported from it) does not depend on which thread finished first; at most a small window of
// documents runs ahead of the consumer, so memory stays flat however many documents there are.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';

import type { ExclusionKind } from '../../core/lake/format.ts';
import { type DocumentRows, documentRows } from '../document/rows.ts';
import { loadRoster } from '../enrich/supervisors.ts';
import { printedDate } from '../parse/printed-date.ts';
import type { SupervisorRecord } from '../records.ts';
import type { SourceDocument } from '../sources.ts';
import { tsWorker } from '../threads.ts';
import { cachedPages } from './cache.ts';
import { type PageText, splitRunning } from './pages.ts';
import { popplerVersion } from './pdftotext.ts';

/** A document's pages (running header/footer split off, quality judged), or why it could not be read. */
export type ExtractResult = { rawPages: number; pages: PageText[] } | { error: string };

/** Why a document is left out of the release: the message names the file. */
export interface Unread {
  error: string;
  kind: ExclusionKind;
}

/** A document's rows, or why it is left out. */
export type ReadResult = DocumentRows | Unread;

export interface PoolOptions {
  cacheDir: string | null;
  /** Threads (default: defaultWorkers(); 1 or a single document: no threads). */
  workers?: number;
}

/** Documents extracted ahead of the one being consumed, per thread: enough to keep the threads busy past a long one. */
const AHEAD_PER_THREAD = 4;

export type WorkerRequest = { index: number; source: SourceDocument; cacheDir: string | null };
export type WorkerReply = { index: number; result: ReadResult };

/** A document's pages, from the cache or pdf.js. */
export async function extractOne(path: string, sha256: string, cacheDir: string | null): Promise<ExtractResult> {
  try {
    const raw = await cachedPages(path, sha256, cacheDir);
    return { rawPages: raw.length, pages: splitRunning(raw) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

let roster: SupervisorRecord[] | null = null;

/** One document in this thread: what a worker does for each request. */
export async function readOne(source: SourceDocument, cacheDir: string | null): Promise<ReadResult> {
  const r = await extractOne(source.path, source.sha256, cacheDir);
  if ('error' in r) return { kind: 'unreadable-pdf', error: `${source.file}: unreadable PDF (${r.error})` };
  if (source.declaredPages !== null && source.declaredPages !== r.rawPages) {
    return {
      kind: 'page-count-mismatch',
      error: `${source.file}: ${r.rawPages} pages read, MANIFEST.tsv declares ${source.declaredPages}`,
    };
  }
  const printed = printedDate(r.pages);
  if (printed && printed !== source.meetingDate) {
    return {
      kind: 'date-mismatch',
      error: `${source.file}: its cover prints the meeting of ${printed}, its manifest row says ${source.meetingDate}`,
    };
  }
  return documentRows(source, r.pages, (roster ??= loadRoster()));
}

/**
 * EXTRACT_WORKERS, else the cores plus one where poppler is installed (each thread waits for its pdftotext process
 * part of the time) and the cores otherwise (a pdf.js thread holds ~0.5 GB); at most 8.
 */
export function defaultWorkers(): number {
  const env = Number(process.env.EXTRACT_WORKERS);
  return Number.isInteger(env) && env >= 1
    ? env
    : Math.min(8, availableParallelism() + (popplerVersion() !== 'none' ? 1 : 0));
}

export async function* readDocuments(jobs: SourceDocument[], opts: PoolOptions): AsyncGenerator<ReadResult> {
  const threads = Math.min(opts.workers ?? defaultWorkers(), jobs.length);
  if (threads <= 1) {
    for (const job of jobs) yield await readOne(job, opts.cacheDir);
    return;
  }
  // A result per document from dispatch until consumed; a failed thread fails every one not yet settled.
  const results = new Map<
    number,
    { promise: Promise<ReadResult>; resolve: (r: ReadResult) => void; reject: (e: Error) => void }
  >();
  let failure: Error | null = null;
  const resultOf = (index: number) => {
    let r = results.get(index);
    if (!r) {
      let resolve!: (r: ReadResult) => void;
      let reject!: (e: Error) => void;
      const promise = new Promise<ReadResult>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      promise.catch(() => {}); // rejected before it is awaited is not unhandled: the consumer sees it in order
      results.set(index, (r = { promise, resolve, reject }));
      if (failure) reject(failure);
    }
    return r;
  };
  const fail = (e: Error) => {
    failure ??= e;
    for (const r of results.values()) r.reject(failure);
  };
  const idle: Worker[] = [];
  const busy = new Map<Worker, number>();
  let next = 0;
  let consumed = 0;
  const dispatch = () => {
    while (idle.length > 0 && next < jobs.length && next < consumed + threads * AHEAD_PER_THREAD) {
      const index = next++;
      const worker = idle.pop()!;
      busy.set(worker, index);
      worker.postMessage({ index, source: jobs[index], cacheDir: opts.cacheDir } satisfies WorkerRequest);
    }
  };
  const workers = Array.from({ length: threads }, (_, k) => {
    const worker = tsWorker(new URL('./worker.ts', import.meta.url));
    worker.on('message', ({ index, result }: WorkerReply) => {
      busy.delete(worker);
      resultOf(index).resolve(result);
      idle.push(worker);
      dispatch();
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      const index = busy.get(worker);
      if (index !== undefined)
        fail(new Error(`extract worker ${k} exited with code ${code} while reading ${jobs[index].path}`));
    });
    idle.push(worker);
    return worker;
  });
  try {
    dispatch();
    for (let i = 0; i < jobs.length; i++) {
      const result = await resultOf(i).promise;
      results.delete(i);
      consumed = i + 1;
      dispatch();
      yield result;
    }
  } finally {
    busy.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
