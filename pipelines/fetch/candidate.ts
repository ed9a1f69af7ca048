// A document a source says should exist: one meeting's agenda or minutes, with the URLs to try in order.
export type Kind = 'agenda' | 'minutes';

export interface Candidate {
  /** `YYYY-MM-DD-kind`, the identity of a manifest row: a new draft → final is an update of the same key. */
  key: string;
  meetingDate: string;
  kind: Kind;
  /** Manifest path, `pdfs/bagMMDDYY_kind.pdf`. */
  file: string;
  urls: string[];
  /** Public addresses recorded in the manifest. */
  officialUrl: string;
  archiveUrl: string;
  source: string;
  /** Guessed rather than listed (a probed meeting day, a derived Legistar link): not finding it is not a failure. */
  optional: boolean;
}

/** 2016-11-01, minutes → `bag110116_minutes.pdf`. */
export function bagName(meetingDate: string, kind: Kind): string {
  const [y, m, d] = meetingDate.split('-');
  return `bag${m}${d}${y.slice(2)}_${kind}.pdf`;
}

/** A URL under a configured (maybe mirror) base, re-expressed under the source's public base. */
export function publicUrl(url: string, base: string, canonicalBase: string): string {
  return url.startsWith(base) ? canonicalBase + url.slice(base.length) : url;
}

export function isoDate(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.toISOString().slice(0, 10);
}
