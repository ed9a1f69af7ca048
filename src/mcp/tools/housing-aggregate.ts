// housing_aggregate: GET /api/aggregates/housing as a tool.
import { housingAggregateMarkdown } from '../../render/markdown/answers.ts';
import { housingAggregate as query } from '../../queries/aggregates/housing.ts';
import type { AggregateParams } from '../../queries/aggregates/shared.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

export const housingAggregate: Tool<AggregateParams> = {
  name: 'housing_aggregate',
  title: "A supervisor's recorded positions on housing files",
  description: [
    "One supervisor's most recent matching recorded position on each housing-related legislative file, with extracted unit mentions (maximum-unit-mention rule, never summed), addresses, deterministic totals per position, cautions and citations; the same as GET /api/aggregates/housing.",
    'Use it for "how many housing units did X vote for". Read the stated housing rule, unit rule and cautions before quoting totals.',
    'A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project, an aye on a motion to table the disapproval supports it; read the action text. No stance is inferred.',
  ].join(' '),
  input: paramsSchema('params/housing.json'),
  params: 'params/housing.json',
  output: responseOutput('housing-aggregate.json'),
  run: ({ release, urls }, p) => query(release, urls, p),
  markdown: housingAggregateMarkdown,
  more: 'totals count every matching file; lower `limit`, narrow from/to or position to see the rest',
};
