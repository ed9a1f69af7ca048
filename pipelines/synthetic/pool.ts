// Worker threads for the generator: meetings are dealt round-robin to `workers` threads, each of which loads the
// inputs once and renders its meetings into the shared folder, reporting one message per meeting.
import { Worker } from 'node:worker_threads';

import type { ManifestRow } from './manifest-row.ts';
import type { MeetingSlot } from './meeting.ts';

export interface PoolJob {
  seed: string;
  slots: MeetingSlot[];
  pdfDir: string;
  workers: number;
  onMeeting: () => void;
}

export type WorkerMessage = { rows: ManifestRow[] } | { error: string };

// Threads do not inherit tsx's loader hooks: register them in the thread, then load the .ts worker.
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });`;

export async function runWorkers(job: PoolJob): Promise<ManifestRow[]> {
  const rows: ManifestRow[] = [];
  const runs = Array.from(
    { length: job.workers },
    (_, k) =>
      new Promise<void>((resolve, reject) => {
        const slots = job.slots.filter((_, i) => i % job.workers === k);
        const worker = new Worker(BOOT, { eval: true, workerData: { seed: job.seed, slots, pdfDir: job.pdfDir } });
        worker.on('message', (m: WorkerMessage) => {
          if ('error' in m) reject(new Error(m.error));
          else {
            rows.push(...m.rows);
            job.onMeeting();
          }
        });
        worker.on('error', reject);
        worker.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`synthetic worker ${k} exited with code ${code}`)),
        );
      }),
  );
  await Promise.all(runs);
  return rows;
}
