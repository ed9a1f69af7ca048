// What the votes and housing aggregates share: their parameters, the voter they are about, the interpretation limits
// every aggregate states, and what they show of each counted position.
import { type Position, POSITIONS } from '../../../core/lake/format.ts';
import type { Supervisor } from '../../../core/roster.ts';
import type { Release } from '../../lake/release.ts';
import { checkYearOrder } from '../errors.ts';
import { resolveVoter } from '../supervisors.ts';
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
  checkYearOrder(p.from, p.to);
  return resolveVoter(release, 'voter', p.voter, p.from, p.to);
}

/**
 * What an aggregate shows of the first `limit` kept positions, in order: the file, its item's matter and title,
 * the roll call's action and evidence, all from the position table (its `shown` columns).
 */
export function shownPositions(t: PositionTable, kept: Kept, limit: number) {
  const s = t.shown;
  return kept.rows.slice(0, limit).map((row) => {
    const rc = t.rollCall[row];
    const item = t.item[row];
    return {
      fileNumber: t.files[t.file[row]],
      matter: s.matter[item],
      title: s.title[item],
      meetingDate: t.dates[t.date[row]],
      year: t.year[row],
      itemId: t.items.values[item],
      rollCallId: t.rollCalls[rc],
      sequence: t.sequence[row],
      action: s.action[rc],
      actionType: s.actionType[rc],
      isFinal: t.isFinal[row] === 1,
      position: POSITIONS[t.position[row]],
      nameAsRecorded: t.names[t.name[row]],
      sharedVote: s.sharedVote[rc] === 1,
      matchingRollCalls: kept.matching[t.file[row]],
      officialUrl: s.officialUrl[rc],
      page: s.page[rc],
    };
  });
}
