// The votes aggregate: one supervisor's recorded positions on the actions they were attached to, counted per file (its
// most recent matching roll call) or per roll call, with the evidence for each. No stance is inferred.
import type { DuckDBValue } from '@duckdb/node-api';
import { POSITIONS, type Position } from '../../../core/lake/format.ts';
import type { Release } from '../../lake/release.ts';
import { InvalidParameter } from '../errors.ts';
import type { Links } from '../links.ts';
import type { Supervisor } from '../../../core/roster.ts';
import { resolveVoter } from '../supervisors.ts';

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
  if (p.from > p.to) throw new InvalidParameter([{ parameter: 'from', rule: 'from-after-to', message: `from (${p.from}) must not be after to (${p.to})` }]);
  return resolveVoter(release, 'voter', p.voter, p.from, p.to);
}

/** Numbered SQL parameters (`$1`, `$2` …) collected in order, so a fragment can use one value several times. */
export class Params {
  readonly values: DuckDBValue[] = [];
  add(v: DuckDBValue): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/**
 * The voter's kept recorded positions as a SQL fragment of narrow rows (roll_call_id, file_number, meeting_date,
 * sequence, position, roll_calls_in_file): only the columns the ranking and the totals need, the action texts are read
 * later for the rows shown (`recordJoins`). `perFile` keeps each file's most recent matching roll call (latest meeting,
 * then the last vote in the item, then the roll call id: the largest such key, found by one GROUP BY), otherwise every
 * roll call. `extra` is a fixed condition over the position row `p` (never user text). Every table is read with its
 * own `year` filter so that hive partitions outside from..to are never opened.
 */
export function matchedPositions(supervisorId: string, p: AggregateParams, q: Params, perFile: boolean, extra = ''): string {
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

export const zeroTotals = () => Object.fromEntries(POSITIONS.map((k) => [k, 0])) as Record<Position, number>;

export async function votesAggregate(release: Release, links: Links, p: VotesParams) {
  const voter = await resolveAggregateVoter(release, p);
  const q = new Params();
  const m = matchedPositions(voter.id, p, q, p.groupBy === 'file');
  // One query: the kept rows once (materialised), their totals per position, and the first `limit` of them in full.
  const rows = await release.pool.rows(`
    WITH k AS MATERIALIZED (${m}),
    t AS (SELECT * FROM k ORDER BY meeting_date DESC, file_number, sequence, roll_call_id LIMIT ${q.add(p.limit)})
    SELECT t.file_number AS "fileNumber", i.matter, i.title, strftime(t.meeting_date, '%Y-%m-%d') AS "meetingDate", p.year::INTEGER AS year,
           p.item_id AS "itemId", t.roll_call_id AS "rollCallId", t.sequence, p.action, p.action_type AS "actionType", p.is_final AS "isFinal",
           t.position, p.name_as_recorded AS "nameAsRecorded", r.shared_vote AS "sharedVote", t.roll_calls_in_file AS "matchingRollCalls",
           p.page::INTEGER AS page, r.official_url AS "officialUrl",
           (SELECT list({position: position, n: n}) FROM (SELECT position, count(*)::INTEGER AS n FROM k GROUP BY position)) AS _counts
    FROM t ${recordJoins(voter.id, p, q)}
    ORDER BY t.meeting_date DESC, t.file_number, t.sequence, t.roll_call_id`, q.values);
  const counts = (rows[0]?._counts ?? []) as { position: string; n: number }[];
  const totals = zeroTotals();
  for (const c of counts) totals[c.position as Position] = Number(c.n);
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  const records = rows.map(({ officialUrl, page, _counts, ...r }) => ({
    ...r,
    evidence: {
      officialUrl: String(officialUrl),
      page: Number(page),
      transcriptUrl: links.item(String(r.itemId)),
      markdownUrl: links.item(String(r.itemId), true),
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
