// The votes aggregate: one supervisor's recorded positions on the actions they were attached to, counted per file (its
// most recent matching roll call) or per roll call, with the evidence for each. No stance is inferred.
import { POSITIONS, type Position } from '../../../core/lake/format.ts';
import type { Release } from '../../lake/release.ts';
import type { Links } from '../links.ts';
import { Params } from '../sql.ts';
import { coverageOf } from '../coverage.ts';
import { INTERPRETATION_LIMITS, matchedPositions, recordJoins, resolveAggregateVoter, type AggregateParams } from './shared.ts';

export interface VotesParams extends AggregateParams { groupBy: 'file' | 'roll-call' }

export const GROUPING_RULES = {
  file: 'groupBy=file: each legislative file is counted once, by its most recent matching roll call (latest meeting date, then the last vote in that item); matchingRollCalls says how many of the voter\'s roll calls on the file matched.',
  'roll-call': 'groupBy=roll-call: every matching roll call is counted, so a file voted on several times (amendment, then passage; first reading, then final passage) counts several times.',
} as const;

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
    coverage: await coverageOf(release, p),
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
