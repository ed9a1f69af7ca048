// What the lake holds, stated with every answer that counts or filters: the meetings of the span asked about, and of
// those, how many have minutes, recorded votes and public comment. No answer may read as if the lake held 2012–2026
// whole when it holds one meeting's minutes.
import type { MeetingCoverage } from '../../core/lake/coverage.ts';
import type { Release } from '../lake/release.ts';
import type { Links } from './links.ts';
import { MAX_YEAR, MIN_YEAR, type YearRange } from './years.ts';

/** Every meeting of the release, by date (its coverage table: a few thousand rows at most, held per release). */
export function meetingsCoverage(release: Release): Promise<MeetingCoverage[]> {
  return release.memo('coverage', async () => {
    const rows = await release.pool.rows(`
      SELECT strftime(meeting_date, '%Y-%m-%d') AS date, year::INTEGER AS year, documents, agenda, minutes, pages::INTEGER AS pages,
             items::INTEGER AS items, roll_calls::INTEGER AS "rollCalls", comments::INTEGER AS comments, synthetic
      FROM coverage ORDER BY meeting_date`);
    return rows as unknown as MeetingCoverage[];
  });
}

/** How much of a span of years the lake holds. */
export interface SpanCoverage {
  from: number;
  to: number;
  /** One meeting asked about (a `date` filter), or null. */
  date: string | null;
  meetings: number;
  meetingsWithAgenda: number;
  meetingsWithMinutes: number;
  meetingsWithRollCalls: number;
  meetingsWithComments: number;
  firstMeeting: string | null;
  lastMeeting: string | null;
  /** Years of the span with at least one meeting. */
  years: number[];
  /** The meetings with recorded votes, when there are at most ten of them (else empty: see /api/coverage). */
  rollCallMeetings: string[];
  synthetic: boolean;
  /** The same in words, for people and agents. */
  statement: string;
}

const LISTED = 10;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `2016, 2017, 2019–2020` */
function yearRuns(years: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < years.length;) {
    let j = i;
    while (j + 1 < years.length && years[j + 1] === years[j] + 1) j++;
    runs.push(j === i ? String(years[i]) : `${years[i]}–${years[j]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

const span = (from: number, to: number) => (from === to ? String(from) : `${from}–${to}`);

function dates(list: string[]): string {
  return list.length === 0 ? '' : list.length <= LISTED ? ` (${list.join(', ')})` : ` (${list[0]} to ${list.at(-1)})`;
}

/** The coverage of a span of years, or of one meeting date within it, from the meeting list (dates sorted). */
export function spanOf(all: MeetingCoverage[], from: number, to: number, date: string | null = null): SpanCoverage {
  const meetings = all.filter((m) => m.year >= from && m.year <= to && (date === null || m.date === date));
  const withMinutes = meetings.filter((m) => m.minutes).map((m) => m.date);
  const withVotes = meetings.filter((m) => m.rollCalls > 0).map((m) => m.date);
  const withComments = meetings.filter((m) => m.comments > 0).map((m) => m.date);
  const years = [...new Set(meetings.map((m) => m.year))];
  const asked = date ? `on ${date}` : `in ${span(from, to)}`;
  const statement =
    meetings.length === 0
      ? `The lake holds no meeting ${asked}: nothing here is counted or found for ${date ? 'that date' : 'those years'}.`
      : [
          `The lake holds documents of ${plural(meetings.length, 'meeting')} ${asked}${date ? '' : ` (${meetings[0].date} to ${meetings.at(-1)!.date}; ${years.length === 1 ? 'year' : 'years'} ${yearRuns(years)})`}.`,
          `Minutes exist for ${withMinutes.length} of them${dates(withMinutes)}; recorded votes for ${withVotes.length}${dates(withVotes)}; public comment for ${withComments.length}${dates(withComments)}.`,
          withVotes.length < meetings.length
            ? 'Counts of votes and comments cover only those meetings, not the whole span.'
            : '',
        ]
          .filter(Boolean)
          .join(' ');
  return {
    from,
    to,
    date,
    meetings: meetings.length,
    meetingsWithAgenda: meetings.filter((m) => m.agenda).length,
    meetingsWithMinutes: withMinutes.length,
    meetingsWithRollCalls: withVotes.length,
    meetingsWithComments: withComments.length,
    firstMeeting: meetings[0]?.date ?? null,
    lastMeeting: meetings.at(-1)?.date ?? null,
    years,
    rollCallMeetings: withVotes.length <= LISTED ? withVotes : [],
    synthetic: meetings.length > 0 && meetings.every((m) => m.synthetic),
    statement,
  };
}

/** The coverage of a span of the release, or of one meeting date in it (what answers carry as `coverage`). */
export async function coverageOf(release: Release, range: YearRange, date?: string): Promise<SpanCoverage> {
  return spanOf(await meetingsCoverage(release), range.from, range.to, date ?? null);
}

export interface CoverageParams {
  from: number;
  to: number;
}

/** `GET /api/coverage`: the span, and each year of it with what the lake holds. */
export async function coverageReport(release: Release, links: Links, p: CoverageParams) {
  const all = await meetingsCoverage(release);
  const years = [];
  for (let year = p.from; year <= p.to; year++) {
    const inYear = all.filter((m) => m.year === year);
    const count = (f: (m: MeetingCoverage) => boolean) => inYear.filter(f).length;
    const sum = (f: (m: MeetingCoverage) => number) => inYear.reduce((s, m) => s + f(m), 0);
    years.push({
      year,
      meetings: inYear.length,
      agendas: count((m) => m.agenda),
      minutes: count((m) => m.minutes),
      meetingsWithRollCalls: count((m) => m.rollCalls > 0),
      meetingsWithComments: count((m) => m.comments > 0),
      pages: sum((m) => m.pages),
      items: sum((m) => m.items),
      rollCalls: sum((m) => m.rollCalls),
      comments: sum((m) => m.comments),
      firstMeeting: inYear[0]?.date ?? null,
      lastMeeting: inYear.at(-1)?.date ?? null,
      meetingsUrl: links.meetings({ year }),
    });
  }
  return { coverage: spanOf(all, p.from, p.to), years, release: release.id };
}

export const FULL_SPAN: YearRange = { from: MIN_YEAR, to: MAX_YEAR };
