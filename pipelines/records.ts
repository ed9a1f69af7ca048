// The record types the pipeline derives from documents; each becomes a table of the release (see lake/README.md).
// Ids are derived from what a record is (meeting, document kind, page, file number, place in the document), never from
// build order, so they stay stable across releases.
import type { DocumentKind, Position, Result } from '../core/lake/format.ts';
import type { ActionType } from '../core/lake/format.ts';
import type { RosterEntry } from '../core/roster.ts';
import type { MeetingFacts } from './parse/meeting.ts';
export type { ActionType };

export type AmountQualifier = 'not-to-exceed' | 'increase' | 'decrease' | 'appropriation' | 'revenue' | 'stated';

export interface Amount {
  raw: string;
  value: number;
  currency: 'USD';
  qualifier: AmountQualifier;
}

export interface Extracted {
  amounts: Amount[];
  housingUnits: number[];
  addresses: string[];
  parties: string[];
}

export interface UnitMention {
  units: number;
  sentence: string;
}

export interface ItemRecord {
  /** `<documentId>-<fileNumber>`, with `-2`, `-3` … for later blocks of the same file in one document. */
  id: string;
  documentId: string;
  meetingDate: string;
  year: number;
  kind: DocumentKind;
  fileNumber: string;
  /** Bracketed short title, wrapped lines joined. */
  title: string;
  sponsors: string[];
  longTitle: string;
  /** Subject shared by companion records (appeal hearing + alternative motions share project and address). */
  matter: string;
  /** Ordinance, Resolution, Motion, Hearing, Charter Amendment … (first word(s) of the long title), or null. */
  itemType: string | null;
  /** Agenda section heading in force (CONSENT AGENDA, NEW BUSINESS, …), or null. */
  section: string | null;
  startPage: number;
  endPage: number;
  /** Block text without running headers/footers, layout lines joined by newlines. */
  text: string;
  /** `Enacted Number: 170-16`, `Motion No. M16-155`, `Resolution No. 463-16`. */
  enactmentNumbers: string[];
  /** Agenda status lines (`PASSED ON FIRST READING` history, `Question Divided`, …) and the block's action lines. */
  statusLines: string[];
  extracted: Extracted;
  unitMentions: UnitMention[];
}

export interface RollCallRecord {
  /** `<itemId>-v<sequence>`. */
  id: string;
  itemId: string;
  documentId: string;
  meetingDate: string;
  year: number;
  fileNumber: string;
  /** 1-based order of this vote among the item's votes. */
  sequence: number;
  /** The text immediately preceding the vote: the whole motion sentence, or the action line. */
  action: string;
  actionType: ActionType;
  /** The outcome as printed (`The motion carried`, `NOT ADOPTED`, `FINALLY PASSED` …), in core/lake/format.ts RESULTS. */
  result: Result;
  /** False for a vote a later roll call undid (`rescindedBy`), whatever its action type. */
  isFinal: boolean;
  /** Id of the later roll call on the same item that rescinded or reconsidered this vote, else null. */
  rescindedBy: string | null;
  /** Page the vote's tally is printed on. */
  page: number;
  /** Names exactly as recorded (surnames). */
  ayes: string[];
  noes: string[];
  absent: string[];
  excused: string[];
  /** Counts as printed (`Ayes: 11 - ...`), null when no count is printed for that position. */
  declaredCounts: { ayes: number | null; noes: number | null; absent: number | null; excused: number | null };
  countMismatch: boolean;
  /** True when the tally is a consent/for-adoption block's shared vote applied to this item. */
  sharedVote: boolean;
}

export interface PositionRecord {
  /** `<rollCallId>-<supervisorId or normalised raw name>`. */
  id: string;
  rollCallId: string;
  itemId: string;
  documentId: string;
  meetingDate: string;
  year: number;
  fileNumber: string;
  page: number;
  /** Reconciled supervisor id, or null when the recorded name did not resolve. */
  supervisorId: string | null;
  nameAsRecorded: string;
  position: Position;
  action: string;
  actionType: ActionType;
  isFinal: boolean;
  /** The roll call's `rescindedBy`. */
  rescindedBy: string | null;
}

export interface CommentRecord {
  /** `<documentId>-c<NNN>`: the speaker's place in the document's comment list, zero-padded to 3. */
  id: string;
  documentId: string;
  meetingDate: string;
  year: number;
  page: number;
  /** Exactly as recorded: `Male Speaker`, `Female Speaker`, first names only. */
  speaker: string;
  /** The clerk's summary. */
  statement: string;
  /** The file number when the comment was taken inside an item's hearing, else null (general public comment). */
  fileNumber: string | null;
  sequence: number;
}

/** A roster identity with the name variants recorded for it (core/roster.ts). */
export type SupervisorRecord = RosterEntry;

export type ProblemKind =
  | 'count-mismatch'
  | 'unresolved-name'
  | 'ambiguous-name'
  | 'unparsed-block'
  | 'unparsed-speaker'
  | 'unclassified-action'
  | 'garbage-page'
  | 'repaired-page';

export interface Problem {
  documentId: string;
  page: number;
  kind: ProblemKind;
  detail: string;
}

export interface ParsedDocument {
  /** What the document states about its meeting, and the members it names (cover or roll). */
  facts: MeetingFacts & { members: string[] };
  items: ItemRecord[];
  rollCalls: RollCallRecord[];
  positions: PositionRecord[];
  comments: CommentRecord[];
  problems: Problem[];
}
