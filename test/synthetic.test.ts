// Smoke run of the synthetic corpus generator (pipelines/synthetic): a handful of meetings into a temp folder,
// checked for determinism, manifest truth, the real layout as our extractor reads it, and the roster by date.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PDFDocument } from 'pdf-lib';
import t from 'tap';

import { extractPages, type RawPage } from '../pipelines/extract/pdf.ts';
import { readCorpus } from '../pipelines/sources.ts';
import { generate, MANIFEST_COLUMNS } from '../pipelines/synthetic/generate.ts';
import { schedule } from '../pipelines/synthetic/schedule.ts';

const MEETINGS = 4;
const root = await mkdtemp(join(tmpdir(), 'synthetic-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const a = join(root, 'a');
const b = join(root, 'b');
const summary = await generate({ dest: a, meetings: MEETINGS });

const readManifest = async (dir: string) => {
  const [head, ...rows] = (await readFile(join(dir, 'MANIFEST.tsv'), 'utf8')).trimEnd().split('\n');
  const cols = head.split('\t');
  return { cols, rows: rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v]))) };
};
const manifest = await readManifest(a);
const pagesOf = new Map<string, RawPage[]>();
for (const r of manifest.rows) pagesOf.set(r.file, await extractPages(join(a, r.file)));
const docs = (kind: string) => manifest.rows.filter((r) => r.kind === kind);

