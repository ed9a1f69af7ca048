// What the lake holds, in words a resident reads: beside every count, in every empty state. Made from the `coverage`
// object every counting answer carries (src/queries/coverage.ts), never from a guess.
import type { SpanCoverage } from '../../queries/coverage.ts';
import { day, esc } from './layout.ts';

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `in 2016–2020`, `in 2017`: where the meetings asked about lie. */
function where(c: SpanCoverage): string {
  const years = c.years.length ? [c.years[0], c.years.at(-1)!] : [c.from, c.to];
  return `in ${years[0] === years[1] ? years[0] : `${years[0]}–${years[1]}`}`;
}

const listed = (dates: string[], n: number) => (n > 0 && dates.length === n ? `: ${dates.map(day).join(', ')}` : '');

export function coverageSentences(c: SpanCoverage): string[] {
  if (c.meetings === 0) {
    return [
      `The lake holds no meeting ${c.date ? `on ${day(c.date)}` : `in ${c.from === c.to ? c.from : `${c.from}–${c.to}`}`}, so nothing can be found there.`,
    ];
  }
  if (c.date) {
    const held = c.meetingsWithMinutes ? 'minutes' : 'agenda';
    const votes = c.meetingsWithRollCalls ? 'with its recorded votes' : 'without recorded votes';
    return [
      `The records hold the ${held} of this meeting, ${votes}${c.meetingsWithComments ? ' and its public comment' : ''}.`,
    ];
  }
  const span = where(c);
  const out = [
    `Agendas or minutes exist for ${count(c.meetings, 'meeting')} ${span}${c.meetings === 1 ? '' : ` (${day(c.firstMeeting!)} to ${day(c.lastMeeting!)})`}.`,
    `Recorded votes exist for ${count(c.meetingsWithRollCalls, 'meeting')} ${span}${listed(c.rollCallMeetings, c.meetingsWithRollCalls)}.`,
  ];
  if (c.meetingsWithComments !== c.meetingsWithRollCalls)
    out.push(`Public comment is recorded for ${count(c.meetingsWithComments, 'meeting')}.`);
  if (c.meetingsWithRollCalls < c.meetings) out.push('Votes and comments are counted only in those meetings.');
  return out;
}

/** The coverage paragraph, with a link to the year-by-year page (left out on that page itself). */
export const coverageHtml = (c: SpanCoverage, link = true) =>
  `<p class="coverage"><strong>What the records cover:</strong> ${esc(coverageSentences(c).join(' '))}${link ? ' <a href="/meetings#coverage">Coverage by year</a>' : ''}</p>`;
