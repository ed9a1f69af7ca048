// vote_aggregate: GET /api/aggregates/votes as a tool.
import { votesAggregateMarkdown } from '../../render/markdown/answers.ts';
import { votesAggregate, type VotesParams } from '../../queries/aggregates/votes.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

export const voteAggregate: Tool<VotesParams> = {
  name: 'vote_aggregate',
  title: "Count a supervisor's recorded positions",
  description: [
    "Deterministic counts of one supervisor's recorded positions (aye, no, absent, excused) on roll calls, per legislative file (its most recent matching roll call) or per roll call, with page-addressable evidence for each; the same as GET /api/aggregates/votes.",
    'Use it for "how often did X vote no", "X\'s final votes in 2017". An ambiguous or unknown voter comes back as an error listing the candidates; give the full name or narrow from/to.',
    'Counts are of recorded positions only: a recorded position is not a stance on the underlying matter (an aye on a motion to disapprove opposes the project; an aye to table the disapproval supports it). Read each action and the stated interpretation limits; no stance is inferred.',
  ].join(' '),
  input: paramsSchema('params/votes.json'),
  params: 'params/votes.json',
  output: responseOutput('votes-aggregate.json'),
  run: ({ release, urls }, p) => votesAggregate(release, urls, p),
  markdown: votesAggregateMarkdown,
  more: 'totals count every match; lower `limit`, narrow from/to or position to see the rest of the evidence',
};
