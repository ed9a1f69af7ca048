// The one rule table that turns an action text (an action line such as `FINALLY PASSED`, or a whole motion sentence)
// into the spec's actionType and isFinal. First matching row wins, so specific rows come before general ones.
// Action words are matched in capitals, as the Clerk prints them, so that narrative text ("approved by the
// Planning Commission") does not trigger a rule; a few motion phrasings are matched case-insensitively.
// isFinal marks the vote that settles the matter at this board: final passage of an ordinance, adoption or
// rejection of a resolution, approval of a motion. Never first reading, amendment, continuance, referral, tabling
// or procedural motions. `… AS AMENDED` keeps the base action's type and finality (ADOPTED AS AMENDED is an adoption,
// final): only AMENDED on its own, or AN AMENDMENT OF THE WHOLE, is an amendment.
// A vote a later rescission or reconsideration undid stops being final (pipelines/parse/document.ts), whatever its row.
import type { Result } from '../../core/lake/format.ts';
import type { ActionType } from '../records.ts';

export interface ActionRule {
  pattern: RegExp;
  actionType: ActionType;
  isFinal: boolean;
  note: string;
}

/** AMENDED as an action of its own: not the `AS AMENDED` that qualifies another action word. */
const AMENDED = /(?<!\bAS\s+)\bAMENDED\b|\bAN AMENDMENT OF THE WHOLE\b/;

export const ACTION_RULES: readonly ActionRule[] = [
  {
    pattern: /PREVIOUS VOTE RESCINDED|\bmoved to rescind\b|\bRESCIND(ED)?\b/i,
    actionType: 'rescission',
    isFinal: false,
    note: 'undoes an earlier vote; the matter is open again',
  },
  {
    pattern: /\bmoved to reconsider\b|\bRECONSIDERED\b/,
    actionType: 'rescission',
    isFinal: false,
    note: 'reconsideration reopens the earlier vote (the spec has no closer value than rescission): that vote no longer settles the matter',
  },
  {
    pattern: /\bexcused from voting\b/i,
    actionType: 'other',
    isFinal: false,
    note: 'procedural: excusing a member from voting',
  },
  {
    pattern: /\bprivilege of the floor\b|\bsuspend Rule\b/i,
    actionType: 'other',
    isFinal: false,
    note: 'procedural: privilege of the floor / suspension of the rules',
  },
  {
    pattern: /\bMeeting Minutes\b|\bapprove the minutes\b/i,
    actionType: 'approval',
    isFinal: false,
    note: 'approval of minutes: not a legislative matter',
  },
  {
    pattern: /\bNOT AMENDED\b/,
    actionType: 'amendment',
    isFinal: false,
    note: 'a failed amendment is still an amendment vote',
  },
  { pattern: /\bNOT CONTINUED\b/, actionType: 'continuance', isFinal: false, note: 'a failed continuance' },
  {
    pattern:
      /\bNOT (ADOPTED|APPROVED|PASSED|FINALLY PASSED)\b|\bFAILED( FINAL PASSAGE)?\b|\bREJECTED\b|\bDISAPPROVED\b/,
    actionType: 'rejection',
    isFinal: true,
    note: 'rejection settles the matter',
  },
  { pattern: /\bTABLED\b|\bmoved to table\b/i, actionType: 'tabling', isFinal: false, note: 'tabling is procedural' },
  {
    pattern: /\bRE-?REFERRED\b|\bREFERRED\b|\bmoved to refer\b/,
    actionType: 'referral',
    isFinal: false,
    note: 'referral, including RE-REFERRED AS AMENDED and REFERRED FOR ADOPTION WITHOUT COMMITTEE REFERENCE',
  },
  {
    pattern: /\bCONTINUED\b|\bmoved to continue\b/,
    actionType: 'continuance',
    isFinal: false,
    note: 'continuance, including CONTINUED ON FIRST READING / AS AMENDED / OPEN',
  },
  {
    pattern: /\bFINALLY PASSED\b|\bFINAL PASSAGE\b/,
    actionType: 'final-passage',
    isFinal: true,
    note: 'final passage of an ordinance, with or without AS AMENDED',
  },
  {
    pattern: /\bPASSED,? ON FIRST READING\b/,
    actionType: 'first-reading',
    isFinal: false,
    note: 'first reading, with or without AS AMENDED',
  },
  {
    pattern: AMENDED,
    actionType: 'amendment',
    isFinal: false,
    note: 'amendment, including AN AMENDMENT OF THE WHOLE BEARING SAME/NEW TITLE; never the AS AMENDED of another action',
  },
  {
    pattern: /\bADOPTED\b/,
    actionType: 'adoption',
    isFinal: true,
    note: 'adoption of a resolution, with or without AS AMENDED',
  },
  {
    pattern: /\bAPPROVED\b/,
    actionType: 'approval',
    isFinal: true,
    note: 'approval of a motion, with or without AS AMENDED',
  },
  {
    pattern: /\bHEARD AND FILED\b|\bFILED\b/,
    actionType: 'other',
    isFinal: false,
    note: 'a hearing heard and filed decides nothing',
  },
  {
    pattern: /\bSUBMITTED\b/,
    actionType: 'other',
    isFinal: true,
    note: 'charter amendment submitted to the voters: the board is done with it',
  },
  {
    pattern: /\bRECEIVED\b|\bASSIGNED\b|\bDUPLICATED\b|\bREACTIVATED\b|\bREPEALED\b/,
    actionType: 'other',
    isFinal: false,
    note: 'clerical status (introduction, assignment, duplication)',
  },
];

