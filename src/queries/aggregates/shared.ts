// What the votes and housing aggregates share: their parameters, the voter they are about, the interpretation limits
// every aggregate states, and what they show of each counted position.
import { POSITIONS, type Position } from '../../../core/lake/format.ts';
import type { Supervisor } from '../../../core/roster.ts';
import type { Release } from '../../lake/release.ts';
import { InvalidParameter } from '../errors.ts';
import { resolveVoter } from '../supervisors.ts';
import { itemRecordsById } from '../texts.ts';
import type { Kept, PositionTable } from './positions.ts';

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
 * What an aggregate shows of the first `limit` kept positions, in order: the file, its item's matter and title,
 * the roll call's action and evidence, from the item record store; the rows come from the position table.
 */
export async function shownPositions(release: Release, t: PositionTable, kept: Kept, limit: number) {
  const shown = kept.rows.slice(0, limit);
  const itemIdOf = (row: number) => t.items.values[t.item[row]];
  const records = await itemRecordsById(release, [...new Set(shown.map(itemIdOf))]);
  return shown.map((row) => {
    const id = t.rollCalls[t.rollCall[row]];
    const { item, roll_calls } = records.get(itemIdOf(row))!;
    const r = roll_calls.find((x) => x.roll_call_id === id)!;
    return {
      fileNumber: t.files[t.file[row]],
      matter: item.matter,
      title: item.title,
      meetingDate: t.dates[t.date[row]],
      year: t.year[row],
      itemId: item.item_id as string,
      rollCallId: id,
      sequence: t.sequence[row],
      action: r.action,
      actionType: r.action_type,
      isFinal: t.isFinal[row] === 1,
      position: POSITIONS[t.position[row]],
      nameAsRecorded: t.names[t.name[row]],
      sharedVote: r.shared_vote as boolean,
      matchingRollCalls: kept.matching[t.file[row]],
      officialUrl: r.official_url as string,
      page: r.page as number,
    };
  });
}
