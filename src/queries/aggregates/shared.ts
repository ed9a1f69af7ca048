// What the votes and housing aggregates share: their parameters, the voter they are about, the interpretation limits
// every aggregate states, and the SQL of the voter's matching recorded positions and of their records.
import type { Position } from '../../../core/lake/format.ts';
import type { Supervisor } from '../../../core/roster.ts';
import type { Release } from '../../lake/release.ts';
import { InvalidParameter } from '../errors.ts';
import type { Params } from '../sql.ts';
import { resolveVoter } from '../supervisors.ts';

export interface AggregateParams {
  voter: string;
  position?: Position;
  from: number;
  to: number;
  final: boolean;
  limit: number;
}

/** What every aggregate says about reading a recorded position (spec section 1). */
export const INTERPRETATION_LIMITS = [
  'A recorded position is a vote on the action named beside it (amend, continue, refer, table, pass, adopt…), not a stance on the underlying matter.',
  'A first reading is not final: an ordinance passed on first reading still needs a final passage at a later meeting, which may be outside the range asked.',
  'An aye on a motion to disapprove opposes the project; an aye on a motion to table the disapproval supports it. Read the action text before drawing a conclusion.',
  'Absent and excused are recorded positions too: excused means the Board excused the supervisor from that vote (often for a conflict of interest).',
];

export async function resolveAggregateVoter(release: Release, p: AggregateParams): Promise<Supervisor> {
  if (p.from > p.to)
    throw new InvalidParameter([
      { parameter: 'from', rule: 'from-after-to', message: `from (${p.from}) must not be after to (${p.to})` },
    ]);
  return resolveVoter(release, 'voter', p.voter, p.from, p.to);
}

/**
 * The voter's kept recorded positions as a SQL fragment of narrow rows (roll_call_id, file_number, meeting_date,
 * sequence, position, roll_calls_in_file): only the columns the ranking and the totals need, the action texts are read
 * later for the rows shown (`recordJoins`). `perFile` keeps each file's most recent matching roll call (latest meeting,
 * then the last vote in the item, then the roll call id: the largest such key, found by one GROUP BY), otherwise every
 * roll call. `extra` is a fixed condition over the position row `p` (never user text). Every table is read with its
 * own `year` filter so that hive partitions outside from..to are never opened.
 */
export function matchedPositions(
  supervisorId: string,
  p: AggregateParams,
  q: Params,
  perFile: boolean,
  extra = '',
): string {
  const years = `BETWEEN ${q.add(p.from)} AND ${q.add(p.to)}`;
  let where = `p.supervisor_id = ${q.add(supervisorId)} AND p.year ${years}`;
  if (p.position) where += ` AND p.position = ${q.add(p.position)}`;
  if (p.final) where += ' AND p.is_final';
  if (extra) where += ` AND ${extra}`;
  const from = `FROM positions p JOIN roll_calls r ON r.roll_call_id = p.roll_call_id AND r.year ${years} WHERE ${where}`;
  if (perFile) {
    return `
    SELECT latest.id AS roll_call_id, file_number, latest.d AS meeting_date, latest.s AS sequence, latest.pos AS position, roll_calls_in_file
    FROM (SELECT p.file_number, max({d: p.meeting_date, s: r.sequence::INTEGER, id: p.roll_call_id, pos: p.position}) AS latest,
                 count(*)::INTEGER AS roll_calls_in_file
          ${from} GROUP BY p.file_number)`;
  }
  return `
    SELECT p.roll_call_id, p.file_number, p.meeting_date, r.sequence::INTEGER AS sequence, p.position,
           (count(*) OVER (PARTITION BY p.file_number))::INTEGER AS roll_calls_in_file
    ${from}`;
}

/**
 * The record columns of the kept rows `t` (roll_call_id, sequence, position, roll_calls_in_file …), read back from
 * positions, roll_calls and items for those rows only (late materialisation: the action text, names, titles and URLs
 * of the voter's other roll calls are never decoded).
 */
export function recordJoins(supervisorId: string, p: AggregateParams, q: Params): string {
  const years = `BETWEEN ${q.add(p.from)} AND ${q.add(p.to)}`;
  return `
    JOIN positions p ON p.roll_call_id = t.roll_call_id AND p.supervisor_id = ${q.add(supervisorId)} AND p.year ${years}
    JOIN roll_calls r ON r.roll_call_id = t.roll_call_id AND r.year ${years}
    JOIN items i ON i.item_id = p.item_id AND i.year ${years}`;
}
