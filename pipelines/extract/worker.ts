// One reading thread (see pool.ts): answers each document request with its rows or its error.
import { parentPort } from 'node:worker_threads';

import { readOne, type WorkerReply, type WorkerRequest } from './pool.ts';

parentPort!.on('message', async (m: WorkerRequest) => {
  parentPort!.postMessage({ index: m.index, result: await readOne(m.source, m.cacheDir) } satisfies WorkerReply);
});
