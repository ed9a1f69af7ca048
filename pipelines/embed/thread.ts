// The embedding stage (stage.ts) on a thread of its own, with a DuckDB of its own: its JavaScript runs while the build's
// main thread and DuckDB write the tables and the index, where it used to hold the main thread for as long as both.
import type { EmbeddingSettings } from '../../core/config.ts';
import type { TermProvider } from '../../core/embed/term-vectors.ts';
import type { EmbeddingsEntry } from '../../core/lake/format.ts';
import { tsWorker } from '../threads.ts';

export interface EmbedJob {
  /** The release being staged: `page_embeddings` and `embedding_terms` are written into it. */
  stagedDir: string;
  /** The build's scratch directory (the thread's DuckDB spills under it). */
  scratch: string;
  /** The thread's DuckDB memory limit in MB (store/tables.ts memoryBudget). */
  memoryMb: number;
  /** The build's row files of pages and items (NDJSON), read again by the thread. */
  pages: string;
  items: string;
  previousReleaseDir: string | null;
  endpoint: EmbeddingSettings | null;
  model: TermProvider;
  quiet: boolean;
}

export type EmbedReply = { entry: EmbeddingsEntry } | { error: { message: string; code?: string } };

export interface EmbedThread {
  /** The manifest's `embeddings` entry once the thread is done, or its error. */
  result: Promise<EmbeddingsEntry>;
  /** Ends the thread (at once, if it is still working). */
  stop(): Promise<void>;
}

export function embedInThread(job: EmbedJob): EmbedThread {
  const worker = tsWorker(new URL('./worker.ts', import.meta.url), job);
  const result = new Promise<EmbeddingsEntry>((resolve, reject) => {
    worker.once('message', (m: EmbedReply) => {
      void worker.terminate(); // its heap goes back before the index stage's peak, not after
      if ('entry' in m) return resolve(m.entry);
      reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the embedding thread exited with code ${code} before it answered`)),
    );
  });
  result.catch(() => {}); // awaited once the tables and the index are written
  return {
    result,
    stop: async () => {
      await worker.terminate();
    },
  };
}
