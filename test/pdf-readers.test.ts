// The two PDF readers on the real corpus (../shared/corpus, never copied): pdftotext (the fast path) and pdf.js (the
// fallback) give the same lines on every page of the 37 agendas and the minutes, through the one layout rule.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import t from 'tap';

import { layoutLines } from '../pipelines/extract/layout.ts';
import { extractPages } from '../pipelines/extract/pdf.ts';
import { pdfjsPages } from '../pipelines/extract/pdfjs.ts';
import { pagesOfTsv, pdftotextPages, readColumns } from '../pipelines/extract/pdftotext.ts';

const PDFS = process.env.CORPUS
  ? join(process.env.CORPUS, 'pdfs')
  : new URL('../../shared/corpus/pdfs', import.meta.url).pathname;
const files = readdirSync(PDFS)
  .filter((f) => f.endsWith('.pdf'))
  .sort();

t.test('pdftotext and pdf.js read the same lines on every page of the real corpus', async (t) => {
  t.equal(files.length, 38, '37 agendas and the minutes');
  const fast: string[] = [];
  let pages = 0;
  for (const file of files) {
    const path = join(PDFS, file);
    const [viaPdfjs, chosen, viaPdftotext] = [
      await pdfjsPages(path),
      await extractPages(path),
      await pdftotextPages(path),
    ];
    t.same(chosen, viaPdfjs, `${file}: the pages the build reads are pdf.js's, line for line`);
    if (viaPdftotext !== null && JSON.stringify(viaPdftotext) === JSON.stringify(chosen)) fast.push(file);
    pages += viaPdfjs.length;
  }
  t.equal(pages, 890);
  // One agenda prints its first two pages in a font without a Unicode map: poppler prints its codes, pdf.js its glyph names.
  t.same(
    files.filter((f) => !fast.includes(f)),
    ['bag111219_agenda.pdf'],
    'every other document is read by pdftotext',
  );
  const [p1] = await extractPages(join(PDFS, 'bag111219_agenda.pdf'));
  t.match(p1.lines.join('\n'), /BOARD OF SUPERVISORS/);
  t.match(
    (await pdftotextPages(join(PDFS, 'bag111219_agenda.pdf')))![0].lines.join('\n'),
    /%2\$5'\x032\)\x03683\(59,6256/,
    'its codes, the space as \\x03',
  );
});

t.test('the minutes: a file number and its title in their columns', async (t) => {
  const pages = await extractPages(join(PDFS, 'bag110116_minutes.pdf'));
  const text = pages.map((p) => p.lines.join('\n')).join('\n');
  t.match(text, /^ {11}161144 {3}\[Settlement of Unliltigated Claim - BHR Operations, LLC - \$169,263\.18\]$/m);
});

t.test('the layout rule reads gaps, not how the pieces were cut', async (t) => {
  const at = (str: string, x: number, width: number) => ({ str, x, y: 700, width, size: 10 });
  // One run with inner spaces, or its words one by one with narrow gaps: the same line.
  t.same(
    layoutLines([at('Board of Supervisors', 72, 90)]),
    layoutLines([at('Board', 72, 25), at('of', 100, 10), at('Supervisors', 113, 49)]),
  );
  t.same(
    layoutLines([at('1.', 54, 8), at('161015', 86, 30), at('[Title]', 144, 30)]),
    ['           1.    161015      [Title]'],
    'wide gaps pad to the column',
  );
  t.same(layoutLines([at('Dr.', 72, 14), at('Carlton', 86.5, 30)]), ['              Dr.Carlton'], 'no gap, no space');
  t.same(layoutLines([at('B', 72, 6), at('line two', 72, 30)].map((g, i) => ({ ...g, y: 700 - 12 * i }))), [
    '              B',
    '              line two',
  ]);
});

t.test('pdftotext TSV: pages by level 1 rows, words by level 5, empty pages kept', async (t) => {
  const tsv = [
    'level\tpage_num\tpar_num\tblock_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '1\t1\t0\t0\t0\t0\t0\t0\t612\t792\t-1\t###PAGE###',
    '5\t1\t0\t0\t0\t0\t72\t100\t25\t11.17\t100\tBoard',
    '5\t1\t0\t0\t0\t1\t100\t100\t10\t11.17\t100\tof',
    '1\t2\t0\t0\t0\t0\t0\t0\t612\t792\t-1\t###PAGE###',
  ].join('\n');
  t.same(pagesOfTsv(tsv), [
    { page: 1, lines: ['              Board of'] },
    { page: 2, lines: [] },
  ]);
});

t.test(
  'pdftotext TSV columns: numbers as Number() reads them, text after the eleventh tab, short rows refused',
  async (t) => {
    const read = (row: string) => {
      const column = new Float64Array(11);
      const text = readColumns(row, 0, row.length, column);
      return { columns: [...column.subarray(1)], text: text < 0 ? null : row.slice(text) };
    };
    t.same(
      read('1\t0\t2\t3\t4\t72.000000\t-3.500000\t25.125000\t11.170000\t100\tBoard of\tSupervisors'),
      { columns: [1, 0, 2, 3, 4, 72, -3.5, 25.125, 11.17, 100], text: 'Board of\tSupervisors' },
      'a negative coordinate; the text keeps its spaces and tabs',
    );
    t.same(
      read('1\t0\t0\t0\t\tnan\t1e2\t-\t5-1\t-1\t'),
      { columns: [1, 0, 0, 0, NaN, NaN, NaN, NaN, NaN, -1], text: '' },
      'what is not a plain decimal is NaN: an empty column, nan, an exponent, a lone minus, an inner minus',
    );
    t.same(
      read('1\t0\t0\t72.5'),
      { columns: [1, 0, 0, 72.5, NaN, NaN, NaN, NaN, NaN, NaN], text: null },
      'a row of fewer than twelve columns has no text',
    );
    // pdftotext prints %f: six decimals. Digits over a power of ten round exactly as the decimal does.
    let state = 7;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    const differing = Array.from({ length: 20000 }, () => (random() * 2000 - 500).toFixed(6)).filter(
      (v) => read(`1\t1\t1\t1\t1\t${v}\t0\t0\t0\t0\tw`).columns[5] !== Number(v),
    );
    t.same(differing, [], 'the same doubles as Number() over 20,000 coordinates');
  },
);
