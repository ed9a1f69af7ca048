// The one layout rule both PDF readers feed (pdftotext.ts, pdfjs.ts): pieces of text with positions → page lines in
// reading order, indentation and column gaps as spaces.

/**
 * A piece of text on a page and where it is, in points with y upwards: a word (pdftotext) or a text run (pdf.js), never
 * blank. `y` is its vertical middle, `size` its font size, `width` its advance.
 */
export interface Glyph {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

export interface RawPage {
  page: number;
  lines: string[];
}

/** Points per layout column: Legistar PDFs are set in ~10pt type, so one column ≈ one character. */
const COLUMN_PT = 5;
/** A gap wider than this is a column gap (padded to the next piece's column); pdf.js keeps narrower ones inside a run. */
const COLUMN_GAP_PT = COLUMN_PT * 1.5;
/** A gap wider than this (and narrower than a column gap) is one space; narrower ones join the pieces. */
const WORD_GAP_PT = 0.8;

/** Positions to a hundredth of a point, as pdftotext prints them: x = 237.498 is column 48 from either reader. */
const hundredths = (g: Glyph): Glyph => ({
  ...g,
  x: Math.round(g.x * 100) / 100,
  width: Math.round(g.width * 100) / 100,
});

/**
 * Groups pieces into lines (top to bottom), orders each line left to right and turns gaps into spaces: a gap above
 * COLUMN_GAP_PT pads to the piece's column (at least two spaces), one above WORD_GAP_PT is a space. The rule reads only
 * the gaps between pieces, so pdftotext's words and pdf.js's runs (whose inner gaps are all narrower than a column gap)
 * give the same lines.
 */
export function layoutLines(glyphs: Glyph[]): string[] {
  const sorted = glyphs
    .filter((g) => g.str.trim() !== '')
    .map(hundredths)
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: Glyph[][] = [];
  for (const g of sorted) {
    const row = rows[rows.length - 1];
    const tolerance = Math.max(2, (row?.[0].size ?? 0) * 0.4);
    if (row && Math.abs(row[0].y - g.y) <= tolerance) row.push(g);
    else rows.push([g]);
  }
  return rows
    .map((row) => {
      row.sort((a, b) => a.x - b.x);
      let line = '';
      let end = 0; // x where the text so far ends
      for (const g of row) {
        const column = Math.round(g.x / COLUMN_PT);
        if (line === '') line = ' '.repeat(column);
        else {
          const gap = g.x - end;
          if (gap > COLUMN_GAP_PT) line += ' '.repeat(Math.max(2, column - line.length));
          else if (gap > WORD_GAP_PT && !line.endsWith(' ') && !g.str.startsWith(' ')) line += ' ';
        }
        line += g.str;
        end = g.x + g.width;
      }
      return line.replace(/\s+$/, '');
    })
    .filter((l) => l !== '');
}
