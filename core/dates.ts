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
    const word = m[1].toLowerCase();
    const month = MONTH_NAMES.findIndex((name) => name === word || (word.length >= 3 && name.startsWith(word))) + 1;
    const iso = month > 0 ? isoDate(Number(m[3]), month, Number(m[2])) : null;
    if (iso) return iso;
  }
  return null;
}
