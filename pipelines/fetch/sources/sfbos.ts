// sfbos.org: 2025 – 2026 documents under `/meeting/{agenda|minutes}/YYYY/bagMMDDYY_{kind}` (linked without `.pdf`,
// as a 2026 minutes link shows), older ones under `/sites/default/files/` (now served from the archive host).
import type { FetchConfig } from '../config.ts';
import { bagName, type Kind } from '../source.ts';

/** The sfbos.org addresses a meeting's document may have, most likely first, for its year. */
export function sfbosUrls(cfg: FetchConfig, meetingDate: string, kind: Kind): string[] {
  const year = meetingDate.slice(0, 4);
  if (Number(year) >= 2025)
    return [`${cfg.sfbosBase}meeting/${kind}/${year}/${bagName(meetingDate, kind).replace(/\.pdf$/, '')}`];
  return [`${cfg.sfbosBase}sites/default/files/${bagName(meetingDate, kind)}`];
}
