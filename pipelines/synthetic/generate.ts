// The generator: schedule → meetings → agenda and minutes PDFs under <dest>/pdfs, then <dest>/MANIFEST.tsv.
// Work is split across worker threads by meeting; every meeting is self-contained, so the output is the same
// for any number of workers.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { SYNTHETIC_BASE } from '../../core/official-urls.ts';
import { loadRoster, loadTemplates } from './data.ts';
import type { ManifestRow } from './manifest-row.ts';
import { type Inputs, type MeetingSlot, planMeeting } from './meeting.ts';
import { renderAgenda, renderMinutes } from './render.ts';
import { schedule, spread } from './schedule.ts';
import { bagStem } from './text.ts';

export { SYNTHETIC_BASE };

export const DEFAULT_SEED = 'board-records';

export interface Options {
  seed?: string;
  scale?: number;
  /** Keep only this many meetings (spread over 2012-2026), each exactly as at this scale: the smoke option. */
  meetings?: number;
  /** Keep only this year's meetings (before `meetings` picks among them). */
  year?: number;
  dest: string;
  workers?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface Summary {
  meetings: number;
  documents: number;
  pages: number;
  bytes: number;
  seconds: number;
  dest: string;
}

export const MANIFEST_COLUMNS = [
  'file',
  'meeting_date',
  'kind',
  'pages',
  'bytes',
  'sha256',
  'official_url',
  'archive_url',
  'synthetic',
] as const;

/** The meeting slots of a run, with each meeting's place in its year at the full scale; `year` keeps that year's only. */
export function slotsFor(scale: number, meetings?: number, year?: number): MeetingSlot[] {
  const all = schedule(scale);
  const perYear = new Map<string, number>();
  const slots = all.map((s, i) => {
    const y = s.date.slice(0, 4);
    const indexInYear = perYear.get(y) ?? 0;
    perYear.set(y, indexInYear + 1);
    return {
      date: s.date,
      density: s.density,
      indexInYear,
      meetingsInYear: 0,
      previous: i > 0 ? all[i - 1].date : null,
    };
  });
  for (const s of slots) s.meetingsInYear = perYear.get(s.date.slice(0, 4))!;
  const kept = year === undefined ? slots : slots.filter((s) => s.date.startsWith(`${year}-`));
  return meetings === undefined ? kept : spread(kept, meetings);
}

export function loadInputs(seed: string): Inputs {
  return { seed, roster: loadRoster(), templates: loadTemplates() };
}

/** Renders one meeting's two documents into `pdfDir`; returns their manifest rows. */
export async function renderMeeting(inputs: Inputs, slot: MeetingSlot, pdfDir: string): Promise<ManifestRow[]> {
  const meeting = planMeeting(inputs, slot);
  const rows: ManifestRow[] = [];
  for (const [kind, render] of [
    ['agenda', renderAgenda],
    ['minutes', renderMinutes],
  ] as const) {
    const { data, pages } = await render(meeting);
    const name = `${bagStem(slot.date)}_${kind}_synthetic.pdf`;
    await writeFile(join(pdfDir, name), data);
    rows.push({
      file: `pdfs/${name}`,
      meeting_date: slot.date,
      kind,
      pages,
      bytes: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      official_url: SYNTHETIC_BASE + name,
      archive_url: '',
      synthetic: 'true',
    });
  }
  return rows;
}

export async function generate(opts: Options): Promise<Summary> {
  const started = performance.now();
  const seed = opts.seed ?? DEFAULT_SEED;
  const scale = opts.scale ?? 1;
  const slots = slotsFor(scale, opts.meetings, opts.year);
  const pdfDir = join(opts.dest, 'pdfs');
  await mkdir(pdfDir, { recursive: true });
  // A previous run's manifest must not describe this run's files while they are being written.
  await rm(join(opts.dest, 'MANIFEST.tsv'), { force: true });

  const workers = Math.max(1, Math.min(opts.workers ?? 1, slots.length));
  const rows: ManifestRow[] = [];
  let done = 0;
  const progress = (n: number) => {
    done += n;
    opts.onProgress?.(done, slots.length);
  };
  if (workers === 1) {
    const inputs = loadInputs(seed);
    for (const slot of slots) {
      rows.push(...(await renderMeeting(inputs, slot, pdfDir)));
      progress(1);
    }
  } else {
    const { runWorkers } = await import('./pool.ts');
    rows.push(...(await runWorkers({ seed, slots, pdfDir, workers, onMeeting: () => progress(1) })));
  }

  // Files of earlier runs that this run did not write (another SCALE into the same folder) are removed.
  const written = new Set(rows.map((r) => r.file.slice('pdfs/'.length)));
  for (const name of await readdir(pdfDir))
    if (/_synthetic\.pdf$/.test(name) && !written.has(name)) await rm(join(pdfDir, name));

  rows.sort((a, b) => a.file.localeCompare(b.file));
  const tsv =
    [MANIFEST_COLUMNS.join('\t'), ...rows.map((r) => MANIFEST_COLUMNS.map((c) => String(r[c])).join('\t'))].join('\n') +
    '\n';
  const tmp = join(opts.dest, 'MANIFEST.tsv.tmp');
  await writeFile(tmp, tsv);
  await rename(tmp, join(opts.dest, 'MANIFEST.tsv'));
  return {
    meetings: slots.length,
    documents: rows.length,
    pages: rows.reduce((a, r) => a + r.pages, 0),
    bytes: rows.reduce((a, r) => a + r.bytes, 0),
    seconds: (performance.now() - started) / 1000,
    dest: opts.dest,
  };
}
