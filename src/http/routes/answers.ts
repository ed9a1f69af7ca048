// Answer endpoints: the votes and housing aggregates, and the /api/query evidence bundle.
import { evidenceMarkdown, housingAggregateMarkdown, votesAggregateMarkdown } from '../../render/markdown/answers.ts';
import { withCoverage } from '../../render/markdown/meetings.ts';
import type {
  EvidenceBundle,
  HousingAggregate,
  HousingParams,
  QueryParams,
  VotesAggregate,
  VotesParams,
} from '../../schema-types.ts';
import { type Endpoint, endpoint } from '../endpoints.ts';
import { evidenceBundle, housingAggregate, votesAggregate } from '../typed-queries.ts';

export const answerEndpoints: Endpoint[] = [
  endpoint<QueryParams, EvidenceBundle>({
    path: '/api/query',
    summary:
      'Answer evidence for a whole question: infers supervisor, years, recorded position and intent, then searches items, votes, pages and comments concurrently',
    tag: 'answers',
    params: 'params/query.json',
    response: 'evidence-bundle.json',
    markdown: withCoverage(evidenceMarkdown),
    query: evidenceBundle,
  }),
  endpoint<VotesParams, VotesAggregate>({
    path: '/api/aggregates/votes',
    summary:
      "A supervisor's recorded positions, counted per file (most recent matching roll call) or per roll call, with page-addressable evidence; no stance inferred",
    tag: 'answers',
    params: 'params/votes.json',
    response: 'votes-aggregate.json',
    markdown: withCoverage(votesAggregateMarkdown),
    query: votesAggregate,
  }),
  endpoint<HousingParams, HousingAggregate>({
    path: '/api/aggregates/housing',
    summary:
      "A supervisor's most recent matching position on each housing-related file, units by the maximum-unit-mention rule, totals per position, cautions and evidence",
    tag: 'answers',
    params: 'params/housing.json',
    response: 'housing-aggregate.json',
    markdown: withCoverage(housingAggregateMarkdown),
    query: housingAggregate,
  }),
];
