// The sf.gov media host (media.api.sf.gov): agendas from mid-2025 under `documents/bagMMDDYY_agenda.pdf`; minutes are
// tried by the same pattern, a guess (none has been seen there).
import type { FetchConfig } from '../config.ts';
import { bagName, type Kind } from '../source.ts';

/** The media host's addresses for a meeting's document (none before 2025). */
export function mediaUrls(cfg: FetchConfig, meetingDate: string, kind: Kind): string[] {
  if (Number(meetingDate.slice(0, 4)) < 2025) return [];
  return [`${cfg.mediaBase}documents/${bagName(meetingDate, kind)}`];
}
