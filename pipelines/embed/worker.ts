// The embedding thread (thread.ts): embeds the build's pages and items with a DuckDB of its own and answers with the
// manifest's `embeddings` entry, or the error.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

import { OpenAIEmbedder } from '../../core/embed/openai.ts';
import { readNdjson } from '../store/scratch.ts';
import { buildDuckDb } from '../store/tables.ts';
import { byDocument, type ItemInput, type PageInput } from './passages.ts';
import { embedPages } from './stage.ts';
import type { EmbedJob, EmbedReply } from './thread.ts';

const job = workerData as EmbedJob;

async function run(): Promise<EmbedReply> {
  const instance = await buildDuckDb(join(job.scratch, 'embed-duckdb.tmp'), job.memoryMb);
  const db = await instance.connect();
  try {
    const docs = () => byDocument(readNdjson<PageInput>(job.pages), readNdjson<ItemInput>(job.items));
    const entry = await embedPages(db, job.stagedDir, docs, {
      previousReleaseDir: job.previousReleaseDir,
      provider: job.endpoint ? new OpenAIEmbedder(job.endpoint) : null,
      model: job.model,
      quiet: job.quiet,
    });
    return { entry };
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

run().then(
  (reply) => parentPort!.postMessage(reply),
  (e: NodeJS.ErrnoException) =>
    parentPort!.postMessage({
      error: { message: e.message, ...(e.code ? { code: e.code } : {}) },
    } satisfies EmbedReply),
);
