// What every source adapter answers (one adapter per host, pipelines/fetch/sources/): the meetings it lists, each
// with the documents it links, the rows its meeting pages print (Legistar), and every failure as a named problem.
// The fetcher (fetcher.ts) merges the meetings of all sources, adds each host's URL patterns, and reports per source
// and year (report.ts).
import type { FetchConfig, SourceName } from './config.ts';
import type { HttpClient } from './http.ts';
import type { Robots } from './robots.ts';

export type Kind = 'agenda' | 'minutes';

/** A failure a run must report (and exit non-zero for): the URL asked, what was expected, what came instead. */
export interface SourceFailure {
  source: SourceName;
  url: string;
  expected: string;
  message: string;
}

/** One document a source links for a meeting. */
export interface ListedDocument {
  kind: Kind;
  /** Where the source links it (absolute, possibly under a mirror's base). */
  url: string;
}

/** One meeting a source lists. */
export interface ListedMeeting {
  /** ISO date of the meeting (from the listing's own date, never from a file name alone when a date is printed). */
  meetingDate: string;
  /** Regular, special, rescheduled…: as the source names it, or null. */
  label: string | null;
  documents: ListedDocument[];
  /** The page the meeting was read from (listing page, feed, meeting page), for the report. */
  foundAt: string;
}

/**
 * One row of a Legistar meeting page's grid (MeetingDetail.aspx): what Legistar records of a file at that meeting.
 * Written by the fetcher to `legistar/meeting_items.csv` in the corpus (the columns of the grid's own export, with
 * the meeting's date and page first), read by the build as a second witness to the roll calls of the minutes.
 */
export interface MeetingItem {
  meetingDate: string;
  /** The MeetingDetail.aspx URL under the public Legistar base. */
  meetingUrl: string;
  fileNumber: string;
  version: string;
  agendaNumber: string;
  name: string;
  type: string;
  status: string;
  title: string;
  action: string;
  result: string;
}

export interface SourceContext {
  cfg: FetchConfig;
  http: HttpClient;
  robots: Robots;
}

export interface Discovery {
  source: SourceName;
  meetings: ListedMeeting[];
  meetingItems: MeetingItem[];
  failures: SourceFailure[];
  /** One line for the log: what was read (pages, feeds) and found. */
  note: string;
}

/** A document to fetch: one meeting's agenda or minutes, with the URLs to try in order. */
export interface Candidate {
  /** `YYYY-MM-DD-kind`, the identity of a manifest row: a new draft → final is an update of the same key. */
  key: string;
  meetingDate: string;
  kind: Kind;
  /** Manifest path, `pdfs/bagMMDDYY_kind.pdf`. */
  file: string;
  urls: string[];
  /** Public addresses recorded in the manifest (the official host's, whatever mirror the bytes came from). */
  officialUrl: string;
  archiveUrl: string;
  /** The source that listed the meeting (for the report). */
  source: SourceName;
  /** Guessed rather than listed: not finding it is not a failure. */
  optional: boolean;
}

/** 2016-11-01, minutes → `bag110116_minutes.pdf`. */
export function bagName(meetingDate: string, kind: Kind): string {
  const [y, m, d] = meetingDate.split('-');
  return `bag${m}${d}${y.slice(2)}_${kind}.pdf`;
}

/** A URL under a configured (maybe mirror) base, re-expressed under the host's public base. */
export function publicUrl(url: string, base: string, canonicalBase: string): string {
  return url.startsWith(base) ? canonicalBase + url.slice(base.length) : url;
}