t.test('manifest rows match the files', async (t) => {
  t.same(manifest.cols, [...MANIFEST_COLUMNS]);
  t.equal(manifest.rows.length, MEETINGS * 2);
  t.equal(summary.documents, MEETINGS * 2);
  t.same((await readdir(join(a, 'pdfs'))).sort(), manifest.rows.map((r) => r.file.slice(5)).sort());
  for (const r of manifest.rows) {
    const data = await readFile(join(a, r.file));
    t.equal(r.sha256, createHash('sha256').update(data).digest('hex'), `${r.file} sha256`);
    t.equal(Number(r.bytes), data.length, `${r.file} bytes`);
    t.equal(Number(r.pages), pagesOf.get(r.file)!.length, `${r.file} pages`);
    t.match(r.file, /^pdfs\/bag\d{6}_(agenda|minutes)_synthetic\.pdf$/);
    const [y, m, d] = r.meeting_date.split('-');
    t.equal(r.file, `pdfs/bag${m}${d}${y.slice(2)}_${r.kind}_synthetic.pdf`);
    t.ok(r.meeting_date >= '2012-01-01' && r.meeting_date <= '2026-12-31');
    t.equal(new Date(`${r.meeting_date}T00:00:00Z`).getUTCDay(), 2, 'SCALE=1 meets on Tuesdays');
    t.match(r.official_url, /^https:\/\/synthetic\.invalid\//);
    t.equal(r.synthetic, 'true');
    t.ok(Number(r.pages) >= 10, `${r.file}: ${r.pages} pages`);
  }
  // The project's own corpus reader accepts the folder and flags every document synthetic.
  const { documents: corpus, excluded } = await readCorpus(a);
  t.same(excluded, [], 'nothing left out');
  t.equal(corpus.length, MEETINGS * 2);
  t.ok(corpus.every((c) => c.synthetic));
});

t.test('deterministic: a second run is byte-identical (also with two worker threads)', async (t) => {
  await generate({ dest: b, meetings: MEETINGS, workers: 2 });
  t.equal(await readFile(join(b, 'MANIFEST.tsv'), 'utf8'), await readFile(join(a, 'MANIFEST.tsv'), 'utf8'));
  for (const r of manifest.rows)
    t.ok((await readFile(join(a, r.file))).equals(await readFile(join(b, r.file))), r.file);
  const other = join(root, 'c');
  await generate({ dest: other, meetings: MEETINGS, seed: 'another seed' });
  const first = docs('agenda')[0].file;
  t.not(
    createHash('sha256')
      .update(await readFile(join(other, first)))
      .digest('hex'),
    docs('agenda')[0].sha256,
    'another seed, other bytes',
  );
});

t.test('labelled synthetic in metadata and on the cover', async (t) => {
  for (const r of manifest.rows) {
    const pdf = await PDFDocument.load(await readFile(join(a, r.file)), { updateMetadata: false });
    t.match(pdf.getTitle(), /SYNTHETIC/);
    t.match(pdf.getSubject(), /SYNTHETIC TEST DOCUMENT/);
    t.match(pdf.getKeywords(), /synthetic/);
    t.match(pagesOf.get(r.file)![0].lines.join('\n'), /SYNTHETIC TEST DOCUMENT/);
  }
});

t.test('real layout as the extractor reads it', async (t) => {
  for (const r of manifest.rows) {
    const pages = pagesOf.get(r.file)!;
    const [y, m, d] = r.meeting_date.split('-').map(Number);
    // Minutes: every page but the cover; agendas: after the cover and two procedure pages.
    const running = pages.slice(r.kind === 'minutes' ? 1 : 3);
    for (const p of running) {
      const head = p.lines[0].trim();
      const foot = p.lines[p.lines.length - 1].trim();
      if (r.kind === 'minutes')
        t.match(
          head,
          new RegExp(`^Board of Supervisors {2,}Meeting Minutes( - Draft)? {2,}${m}/${d}/${y}$`),
          `${r.file} p${p.page} header`,
        );
      else
        t.match(
          head,
          new RegExp(`^Board of Supervisors {2,}Meeting Agenda {2,}\\w+day, \\w+ ${d}, ${y}$`),
          `${r.file} p${p.page} header`,
        );
      t.match(
        foot,
        /^City and County of San Francisco {2,}Page \d+ {2,}Printed at \d+:\d\d [ap]m on \d+\/\d+\/\d\d$/,
        `${r.file} p${p.page} footer`,
      );
    }
    const text = pages.map((p) => p.lines.join('\n')).join('\n');
    if (r.kind === 'minutes') {
      t.match(text, /^ {10,12}\d{6} {2,}\[[^\]\n]+/m, 'file number at the left margin, bracketed title beside it');
      t.match(text, /^ {18,21}Sponsors?: /m);
      t.match(text, /^ {18,21}The foregoing items were acted upon by the following vote:$/m);
      t.match(text, /^ {18,21}Supervisor \w+, seconded by Supervisor \w+, moved /m);
      t.match(text, /^ {10,12}PUBLIC COMMENT$/m);
      t.match(text, /^ {18,21}(Male Speaker|Female Speaker|[A-Z][\w' ]+); /m);
      t.match(text, /^ {10,12}LEGISLATION INTRODUCED AT ROLL CALL$/m);
    } else {
      t.match(text, /^ {10,12}\d+\. +\d{6} +\[/m, 'numbered agenda item');
      t.match(text, /^ {27,30}Question: Shall this (Ordinance|Resolution|Motion|Hearing) be /m);
      t.match(
        text,
        /^ {27,30}\d\d\/\d\d\/\d{4}; (PASSED, ON FIRST READING|RECEIVED FROM DEPARTMENT)\.$/m,
        'status line',
      );
    }
  }
});

/** Roll calls from extracted minutes: label, printed count and names (continuation lines joined). */
function rollCalls(pages: RawPage[]): { label: string; count: number; names: string[] }[] {
  const out: { label: string; count: number; names: string[] }[] = [];
  for (const p of pages) {
    for (let i = 0; i < p.lines.length; i++) {
      const m = /^( +)(Ayes|Noes|Excused|Absent): (\d+) - (.*)$/.exec(p.lines[i]);
      if (!m) continue;
      let names = m[4];
      // A long list wraps back to the same left edge; nothing else is printed at that indent.
      while (
        i + 1 < p.lines.length &&
        /^ +/.exec(p.lines[i + 1])![0].length === m[1].length &&
        !/^ +(Ayes|Noes|Excused|Absent):/.test(p.lines[i + 1])
      )
        names += ` ${p.lines[++i].trim()}`;
      out.push({ label: m[2], count: Number(m[3]), names: names.split(', ').map((s) => s.trim()) });
    }
  }
  return out;
}

t.test('roll calls: counts equal names, names are the members seated that day', async (t) => {
  for (const r of docs('minutes')) {
    const pages = pagesOf.get(r.file)!;
    const calls = rollCalls(pages);
    t.ok(calls.length > 10, `${r.file}: ${calls.length} roll call lines`);
    if (r.meeting_date >= '2019')
      t.ok(
        calls.some((c) => c.names.length === 11),
        'eleven longer surnames wrap onto a continuation line',
      );
    for (const c of calls) t.equal(c.names.length, c.count, `${r.file} ${c.label}: ${c.count}`);
    // Members Present / Absent (full names, page 2) and roll calls (surnames) agree with each other.
    const lines = pages[1].lines;
    const from = lines.findIndex((l) => /^ +Members Present: /.test(l));
    const to = lines.findIndex((l) => /The Board of Supervisors of the City and County/.test(l));
    t.ok(from > 0 && to > from, 'Members Present line on page 2');
    const members = lines.slice(from, to).join(' ');
    for (const s of new Set(calls.flatMap((c) => c.names)))
      t.match(members, new RegExp(`\\b${s}\\b`), `${s} among the members`);
  }
  // 2013-10-29 is one of the four meetings: the 2013 board after Tang's appointment, surnames only.
  const m2013 = docs('minutes').find((r) => r.meeting_date.startsWith('2013'));
  t.ok(m2013, 'a 2013 meeting in the smoke set');
  const names = new Set(rollCalls(pagesOf.get(m2013!.file)!).flatMap((c) => c.names));
  t.same([...names].sort(), [
    'Avalos',
    'Breed',
    'Campos',
    'Chiu',
    'Cohen',
    'Farrell',
    'Kim',
    'Mar',
    'Tang',
    'Wiener',
    'Yee',
  ]);
  const m2025 = docs('minutes').find((r) => r.meeting_date.startsWith('2025'))!;
  const names2025 = new Set(rollCalls(pagesOf.get(m2025.file)!).flatMap((c) => c.names));
  t.ok(names2025.has('Chan') && names2025.has('Chen') && !names2025.has('Peskin'), '2025: Chan and Chen, no Peskin');
  t.match(pagesOf.get(m2025.file)![0].lines.join('\n'), /RAFAEL MANDELMAN, PRESIDENT/);
});

t.test('file numbers carry the meeting year', async (t) => {
  for (const r of manifest.rows) {
    const text = pagesOf
      .get(r.file)!
      .map((p) => p.lines.join('\n'))
      .join('\n');
    const numbers = [...text.matchAll(/^ {10,12}(?:\d+\. +)?(\d{6}) /gm)].map((m) => m[1]);
    t.ok(numbers.length > 10);
    t.ok(
      numbers.every((n) => n.slice(0, 2) === r.meeting_date.slice(2, 4)),
      `${r.file}: YYNNNN`,
    );
  }
});

t.test('schedule: SCALE=1 ~700 Tuesdays, larger scales keep dates unique and in range', async (t) => {
  const one = schedule(1);
  t.ok(one.length >= 650 && one.length <= 720, `${one.length} meetings at SCALE=1`);
  for (const scale of [3, 10]) {
    const s = schedule(scale);
    const dates = s.map((x) => x.date);
    t.equal(new Set(dates).size, dates.length, `SCALE=${scale}: unique dates`);
    t.ok(dates[0] >= '2012-01-01' && dates[dates.length - 1] <= '2026-12-31');
    t.ok(Math.abs(s.length * s[0].density - one.length * scale) < 1, `SCALE=${scale}: meetings x density = ${scale}x`);
  }
  t.same(
    schedule(1, 4).map((s) => s.date),
    docs('minutes')
      .map((r) => r.meeting_date)
      .sort(),
  );
});
