// One extraction thread (see pool.ts): answers each document request with its pages or its error.
import { parentPort } from 'node:worker_threads';
import { extractOne, type WorkerReply, type WorkerRequest } from './pool.ts';

parentPort!.on('message', async (m: WorkerRequest) => {
  parentPort!.postMessage({ index: m.index, ...(await extractOne(m.path, m.sha256, m.cacheDir)) } satisfies WorkerReply);
});
