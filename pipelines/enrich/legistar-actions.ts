// Legistar's words for what happened to a file at a meeting (its meeting pages and history grids: an action such as
// `PASSED ON FIRST READING`, `FINALLY PASSED`, `ADOPTED`, `CONTINUED`, and a result `Pass`, `Fail` or nothing) → the
// lake's action type and printed result, so that the quality report can set them beside the roll calls of the minutes.
// The action words are the Clerk's, so the minutes' own rule tables (actions.ts) classify them; Legistar's `Fail` then
// turns the result into its failing form, and a failed passage, adoption or approval into a rejection, as the minutes
// print it (`NOT ADOPTED` is a rejection). One row per case in LEGISTAR_OUTCOMES, each with a test.
import type { ActionType, Result } from '../../core/lake/format.ts';
import { classifyAction, printedResult } from './actions.ts';

/** A result's failing form when Legistar says `Fail`. */
const FAILED: Partial<Record<Result, Result>> = {
  passed: 'not-passed',
  adopted: 'not-adopted',
  approved: 'not-approved',
  amended: 'not-amended',
  continued: 'not-continued',
};
/** Action types a failed vote turns into a rejection (the minutes print `NOT FINALLY PASSED`, `NOT ADOPTED`). */
const REJECTED_WHEN_FAILED = new Set<ActionType>(['final-passage', 'first-reading', 'adoption', 'approval']);

export function legistarOutcome(action: string, result: string): { actionType: ActionType; result: Result } {
  const words = action.toUpperCase().replace(/\s+/g, ' ').trim();
  const { actionType } = classifyAction(words, null);
  const printed = printedResult(words);
  if (!/^fail/i.test(result.trim())) return { actionType, result: printed };
  return {
    actionType: REJECTED_WHEN_FAILED.has(actionType) ? 'rejection' : actionType,
    result:
      FAILED[printed] ??
      (printed.startsWith('not-') || printed === 'rejected' || printed === 'disapproved' ? printed : 'failed'),
  };
}

/** The mapping as a table: Legistar's action and result → the lake's action type and result (test/legistar-exports.test.ts). */
export const LEGISTAR_OUTCOMES: readonly [action: string, result: string, actionType: ActionType, outcome: Result][] = [
  ['PASSED ON FIRST READING', 'Pass', 'first-reading', 'passed'],
  ['PASSED, ON FIRST READING', 'Pass', 'first-reading', 'passed'],
  ['PASSED ON FIRST READING AS AMENDED', 'Pass', 'first-reading', 'passed'],
  ['FINALLY PASSED', 'Pass', 'final-passage', 'passed'],
  ['FINALLY PASSED AS AMENDED', 'Pass', 'final-passage', 'passed'],
  ['ADOPTED', 'Pass', 'adoption', 'adopted'],
  ['ADOPTED AS AMENDED', 'Pass', 'adoption', 'adopted'],
  ['APPROVED', 'Pass', 'approval', 'approved'],
  ['AMENDED', 'Pass', 'amendment', 'amended'],
  ['AMENDED, AN AMENDMENT OF THE WHOLE BEARING SAME TITLE', 'Pass', 'amendment', 'amended'],
  ['CONTINUED', 'Pass', 'continuance', 'continued'],
  ['CONTINUED ON FIRST READING', 'Pass', 'continuance', 'continued'],
  ['RE-REFERRED', 'Pass', 'referral', 'referred'],
  ['RE-REFERRED AS AMENDED', 'Pass', 'referral', 'referred'],
  ['REFERRED WITHOUT RECOMMENDATION', 'Pass', 'referral', 'referred'],
  ['TABLED', 'Pass', 'tabling', 'tabled'],
  ['HEARD AND FILED', '', 'other', 'filed'],
  ['RESCINDED', 'Pass', 'rescission', 'rescinded'],
  ['NOT ADOPTED', 'Fail', 'rejection', 'not-adopted'],
  ['ADOPTED', 'Fail', 'rejection', 'not-adopted'],
  ['FINALLY PASSED', 'Fail', 'rejection', 'not-passed'],
  ['PASSED ON FIRST READING', 'Fail', 'rejection', 'not-passed'],
  ['APPROVED', 'Fail', 'rejection', 'not-approved'],
  ['AMENDED', 'Fail', 'amendment', 'not-amended'],
  ['CONTINUED', 'Fail', 'continuance', 'not-continued'],
  ['TABLED', 'Fail', 'tabling', 'failed'],
  ['finally passed', 'Pass', 'final-passage', 'passed'],
  ['', '', 'other', 'other'],
];
