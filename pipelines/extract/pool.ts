// Text extraction in worker threads: each thread loads pdf.js (legacy build) once and extracts whole documents, one at
// a time, handed out largest first to whichever thread is free. Results come back by the document's index, so the
// output (and the order of any error reported from it) does not depend on which thread finished first.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { cachedPages } from './cache.ts';
import { splitRunning, type PageText } from './pages.ts';

export interface ExtractJob { path: string; sha256: string; bytes: number }

/** A document's pages (running header/footer split off, quality judged), or why it could not be read. */
export type ExtractResult = { rawPages: number; pages: PageText[] } | { error: string };

export interface PoolOptions {
  cacheDir: string | null;
  /** Threads (default: EXTRACT_WORKERS, else the machine's cores, at most 8; 1 or a single document: no threads). */
  workers?: number;
  onDocument?: () => void;
}

export type WorkerRequest = { index: number; path: string; sha256: string; cacheDir: string | null };
export type WorkerReply = { index: number } & ExtractResult;

// Threads do not inherit tsx's loader hooks: register them in the thread, then load the .ts worker.
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });`;

/** One document in this thread: what a worker does for each request. */
export async function extractOne(path: string, sha256: string, cacheDir: string | null): Promise<ExtractResult> {
  try {
    const raw = await cachedPages(path, sha256, cacheDir);
    return { rawPages: raw.length, pages: splitRunning(raw) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export function defaultWorkers(): number {
  const env = Number(process.env.EXTRACT_WORKERS);
  return Number.isInteger(env) && env >= 1 ? env : Math.min(8, availableParallelism());
}

export async function extractDocuments(jobs: ExtractJob[], opts: PoolOptions): Promise<ExtractResult[]> {
  const results: ExtractResult[] = new Array(jobs.length);
  const threads = Math.min(opts.workers ?? defaultWorkers(), jobs.length);
  if (threads <= 1) {
    for (let i = 0; i < jobs.length; i++) {
      results[i] = await extractOne(jobs[i].path, jobs[i].sha256, opts.cacheDir);
      opts.onDocument?.();
    }
    return results;
  }
  // Largest first keeps the threads busy to the end; ties by index, so the schedule is fixed too.
  const queue = jobs.map((_, i) => i).sort((a, b) => jobs[b].bytes - jobs[a].bytes || a - b);
  let next = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(Array.from({ length: threads }, (_, k) => new Promise<void>((resolve, reject) => {
      const worker = new Worker(BOOT, { eval: true });
      workers.push(worker);
      let pending: number | null = null;
      const send = () => {
        if (next >= queue.length) { pending = null; void worker.terminate().then(() => resolve()); return; }
        const index = queue[next++];
        pending = index;
        worker.postMessage({ index, path: jobs[index].path, sha256: jobs[index].sha256, cacheDir: opts.cacheDir } satisfies WorkerRequest);
      };
      worker.on('message', (m: WorkerReply) => {
        const { index, ...result } = m;
        results[index] = result as ExtractResult;
        opts.onDocument?.();
        send();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => { if (pending !== null) reject(new Error(`extract worker ${k} exited with code ${code} while reading ${jobs[pending].path}`)); });
      send();
    })));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
