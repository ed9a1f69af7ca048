// Every id of the lake, built and parsed here and nowhere else. Record ids come from what a record is (meeting date and
// kind, page, file number and place, speaker's place), never from row numbers, so links, snapshots and the change feed
// survive rebuilds; every record id begins with its meeting date. A release id is the hash of the release's content.
import { createHash } from 'node:crypto';

import { ANALYSIS } from '../text/analysis.ts';
import { type DocumentKind, type ManifestFile, SCHEMA_VERSION, sha256sums } from './format.ts';

/** A document: meeting date and kind, e.g. `2016-11-01-minutes`. */
export const documentId = (meetingDate: string, kind: DocumentKind): string => `${meetingDate}-${kind}`;

/** A page of a document: `2016-11-01-minutes-p4`. */
export const pageId = (documentId: string, page: number): string => `${documentId}-p${page}`;

/** A page id's document and page number, or null for an id that is not a page id. */
export function parsePageId(id: string): { documentId: string; page: number } | null {
  const m = /^(.*)-p(\d+)$/.exec(id);
  return m ? { documentId: m[1], page: Number(m[2]) } : null;
}

/** A legislative-item block: `<documentId>-<fileNumber>`, with `-2`, `-3` … for later blocks of the file in one document. */
export const itemId = (documentId: string, fileNumber: string, block: number): string =>
  `${documentId}-${fileNumber}${block > 1 ? `-${block}` : ''}`;

/** SQL: the file number of the item id in `column` (its fifth `-` part: date has three, the kind none). */
export const itemFileNumberSql = (column: string): string => `split_part(${column}, '-', 5)`;

/** SQL: the meeting date (`YYYY-MM-DD`, as text) the item id in `column` begins with. */
export const itemMeetingDateSql = (column: string): string => `left(${column}, 10)`;

/** The file number of an item id, as itemFileNumberSql reads it (its fifth `-` part, '' when it has none). */
export function itemFileNumber(id: string): string {
  let start = 0;
  for (let dashes = 0; dashes < 4; dashes++) {
    start = id.indexOf('-', start) + 1;
    if (start === 0) return '';
  }
  const end = id.indexOf('-', start);
  return end < 0 ? id.slice(start) : id.slice(start, end);
}

/** The meeting date (`YYYY-MM-DD`) an item id begins with, as itemMeetingDateSql reads it. */
export const itemMeetingDate = (id: string): string => id.slice(0, 10);

/** The `n`th roll call (from 1) of an item: `<itemId>-v<n>`. */
export const rollCallId = (itemId: string, n: number): string => `${itemId}-v${n}`;

/** The item of a roll call id (`<itemId>-v<n>`). */
export const itemOfRollCall = (id: string): string => id.replace(/-v[0-9]+$/, '');

/** The sequence number `n` of a roll call id (`…-v<n>`), or null. */
export function rollCallSequence(id: string | null): number | null {
  const m = id === null ? null : /-v([0-9]+)$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** One supervisor's recorded position in a roll call: `<rollCallId>-<supervisor id, or the slug of the recorded name>`. */
export const positionId = (rollCallId: string, supervisor: string): string => `${rollCallId}-${supervisor}`;

/** A speaker's public comment: `<documentId>-c<NNN>`, the place in the document's comment list, zero-padded to 3. */
export const commentId = (documentId: string, sequence: number): string =>
  `${documentId}-c${String(sequence).padStart(3, '0')}`;

/** A supervisor (or an unresolved recorded name in a position id): the slug of the name, `eric-mar`. */
export const supervisorId = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** What every record id of one meeting begins with: `2016-11-01-` (documents, pages, items, roll calls, comments). */
export const meetingIdPrefix = (meetingDate: string): string => `${meetingDate}-`;

/** The meeting year an id begins with, or null for an id that does not (a lookup then reads every year). */
export function yearOfId(id: string): number | null {
  const m = /^(\d{4})-/.exec(id);
  return m ? Number(m[1]) : null;
}

/**
 * Release id: the first 16 hex digits of the sha256 of the schema version and the text-analysis version (how the data
 * is to be read and queried), a line each, followed by the release's `SHA256SUMS` (every data file's sha256 and path).
 * From a release's directory: `{ printf '%s\n%s\n' 2.1.0 analysis-v4; cat SHA256SUMS; } | sha256sum | cut -c1-16`.
 */
export function releaseIdOf(files: ManifestFile[]): string {
  return createHash('sha256')
    .update(`${SCHEMA_VERSION}\n${ANALYSIS.version}\n${sha256sums(files)}`)
    .digest('hex')
    .slice(0, 16);
}

/** Whether `id` has the form of a release id. */
export const isReleaseId = (id: string): boolean => /^[0-9a-f]{16}$/.test(id);

/** The official PDF opened at a page (the `official_url` of pages, items, roll calls and comments). */
export const officialPageUrl = (officialUrl: string, page: number): string => `${officialUrl}#page=${page}`;
