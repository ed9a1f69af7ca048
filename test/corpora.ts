// Small corpora for release-to-release and corpus-shape tests: a few PDFs from ../shared/corpus copied into a temp
// folder with a MANIFEST.tsv, optionally with one document's bytes replaced by another PDF's (a "modified" document);
// the real minutes without their public-comment pages; a synthetic year; a synthetic meeting printing hostile text.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from 'pdf-lib';

import { buildRelease, type BuildResult } from '../pipelines/build.ts';
import { extractPages } from '../pipelines/extract/pdf.ts';
import { generate, loadInputs, MANIFEST_COLUMNS, slotsFor, SYNTHETIC_BASE } from '../pipelines/synthetic/generate.ts';
import { planMeeting } from '../pipelines/synthetic/meeting.ts';
import { renderAgenda, renderMinutes } from '../pipelines/synthetic/render.ts';
import { bagStem } from '../pipelines/synthetic/text.ts';
import { CORPUS, ROOT } from './fixture.ts';

/**
 * file name in the corpus → the corpus file whose bytes it gets (itself unless replaced); `revised:<file>` gives that
 * file without its last page (a revised agenda: the same meeting and cover, other bytes).
 */
export async function makeCorpus(files: Record<string, string> | string[]): Promise<string> {
  const map = Array.isArray(files) ? Object.fromEntries(files.map((f) => [f, f])) : files;
  const dir = await mkdtemp(join(tmpdir(), 'corpus-'));
  await mkdir(join(dir, 'pdfs'));
  const [head, ...rows] = (await readFile(join(CORPUS, 'MANIFEST.tsv'), 'utf8')).split('\n').filter(Boolean);
  const cols = head.split('\t');
  const out = [head];
  for (const [name, source] of Object.entries(map)) {
    const row = rows.find((r) => r.startsWith(`pdfs/${name}\t`));
    if (!row) throw new Error(`${name} is not in the corpus`);
    if (source.startsWith('revised:'))
      await writeFile(join(dir, 'pdfs', name), await revisedPdf(join(CORPUS, 'pdfs', source.slice(8))));
    else await copyFile(join(CORPUS, 'pdfs', source), join(dir, 'pdfs', name));
    const values = row.split('\t');
    if (source !== name) {
      // Other bytes under this name: the declared size, pages and sha256 no longer apply.
      for (const c of ['pages', 'bytes', 'sha256']) values[cols.indexOf(c)] = '';
    }
    out.push(values.join('\t'));
  }
  await writeFile(join(dir, 'MANIFEST.tsv'), out.join('\n') + '\n');
  return dir;
}

/** The Members Present of the real 2016-11-01 minutes, in their order: the parser's and the meeting record's roll. */
export const MEMBERS_2016_11_01 = [
  'John Avalos',
  'London Breed',
  'David Campos',
  'Malia Cohen',
  'Mark Farrell',
  'Jane Kim',
  'Eric Mar',
  'Aaron Peskin',
  'Katy Tang',
  'Scott Wiener',
  'Norman Yee',
];

export const newLake = () => mkdtemp(join(tmpdir(), 'lake-'));

export function build(corpus: string, lake: string, createdAt?: string): Promise<BuildResult> {
  return buildRelease({ corpus, lake, cacheDir: join(ROOT, '.cache', 'extract'), keep: 5, quiet: true, createdAt });
}

const tsvRow = (values: string[]) => values.join('\t');

/**
 * The real minutes with the pages that carry the public-comment section removed (pdf-lib, the real layout otherwise
 * kept), labelled synthetic in its name, its PDF title and the manifest's `synthetic` column.
 */
export async function minutesWithoutComment(): Promise<string> {
  const source = join(CORPUS, 'pdfs', 'bag110116_minutes.pdf');
  const commentPages = (await extractPages(source))
    .filter((p) => p.lines.some((l) => /^\s*PUBLIC COMMENT\s*$/.test(l)))
    .map((p) => p.page);
  if (commentPages.length === 0) throw new Error('the real minutes no longer show a PUBLIC COMMENT heading');
  const pdf = await PDFDocument.load(await readFile(source), { updateMetadata: false });
  for (const page of [...commentPages].reverse()) pdf.removePage(page - 1);
  pdf.setTitle(
    'SYNTHETIC TEST DOCUMENT: Board of Supervisors minutes of November 1, 2016 without the public-comment pages',
  );
  const data = await pdf.save({ useObjectStreams: true, addDefaultPage: false });
  const dir = await mkdtemp(join(tmpdir(), 'corpus-'));
  await mkdir(join(dir, 'pdfs'));
  const name = 'bag110116_minutes_synthetic.pdf';
  await writeFile(join(dir, 'pdfs', name), data);
  await writeFile(
    join(dir, 'MANIFEST.tsv'),
    [
      tsvRow([...MANIFEST_COLUMNS]),
      tsvRow([
        `pdfs/${name}`,
        '2016-11-01',
        'minutes',
        String(pdf.getPageCount()),
        String(data.length),
        createHash('sha256').update(data).digest('hex'),
        SYNTHETIC_BASE + name,
        '',
        'true',
      ]),
    ].join('\n') + '\n',
  );
  return dir;
}

