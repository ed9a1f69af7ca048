// PDF → per-page text with layout kept (lines in reading order, indentation as leading spaces), via pdf.js.
import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export const EXTRACTOR = 'pdfjs-dist@5.6.205/layout-v1';

interface Glyph { str: string; x: number; y: number; width: number; height: number }

export interface RawPage { page: number; lines: string[] }

/** Points per layout column: Legistar PDFs are set in ~10pt type, so one column ≈ one character. */
const COLUMN_PT = 5;

export async function extractPages(path: string): Promise<RawPage[]> {
  const data = new Uint8Array(await readFile(path));
  const doc = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: RawPage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const glyphs: Glyph[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.length === 0) continue;
        glyphs.push({ str: item.str, x: item.transform[4], y: item.transform[5], width: item.width, height: item.height });
      }
      pages.push({ page: n, lines: layoutLines(glyphs) });
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/** Groups glyph runs into lines (top to bottom), orders each line left to right and turns gaps into spaces. */
export function layoutLines(glyphs: Glyph[]): string[] {
  const sorted = glyphs.filter((g) => g.str.trim() !== '' || g.width > 0).sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: Glyph[][] = [];
  for (const g of sorted) {
    const row = rows[rows.length - 1];
    const tolerance = Math.max(2, (row?.[0].height ?? 0) * 0.4);
    if (row && Math.abs(row[0].y - g.y) <= tolerance) row.push(g);
    else rows.push([g]);
  }
  return rows.map((row) => {
    row.sort((a, b) => a.x - b.x);
    let line = '';
    let end = 0; // x where the text so far ends
    for (const g of row) {
      const column = Math.round(g.x / COLUMN_PT);
      if (line === '') line = ' '.repeat(column);
      else {
        const gap = g.x - end;
        if (gap > COLUMN_PT * 1.5) line += ' '.repeat(Math.max(2, column - line.length));
        else if (gap > 0.8 && !line.endsWith(' ') && !g.str.startsWith(' ')) line += ' ';
      }
      line += g.str;
      end = g.x + g.width;
    }
    return line.replace(/\s+$/, '');
  }).filter((l) => l !== '');
}
