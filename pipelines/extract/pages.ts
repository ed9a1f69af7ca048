// Raw PDF lines → page records: running header and footer split off, text quality judged (and repaired when possible).
import type { RawPage } from './layout.ts';

export type TextQuality = 'ok' | 'repaired' | 'garbage' | 'empty';

export interface PageText {
  page: number;
  header: string;
  footer: string;
  /** Body lines with layout kept (leading spaces carry indentation). */
  lines: string[];
  quality: TextQuality;
}

const shape = (line: string) => line.trim().replace(/\d+/g, '#').replace(/\s+/g, ' ');

/**
 * A line is a running header (footer) when its digit-blind shape opens (closes) at least half of the
 * document's pages. Legistar puts one of each on every page but the cover.
 */
export function splitRunning(pages: RawPage[]): PageText[] {
  const count = (pick: (p: RawPage) => string | undefined) => {
    const seen = new Map<string, number>();
    for (const p of pages) {
      const l = pick(p);
      if (l !== undefined) seen.set(shape(l), (seen.get(shape(l)) ?? 0) + 1);
    }
    return seen;
  };
  const need = Math.max(2, Math.ceil(pages.length / 2));
  const tops = count((p) => p.lines[0]);
  const bottoms = count((p) => p.lines[p.lines.length - 1]);
  return pages.map((p) => {
    let lines = p.lines;
    let header = '';
    let footer = '';
    if (lines.length > 0 && (tops.get(shape(lines[0])) ?? 0) >= need) {
      header = lines[0].trim().replace(/\s{2,}/g, '  ');
      lines = lines.slice(1);
    }
    const last = lines[lines.length - 1];
    if (last !== undefined && (bottoms.get(shape(last)) ?? 0) >= need) {
      footer = last.trim().replace(/\s{2,}/g, '  ');
      lines = lines.slice(0, -1);
    }
    const judged = judge(lines);
    return { page: p.page, header, footer, lines: judged.lines, quality: judged.quality };
  });
}

// Words that any page of board business holds several of; a page with letters but none of them is not English text.
const COMMON = new Set(
  'the of and to in a for on by with board supervisors city county san francisco meeting agenda minutes is at be that this from as or file ordinance resolution motion'.split(
    ' ',
  ),
);

/** Share of a page's words that are common English/board words (0 when there are none). */
export function englishScore(text: string): number {
  const ws = text.toLowerCase().match(/[a-z]+/g) ?? [];
  if (ws.length === 0) return 0;
  return ws.filter((w) => COMMON.has(w)).length / ws.length;
}

/**
 * Fonts without a Unicode map sometimes come out as a constant code shift (`%2$5'` for `BOARD`, shift 29).
 * Tries the shifts that map printable ASCII onto letters and keeps the one that reads as English.
 */
function unshift(text: string, by: number): string {
  // Spaces in layout padding are real; everything else printable or control-range may be shifted (space → \x03).
  return text.replace(/[\x00-\x09\x0b-\x1f!-~]/g, (c) => {
    const code = c.charCodeAt(0) + by;
    return code >= 32 && code <= 126 ? String.fromCharCode(code) : c;
  });
}

export function judge(lines: string[]): { lines: string[]; quality: TextQuality } {
  const text = lines.join('\n');
  if (!/\p{L}/u.test(text)) return { lines, quality: 'empty' };
  // Very short pages (`ADJOURNMENT`) pass when every word has a vowel; a cover with names only is judged leniently;
  // long pages must read as English.
  const all = text.match(/\p{L}+/gu) ?? [];
  const words = all.length;
  if (words < 8 && all.every((w) => /[aeiouy]/i.test(w))) return { lines, quality: 'ok' };
  const threshold = words < 40 ? 0.02 : 0.05;
  if (englishScore(text) >= threshold) return { lines, quality: 'ok' };
  for (const by of [29, -29, 3, -3]) {
    const fixed = lines.map((l) => unshift(l, by));
    if (englishScore(fixed.join('\n')) >= 0.1) return { lines: fixed, quality: 'repaired' };
  }
  return { lines, quality: 'garbage' };
}