/** A few meetings (agenda and minutes each) of one year from the synthetic generator, labelled synthetic as it does. */
export async function syntheticYear(year: number, meetings: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'corpus-'));
  await generate({ dest: dir, year, meetings });
  return dir;
}

/** What a hostile document prints where Markdown would read structure; each names the structure it tries with `HX…`. */
export const HOSTILE = {
  script: '<script>alert("HXSCRIPT")</script>',
  img: '<img src=x onerror=alert(1)> HXIMG',
  heading: '# HXHEADING [HXLINK](javascript:alert(1))',
  lines: [
    '```',
    '# HXHEADING [HXLINK](javascript:alert(1))',
    '- HXLIST item',
    '1. HXORDERED item',
    '> HXQUOTE',
    '***',
    '<script>alert("HXSCRIPT")</script>',
    '![HXIMAGE](https://example.org/x.png) *HXEMPH* `HXCODE` &lt;HXENTITY&gt;',
    '| HXTABLE | b |',
    'HXSETEXT',
    '===',
    '~~~~',
  ],
};

/**
 * One synthetic meeting (agenda and minutes of 2016-06-14 from the synthetic generator, labelled synthetic as it
 * labels them) whose first item, first speaker and notes print the HOSTILE text: in the item's short and long title,
 * as lines of their own after it, in a speaker's name and summary.
 */
export async function hostileMeeting(): Promise<{ dir: string; date: string; file: string; speaker: string }> {
  const slot = slotsFor(1, 1, 2016)[0];
  const m = planMeeting(loadInputs('board-records'), slot);
  const item = m.sections[0].groups[0].items[0];
  item.name = `${HOSTILE.script} ${HOSTILE.img} *HXEMPH*`;
  item.title = `${HOSTILE.heading} ${HOSTILE.script} Ordinance amending the Planning Code to allow 120 housing units.`;
  item.notes = [...HOSTILE.lines];
  const speaker = 'Hostile Speaker HXSPEAKER';
  m.speakers[0] = {
    name: speaker,
    statement: `shared concerns ${HOSTILE.heading} ${HOSTILE.script} ${HOSTILE.img} \`\`\` *HXEMPH*`,
  };
  const dir = await mkdtemp(join(tmpdir(), 'corpus-'));
  await mkdir(join(dir, 'pdfs'));
  const rows: string[][] = [];
  for (const [kind, render] of [
    ['agenda', renderAgenda],
    ['minutes', renderMinutes],
  ] as const) {
    const { data, pages } = await render(m);
    const name = `${bagStem(slot.date)}_${kind}_synthetic.pdf`;
    await writeFile(join(dir, 'pdfs', name), data);
    const sha = createHash('sha256').update(data).digest('hex');
    rows.push([
      `pdfs/${name}`,
      slot.date,
      kind,
      String(pages),
      String(data.length),
      sha,
      SYNTHETIC_BASE + name,
      '',
      'true',
    ]);
  }
  await writeFile(join(dir, 'MANIFEST.tsv'), [[...MANIFEST_COLUMNS], ...rows].map(tsvRow).join('\n') + '\n');
  return { dir, date: slot.date, file: item.file, speaker };
}

/**
 * A one-page PDF encrypted by the standard security handler with a user password nobody has (an /Encrypt entry whose
 * /U matches no password): what a password-protected upload looks like to a reader.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Tuesday, January 9, 2018 - 2:00 PM', {
    x: 50,
    y: 700,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  const ctx = doc.context;
  ctx.trailerInfo.Encrypt = ctx.obj({
    Filter: PDFName.of('Standard'),
    V: PDFNumber.of(1),
    R: PDFNumber.of(2),
    O: PDFHexString.of('11'.repeat(32)),
    U: PDFHexString.of('22'.repeat(32)),
    P: PDFNumber.of(-44),
  });
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of('33'.repeat(16)), PDFHexString.of('33'.repeat(16))]);
  return doc.save({ useObjectStreams: false });
}

/** The PDF without its last page, saved again: the same meeting's document, revised. */
export async function revisedPdf(path: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await readFile(path));
  doc.removePage(doc.getPageCount() - 1);
  return doc.save();
}
