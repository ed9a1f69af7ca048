// The votes aggregate: one supervisor's recorded positions on the actions they were attached to, counted per file (its
// most recent matching roll call) or per roll call, with the evidence for each. No stance is inferred.
import { type Position, POSITIONS } from '../../../core/lake/format.ts';
import type { Release } from '../../lake/release.ts';
import { coverageOf } from '../coverage.ts';
import type { Links } from '../links.ts';
import { keptPositions, positionTable } from './positions.ts';
import { type AggregateParams, INTERPRETATION_LIMITS, resolveAggregateVoter, shownPositions } from './shared.ts';

export interface VotesParams extends AggregateParams {
  groupBy: 'file' | 'roll-call';
}

export const GROUPING_RULES = {
  file: "groupBy=file: each legislative file is counted once, by its most recent matching roll call (latest meeting date, then the last vote in that item); matchingRollCalls says how many of the voter's roll calls on the file matched.",
  'roll-call':
    'groupBy=roll-call: every matching roll call is counted, so a file voted on several times (amendment, then passage; first reading, then final passage) counts several times.',
} as const;

export const zeroTotals = () => Object.fromEntries(POSITIONS.map((k) => [k, 0])) as Record<Position, number>;

export async function votesAggregate(release: Release, links: Links, p: VotesParams) {
  const voter = await resolveAggregateVoter(release, p);
  const t = await positionTable(release);
  const kept = keptPositions(t, voter.id, p, p.groupBy === 'file');
  const totals = zeroTotals();
  for (const row of kept.rows) totals[POSITIONS[t.position[row]]]++;
  const total = kept.rows.length;
  const records = shownPositions(t, kept, p.limit).map(({ officialUrl, page, ...r }) => ({
    ...r,
    evidence: {
      officialUrl,
      page,
      transcriptUrl: links.item(r.itemId),
      markdownUrl: links.item(r.itemId, true),
    },
  }));
  return {
    coverage: await coverageOf(release, p),
    voter,
    filters: {
      voter: p.voter,
      position: p.position ?? null,
      from: p.from,
      to: p.to,
      final: p.final,
      groupBy: p.groupBy,
      limit: p.limit,
    },
    groupingRule: GROUPING_RULES[p.groupBy],
    interpretationLimits: INTERPRETATION_LIMITS,
    totals,
    total,
    returned: records.length,
    records,
    release: release.id,
  };
}
