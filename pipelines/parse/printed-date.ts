// The meeting date a document prints on its cover ("Tuesday, November 1, 2016 - 2:00 PM"): a second witness to the
// date its manifest row or file name gives, so a minutes PDF filed under another meeting is caught before its roll
// calls are dated by the wrong meeting.
import { namedDate } from '../../core/dates.ts';
import type { PageText } from '../extract/pages.ts';

const WEEKDAY_DATE = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+([a-z]+\.?\s+\d{1,2},?\s+\d{4})/i;

/** The first `Weekday, Month D, YYYY` on the first page (cover lines, header included) as ISO, or null if none. */
export function printedDate(pages: PageText[]): string | null {
  const first = pages.find((p) => p.page === 1);
  if (!first) return null;
  const m = WEEKDAY_DATE.exec([first.header, ...first.lines, first.footer].join('\n'));
  return m ? namedDate(m[1]) : null;
}
