// PDF → raw page lines via pdf.js (the legacy build): the reader where poppler is not installed, and for documents
// whose pdftotext text does not read as text (pdf.ts). Loaded on first use, so a thread that never needs it never
// holds it.
import { readFile } from 'node:fs/promises';

import { type Glyph, layoutLines, type RawPage } from './layout.ts';

export const PDFJS = 'pdfjs-dist@5.6.205';

/**
 * pdf.js's text runs as layout pieces. Runs of blank text are dropped: pdf.js emits one for a wide gap inside a text
 * object, and the gap itself is what the layout rule reads. `y` is the baseline raised by 0.35 em, about the middle of
 * the letters, where pdftotext's word boxes have theirs.
 */
function glyphsOf(items: readonly object[]): Glyph[] {
  const glyphs: Glyph[] = [];
  for (const item of items) {
    if (!('str' in item) || (item as { str: string }).str.trim() === '') continue;
    const { str, transform, width, height } = item as {
      str: string;
      transform: number[];
      width: number;
      height: number;
    };
    glyphs.push({ str, x: transform[4], y: transform[5] + 0.35 * height, width, size: height });
  }
  return glyphs;
}

export async function pdfjsPages(path: string): Promise<RawPage[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = new Uint8Array(await readFile(path));
  const doc = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: RawPage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      pages.push({ page: n, lines: layoutLines(glyphsOf((await page.getTextContent()).items)) });
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}
