// make corpus-synthetic SCALE=1 [DEST=dir]
//   tsx pipelines/synthetic/cli.ts [--scale N] [--dest DIR] [--seed S] [--meetings N] [--year YYYY] [--workers N]
// Writes <dest>/pdfs/bagMMDDYY_{agenda|minutes}_synthetic.pdf and <dest>/MANIFEST.tsv (default dest:
// bench/corpus/scale-<N>). Same seed and scale → byte-identical files.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

import { DEFAULT_SEED, generate } from './generate.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    dest: { type: 'string', default: '' },
    seed: { type: 'string', default: DEFAULT_SEED },
    meetings: { type: 'string' },
    year: { type: 'string' },
    workers: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    'usage: tsx pipelines/synthetic/cli.ts [--scale N] [--dest DIR] [--seed S] [--meetings N] [--year YYYY] [--workers N]',
  );
  process.exit(0);
}

const scale = Number(values.scale);
if (!(scale > 0) || scale > 50) throw new Error(`--scale must be a number in (0, 50], got '${values.scale}'`);
const meetings = values.meetings === undefined ? undefined : Number(values.meetings);
if (meetings !== undefined && !(Number.isInteger(meetings) && meetings > 0))
  throw new Error(`--meetings must be a positive integer, got '${values.meetings}'`);
const year = values.year === undefined ? undefined : Number(values.year);
if (year !== undefined && !(Number.isInteger(year) && year >= 2012 && year <= 2026))
  throw new Error(`--year must be a year in 2012-2026, got '${values.year}'`);
const dest = values.dest || `bench/corpus/scale-${values.scale}`;
const workers = values.workers
  ? Number(values.workers)
  : meetings !== undefined && meetings < 20
    ? 1
    : Math.min(2, availableParallelism());

const tty = process.stderr.isTTY;
let lastPct = 0;
const onProgress = (done: number, total: number) => {
  const pct = Math.floor((done / total) * 100);
  if (tty) {
    const width = 30;
    const fill = Math.round((done / total) * width);
    process.stderr.write(`\r  [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} meetings`);
    if (done === total) process.stderr.write('\n');
  } else if (Math.floor(pct / 25) > lastPct) {
    lastPct = Math.floor(pct / 25);
    console.error(`synthetic: rendered ${done}/${total} meetings (${pct}%)`);
  }
};

console.error(
  `synthetic: seed '${values.seed}', scale ${scale}${meetings ? `, ${meetings} meetings` : ''}${year ? ` of ${year}` : ''}, ${workers} worker${workers > 1 ? 's' : ''} -> ${dest}`,
);
const s = await generate({ seed: values.seed, scale, meetings, year, dest, workers, onProgress });
console.error(
  `synthetic: wrote ${s.documents} PDFs for ${s.meetings} meetings, ${s.pages.toLocaleString('en-US')} pages, ${(s.bytes / 1e6).toFixed(1)} MB in ${s.seconds.toFixed(1)} s (${Math.round(s.pages / s.seconds)} pages/s) -> ${s.dest}/MANIFEST.tsv`,
);
