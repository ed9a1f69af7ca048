// The votes aggregate: one supervisor's recorded positions on the actions they were attached to, counted per file (its
// most recent matching roll call) or per roll call, with the evidence for each. No stance is inferred.
import type { DuckDBValue } from '@duckdb/node-api';
import type { Release } from '../lake/release.ts';
import { BadRequest } from '../http/errors.ts';
import type { Urls } from '../http/urls.ts';
import type { Position } from './items.ts';
import { resolveVoter, type Supervisor } from './supervisors.ts';

export const POSITIONS: Position[] = ['aye', 'no', 'absent', 'excused'];

export interface AggregateParams {
  voter: string;
  position?: Position;
  from: number;
  to: number;
  final: boolean;
  limit: number;
}

export interface VotesParams extends AggregateParams { groupBy: 'file' | 'roll-call' }

/** What every aggregate says about reading a recorded position (spec section 1). */
export const INTERPRETATION_LIMITS = [
  'A recorded position is a vote on the action named beside it (amend, continue, refer, table, pass, adopt…), not a stance on the underlying matter.',
  'A first reading is not final: an ordinance passed on first reading still needs a final passage at a later meeting, which may be outside the range asked.',
  'An aye on a motion to disapprove opposes the project; an aye on a motion to table the disapproval supports it. Read the action text before drawing a conclusion.',
  'Absent and excused are recorded positions too: excused means the Board excused the supervisor from that vote (often for a conflict of interest).',
];

export const GROUPING_RULES = {
  file: 'groupBy=file: each legislative file is counted once, by its most recent matching roll call (latest meeting date, then the last vote in that item); matchingRollCalls says how many of the voter\'s roll calls on the file matched.',
  'roll-call': 'groupBy=roll-call: every matching roll call is counted, so a file voted on several times (amendment, then passage; first reading, then final passage) counts several times.',
} as const;

export async function resolveAggregateVoter(release: Release, p: AggregateParams): Promise<Supervisor> {
  if (p.from > p.to) throw new BadRequest([{ parameter: 'from', rule: 'from-after-to', message: `from (${p.from}) must not be after to (${p.to})` }]);
  return resolveVoter(release, 'voter', p.voter, p.from, p.to);
}

/**
 * The voter's matching recorded positions, one row per roll call (`rank` 1 = the file's most recent), as a SQL fragment.
 * `extra` is a fixed condition over the position row `p` (never user text), with its own parameters.
 */
export function matchedPositions(supervisorId: string, p: AggregateParams, extra = '', extraParams: DuckDBValue[] = []): { sql: string; params: DuckDBValue[] } {
  const params: DuckDBValue[] = [supervisorId, p.from, p.to];
  let where = 'p.supervisor_id = ? AND p.year BETWEEN ? AND ?';
  if (p.position) {
    where += ' AND p.position = ?';
    params.push(p.position);
  }
  if (p.final) where += ' AND p.is_final';
  if (extra) {
    where += ` AND ${extra}`;
    params.push(...extraParams);
  }
  const sql = `
    SELECT p.*, r.sequence::INTEGER AS sequence, r.shared_vote, r.official_url AS vote_url,
           row_number() OVER (PARTITION BY p.file_number ORDER BY p.meeting_date DESC, r.sequence DESC, p.roll_call_id DESC)::INTEGER AS rank,
           (count(*) OVER (PARTITION BY p.file_number))::INTEGER AS roll_calls_in_file
    FROM positions p JOIN roll_calls r USING (roll_call_id)
    WHERE ${where}`;
  return { sql, params };
}

export const zeroTotals = () => Object.fromEntries(POSITIONS.map((k) => [k, 0])) as Record<Position, number>;

export async function votesAggregate(release: Release, urls: Urls, p: VotesParams) {
  const voter = await resolveAggregateVoter(release, p);
  const m = matchedPositions(voter.id, p);
  const kept = `SELECT * FROM (${m.sql}) WHERE ${p.groupBy === 'file' ? 'rank = 1' : 'true'}`;
  const [counts, rows] = await Promise.all([
    release.pool.rows(`SELECT position, count(*)::INTEGER AS n FROM (${kept}) GROUP BY position`, m.params),
    release.pool.rows(`
      SELECT k.file_number AS "fileNumber", i.matter, i.title, strftime(k.meeting_date, '%Y-%m-%d') AS "meetingDate", k.year::INTEGER AS year,
             k.item_id AS "itemId", k.roll_call_id AS "rollCallId", k.sequence, k.action, k.action_type AS "actionType", k.is_final AS "isFinal",
             k.position, k.name_as_recorded AS "nameAsRecorded", k.shared_vote AS "sharedVote", k.roll_calls_in_file AS "matchingRollCalls",
             k.page::INTEGER AS page, k.vote_url AS "officialUrl"
      FROM (${kept}) k JOIN items i USING (item_id)
      ORDER BY k.meeting_date DESC, k.file_number, k.sequence, k.roll_call_id
      LIMIT ?`, [...m.params, p.limit]),
  ]);
  const totals = zeroTotals();
  for (const c of counts) totals[c.position as Position] = Number(c.n);
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  const records = rows.map(({ officialUrl, page, ...r }) => ({
    ...r,
    evidence: {
      officialUrl: String(officialUrl),
      page: Number(page),
      transcriptUrl: urls.item(String(r.itemId)),
      markdownUrl: urls.item(String(r.itemId), true),
    },
  }));
  return {
    voter,
    filters: { voter: p.voter, position: p.position ?? null, from: p.from, to: p.to, final: p.final, groupBy: p.groupBy, limit: p.limit },
    groupingRule: GROUPING_RULES[p.groupBy],
    interpretationLimits: INTERPRETATION_LIMITS,
    totals,
    total,
    returned: records.length,
    records,
    release: release.id,
  };
}
