// The MCP tools: each is a REST endpoint of the table (src/http/routes/) as a tool, with its parameter schema, response
// schema, query and Markdown; a row here adds only what is MCP's own (name, title, the description an agent reads to
// choose a tool, how to get what the budget cut). get_record is written by hand: one tool over three record endpoints,
// addressed by id or by URL.
import { endpoints } from '../http/routes/index.ts';
import { changesMarkdown, snapshotManifestMarkdown } from '../render/markdown/data.ts';
import type { ChangeFeed } from '../schema-types.ts';
import { paramsSchema, responseOutput } from './schema.ts';
import { restParams, type Tool } from './tool.ts';
import { getMeetingTool } from './tools/get-meeting.ts';
import { getRecord } from './tools/get-record.ts';

interface ToolRow {
  /** The endpoint's path in the table. */
  endpoint: string;
  name: string;
  title: string;
  description: string;
  more: string;
  /** REST parameters the tool leaves out (a tool reads the current release). */
  omit?: string[];
  /** Markdown of a tool whose endpoint answers JSON only (its response schema's type). */
  markdown?: (body: never) => string;
  onListCut?: Tool['onListCut'];
}

const ROWS: ToolRow[] = [
  {
    endpoint: '/api/query',
    name: 'ask',
    title: 'Ask a question (evidence bundle)',
    description: [
      'Evidence for a whole natural-language question (GET /api/query): infers supervisor, years, position, final-action and housing/comment intent (`interpretation`), searches items with roll calls, pages and comments at once, and says how to read them (`guidance`, coverage first).',
      'Use it first for an open question, then narrow with the other tools. Evidence, not an answer: cite officialUrl. A recorded position is not a stance on the underlying matter (an aye to disapprove opposes the project); read the action text.',
    ].join(' '),
    more: 'ask a narrower question, or use search_items / search_pages / search_public_comments with a lower limit',
  },
  {
    endpoint: '/api/search',
    name: 'search_pages',
    title: 'Search agenda and minutes pages',
    description: [
      'BM25 search over agenda and minutes pages (GET /api/search): a file number, or an enactment number (178-16, M16-152), ranks the pages printing its file\'s item first; a quoted "phrase" matches its exact words; common other names (BART, Airbnb) are searched too.',
      'With type, supervisor, position, final, actionType or result it returns the unified list (files, votes, comments, pages). Prefer search_items for legislation, search_public_comments for speakers. A recorded position is not a stance on the underlying matter.',
    ].join(' '),
    more: 'lower `limit`, or narrow with year/from/to/kind; pages have no offset, so refine the words',
  },
  {
    endpoint: '/api/items',
    name: 'search_items',
    title: 'Search legislative items and their roll calls',
    description: [
      'Legislative-item blocks with their roll calls (ayes, noes, absent, excused), the action before each vote and its printed result (GET /api/items).',
      'For "what happened to file N", "how did X vote on Y" (voter, position, final), outcomes (actionType, result such as not-adopted) and one meeting (date); groupBy=file collapses readings. An unknown or ambiguous voter is an error listing candidates.',
      "A recorded position is not a stance on the underlying matter: read each roll call's action.",
    ].join(' '),
    more: 'lower `limit`, use groupBy=file, or narrow from/to; fetch one record with get_record',
  },
  {
    endpoint: '/api/comments',
    name: 'search_public_comments',
    title: 'Search public-comment summaries',
    description: [
      "Speaker-level public-comment summaries from the minutes (GET /api/comments): speaker as recorded, the Clerk's summary, page and PDF link; filter by speaker or meeting date.",
      "These are the Clerk's summaries, not verbatim; every speaker of one meeting in order is in get_meeting.",
    ].join(' '),
    more: 'lower `limit`, add `speaker`, or narrow from/to',
  },
  {
    endpoint: '/api/aggregates/votes',
    name: 'vote_aggregate',
    title: "Count a supervisor's recorded positions",
    description: [
      'Counts of one supervisor\'s recorded positions (aye, no, absent, excused) per file or per roll call, with page evidence (GET /api/aggregates/votes), for "how often did X vote no": groupBy=roll-call counts every vote, the default (file) each file once.',
      'Counts cover only the meetings with recorded votes: read `coverage` before concluding anything about a span. A recorded position is not a stance on the underlying matter; read each action.',
    ].join(' '),
    more: 'totals count every match; lower `limit`, narrow from/to or position to see the rest of the evidence',
  },
  {
    endpoint: '/api/aggregates/housing',
    name: 'housing_aggregate',
    title: "A supervisor's recorded positions on housing files",
    description: [
      "One supervisor's latest matching position on each housing file, with unit mentions (maximum-unit-mention rule, never summed), addresses, totals, cautions and citations (GET /api/aggregates/housing).",
      'Read the housing rule, unit rule, cautions and `coverage` before quoting totals. A recorded position is not a stance on the underlying matter.',
    ].join(' '),
    more: 'totals count every matching file; lower `limit`, narrow from/to or position to see the rest',
  },
  {
    endpoint: '/api/meetings',
    name: 'list_meetings',
    title: 'List the meetings the lake holds',
    description: [
      'The meetings the lake holds in a year or span (GET /api/meetings), each with its documents and counts of pages, items, roll calls and comments: find a date for get_meeting, or which meetings have minutes.',
      "Minutes carry votes and the Clerk's comment summaries; an agenda only lists what was to be taken up.",
    ].join(' '),
    more: 'narrow with year, or continue with after = nextAfter',
  },
  {
    endpoint: '/api/coverage',
    name: 'coverage',
    title: 'What the lake holds',
    description: [
      'What the lake holds (GET /api/coverage): meetings per year, and of those the ones with agendas, minutes, recorded votes and public comment.',
      "Call it before concluding that something never happened: counts cover only what is held. Comments are the Clerk's summaries; a recorded position is not a stance.",
    ].join(' '),
    more: 'narrow from/to',
  },
  {
    endpoint: '/api/releases',
    name: 'list_releases',
    title: 'List the data releases',
    description: [
      'The data releases on this server, newest first (GET /api/releases): when each was built, the release before it, and how many records it inserted, updated and deleted.',
      'For "what changed in the last release"; read_changes gives the changes record by record. A recorded position (in recorded-positions) is not a stance.',
    ].join(' '),
    more: 'every kept release is listed',
  },
  {
    endpoint: '/api/changes',
    name: 'read_changes',
    title: 'Read the change feed',
    description: [
      "The change feed (GET /api/changes): inserts, updates and deletes of documents, supervisors, recorded-positions and legislative-files between releases, by sequence. Start at cursor 0 (or `since`, RFC 3339) and pass nextCursor back while hasMore; open a change's url with get_record.",
      'A recorded position is not a stance on the underlying matter.',
    ].join(' '),
    more: 'call again with cursor = nextCursor (it points at the last change shown)',
    omit: ['release'],
    markdown: changesMarkdown,
    // The budget kept fewer changes than were read: continue right after the last one kept.
    onListCut: (holder, key) => {
      const feed = holder as ChangeFeed; // the feed holds its one list
      if (key !== 'changes' || feed.changes.length === 0) return;
      feed.nextCursor = feed.changes[feed.changes.length - 1].sequence;
      feed.hasMore = true;
    },
  },
  {
    endpoint: '/api/snapshots',
    name: 'snapshot_manifest',
    title: 'List the bulk snapshot feeds',
    description: [
      'The bulk snapshots of the current release (GET /api/snapshots): record counts, keys, record schemas, JSON/NDJSON page URLs pinned to the release, Parquet files with sha256. For bulk analysis over HTTP; follow new data with read_changes.',
      'A recorded position (in recorded-positions) is not a stance on the underlying matter.',
    ].join(' '),
    more: 'the manifest at GET /api/snapshots holds every entity',
    omit: ['release'],
    markdown: snapshotManifestMarkdown,
  },
];

/** The tool of a row: schemas, query and Markdown from its endpoint. */
export function toolOf(row: ToolRow): Tool {
  const ep = endpoints.find((e) => e.path === row.endpoint);
  if (!ep?.query) throw new Error(`tool ${row.name}: ${row.endpoint} has no query`);
  const query = ep.query;
  const markdown = row.markdown ?? ep.markdown;
  if (!markdown) throw new Error(`tool ${row.name}: ${row.endpoint} has no Markdown`);
  const input = paramsSchema(ep.params, row.omit);
  return {
    name: row.name,
    title: row.title,
    description: row.description,
    input,
    parse: restParams(ep.params, input),
    output: responseOutput(ep.response),
    run: ({ release, urls }, params) => query(release, urls, params),
    markdown,
    more: row.more,
    onListCut: row.onListCut,
  };
}

const [ask, searchPages, searchItems, searchComments, ...rest] = ROWS.map(toolOf);

/** Every tool, in the order clients list them. */
export const tools: Tool[] = [ask, searchPages, searchItems, searchComments, getRecord, getMeetingTool, ...rest];
