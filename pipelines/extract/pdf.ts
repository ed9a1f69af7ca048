// PDF → per-page text with layout kept (lines in reading order, indentation as leading spaces): pdftotext where poppler
// is installed, pdf.js otherwise, both through one layout rule (layout.ts), so either gives the same lines.
import type { RawPage } from './layout.ts';
import { judge } from './pages.ts';
import { PDFJS, pdfjsPages } from './pdfjs.ts';
import { PDFTOTEXT, pdftotextPages } from './pdftotext.ts';

export type { RawPage } from './layout.ts';

export const EXTRACTOR = `layout-v2: ${PDFTOTEXT} (poppler), else ${PDFJS}`;

/**
 * A page pdftotext read as something other than text: the font has no Unicode map and poppler printed its codes
 * (`%2$5'` for `BOARD`, without the spaces), where pdf.js decodes the glyph names.
 */
const unreadable = (p: RawPage) => {
  const q = judge(p.lines).quality;
  return q === 'garbage' || q === 'repaired';
};

/** The document's pages: pdftotext's unless poppler is missing, fails, or reads a page as garbage; then pdf.js's. */
export async function extractPages(path: string): Promise<RawPage[]> {
  const fast = await pdftotextPages(path);
  return fast && !fast.some(unreadable) ? fast : pdfjsPages(path);
}