export interface Classification {
  actionType: ActionType;
  isFinal: boolean;
  rule: ActionRule | null;
}

/**
 * Classifies an action. `itemType` (Ordinance, Resolution, Motion …) only guards isFinal: an ordinance is settled by
 * final passage, never by a vote worded ADOPTED or APPROVED.
 */
export function classifyAction(action: string, itemType: string | null): Classification {
  const rule = ACTION_RULES.find((r) => r.pattern.test(action)) ?? null;
  if (!rule) return { actionType: 'other', isFinal: false, rule: null };
  const ordinance = itemType !== null && /^ordinance\b/i.test(itemType);
  const isFinal = rule.isFinal && !(ordinance && (rule.actionType === 'adoption' || rule.actionType === 'approval'));
  return { actionType: rule.actionType, isFinal, rule };
}

export interface ResultRule {
  pattern: RegExp;
  result: Result;
  note: string;
}

/**
 * The outcome as printed, from the text that called the vote as printed (the motion sentence with its `The motion
 * carried by the following vote:`, or the action line; for a consent block's shared vote, the item's own action line).
 * First matching row wins; no row is `other`. A motion's printed outcome comes first: the action words inside a motion
 * are what was moved, not what happened, so a motion without one is `other`.
 */
export const RESULT_RULES: readonly ResultRule[] = [
  {
    pattern: /\bThe motion carried\b/i,
    result: 'carried',
    note: 'a motion and its printed outcome: The motion carried by the following vote',
  },
  {
    pattern: /\bThe motion failed\b/i,
    result: 'failed',
    note: 'a motion and its printed outcome: The motion failed by the following vote',
  },
  {
    pattern: /\bmoved\b/,
    result: 'other',
    note: 'a motion whose outcome is not printed: what was moved is not a result',
  },
  { pattern: /PREVIOUS VOTE RESCINDED|\bRESCINDED\b/, result: 'rescinded', note: 'an earlier vote undone' },
  { pattern: /\bRECONSIDERED\b/, result: 'reconsidered', note: 'an earlier vote reopened' },
  { pattern: /\bNOT (?:FINALLY )?PASSED\b/, result: 'not-passed', note: 'NOT PASSED, NOT FINALLY PASSED' },
  { pattern: /\bNOT ADOPTED\b/, result: 'not-adopted', note: 'NOT ADOPTED' },
  { pattern: /\bNOT APPROVED\b/, result: 'not-approved', note: 'NOT APPROVED' },
  { pattern: /\bNOT AMENDED\b/, result: 'not-amended', note: 'a failed amendment' },
  { pattern: /\bNOT CONTINUED\b/, result: 'not-continued', note: 'a failed continuance' },
  { pattern: /\bFAILED\b/, result: 'failed', note: 'FAILED, FAILED FINAL PASSAGE' },
  {
    pattern: /\bDISAPPROVED\b/,
    result: 'disapproved',
    note: 'DISAPPROVED (a motion disapproving a decision is worded so too)',
  },
  { pattern: /\bREJECTED\b/, result: 'rejected', note: 'REJECTED' },
  { pattern: /\bTABLED\b/, result: 'tabled', note: 'TABLED' },
  { pattern: /\bRE-?REFERRED\b|\bREFERRED\b/, result: 'referred', note: 'REFERRED, RE-REFERRED (AS AMENDED)' },
  { pattern: /\bCONTINUED\b/, result: 'continued', note: 'CONTINUED, CONTINUED ON FIRST READING / AS AMENDED / OPEN' },
  {
    pattern: /\bPASSED\b/,
    result: 'passed',
    note: 'FINALLY PASSED, PASSED(,) ON FIRST READING, with or without AS AMENDED',
  },
  {
    pattern: AMENDED,
    result: 'amended',
    note: 'AMENDED, AN AMENDMENT OF THE WHOLE; never the AS AMENDED of another action',
  },
  { pattern: /\bADOPTED\b/, result: 'adopted', note: 'ADOPTED, ADOPTED AS AMENDED' },
  { pattern: /\bAPPROVED\b/, result: 'approved', note: 'APPROVED, APPROVED AS AMENDED' },
  { pattern: /\bFILED\b/, result: 'filed', note: 'HEARD AND FILED, FILED' },
  { pattern: /\bSUBMITTED\b/, result: 'submitted', note: 'a charter amendment SUBMITTED to the voters' },
];

/** The printed outcome of a vote (see RESULT_RULES). */
export function printedResult(printed: string): Result {
  return RESULT_RULES.find((r) => r.pattern.test(printed))?.result ?? 'other';
}
