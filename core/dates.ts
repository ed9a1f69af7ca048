// Calendar dates as the Board's documents and pages print them, read into ISO dates: one reading for the fetcher,
// the corpus reader and the parser.

export const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A real calendar date as ISO, or null (2/30, 13/1). */
export function isoDate(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.toISOString().slice(0, 10);
}

/** `2016-11-01` and a real date. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m !== null && isoDate(Number(m[1]), Number(m[2]), Number(m[3])) === s;
}

const NAMED = /\b([a-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})\b/gi;

/** The first real `Month D, YYYY` in the text (`November 1, 2016`, `Nov. 1 2016`) as ISO, or null. */
export function namedDate(text: string): string | null {
  for (const m of text.matchAll(NAMED)) {
    const month = monthOf(m[1]);
    const iso = month > 0 ? isoDate(Number(m[3]), month, Number(m[2])) : null;
    if (iso) return iso;
  }
  return null;
}

/** A full date written in a text, where it is. */
export interface DateMention {
  iso: string;
  start: number;
  end: number;
}

const WRITTEN_DATES: { re: RegExp; parts: (m: RegExpMatchArray) => [number, number, number] }[] = [
  // 2016-11-01
  { re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  // 11/1/2016, 11/1/16
  {
    re: /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g,
    parts: (m) => [m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3]), Number(m[1]), Number(m[2])],
  },
  // (Tuesday,) November 1(st), 2016 · Nov. 1 2016
  {
    re: /\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/gi,
    parts: (m) => [Number(m[3]), monthOf(m[1]), Number(m[2])],
  },
  // 1 November 2016
  {
    re: /\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?,?\s+(\d{4})\b/gi,
    parts: (m) => [Number(m[3]), monthOf(m[2]), Number(m[1])],
  },
];

/** `nov`, `Sept`, `November` → 11; 0 when not a month. */
export function monthOf(word: string): number {
  const w = word.toLowerCase();
  return MONTH_NAMES.findIndex((name) => name === w || (w.length >= 3 && name.startsWith(w))) + 1;
}

/** Every real full date written in the text (ISO, `M/D/YYYY`, `Month D, YYYY`, `D Month YYYY`), in text order. */
export function datesIn(text: string): DateMention[] {
  const out: DateMention[] = [];
  for (const { re, parts } of WRITTEN_DATES) {
    for (const m of text.matchAll(re)) {
      const [y, mo, d] = parts(m);
      const iso = mo > 0 ? isoDate(y, mo, d) : null;
      const span = { start: m.index!, end: m.index! + m[0].length };
      if (iso && !out.some((o) => o.start < span.end && span.start < o.end)) out.push({ iso, ...span });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
