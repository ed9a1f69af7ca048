// One generator thread (see pool.ts).
import { parentPort, workerData } from 'node:worker_threads';

import { loadInputs, renderMeeting } from './generate.ts';
import type { MeetingSlot } from './meeting.ts';

const { seed, slots, pdfDir } = workerData as { seed: string; slots: MeetingSlot[]; pdfDir: string };
try {
  const inputs = loadInputs(seed);
  for (const slot of slots) parentPort!.postMessage({ rows: await renderMeeting(inputs, slot, pdfDir) });
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
}
