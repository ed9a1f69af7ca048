// PDF → raw page lines via poppler's `pdftotext -tsv`, one process per document: the fast path where poppler is
// installed. Its words go through the same layout rule as pdf.js's runs (layout.ts).
import { execFile } from 'node:child_process';
import { layoutLines, type Glyph, type RawPage } from './layout.ts';

export const PDFTOTEXT = 'pdftotext -tsv';

/**
 * pdftotext's word boxes run from the font's descent to its ascent: about 1.12 em in the fonts of these PDFs. Only the
 * line grouping's tolerance reads the size.
 */
const BOX_EM = 1.117;

let installed = true;

/** The TSV's pages: level 1 rows open a page (its height in `height`), level 5 rows are its words. */
export function pagesOfTsv(tsv: string): RawPage[] {
  const pages: { height: number; glyphs: Glyph[] }[] = [];
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c[0] === '1') pages.push({ height: Number(c[9]), glyphs: [] });
    else if (c[0] === '5' && c.length >= 12) {
      const page = pages[Number(c[1]) - 1];
      const [left, top, width, height] = [Number(c[6]), Number(c[7]), Number(c[8]), Number(c[9])];
      page.glyphs.push({ str: c.slice(11).join('\t'), x: left, y: page.height - (top + height / 2), width, size: height / BOX_EM });
    }
  }
  return pages.map((p, i) => ({ page: i + 1, lines: layoutLines(p.glyphs) }));
}

/** The document's pages, or null when poppler is not installed or pdftotext cannot read the file. */
export function pdftotextPages(path: string): Promise<RawPage[] | null> {
  if (!installed) return Promise.resolve(null);
  return new Promise((done) => {
    execFile('pdftotext', ['-q', '-tsv', path, '-'], { encoding: 'utf8', maxBuffer: 1 << 30 }, (error, stdout) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') installed = false;
      done(error ? null : pagesOfTsv(stdout));
    });
  });
}
