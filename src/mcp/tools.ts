// The MCP tools: each is a REST endpoint of the table (src/http/routes/) as a tool, with its parameter schema, response
// schema, query and Markdown; a row here adds only what is MCP's own (name, title, the description an agent reads to
// choose a tool, how to get what the budget cut). get_record is written by hand: one tool over three record endpoints,
// addressed by id or by URL.
import { endpoints } from '../http/routes/index.ts';
import { changesMarkdown, snapshotManifestMarkdown } from '../render/markdown/data.ts';
import { paramsSchema, responseOutput } from './schema.ts';
import type { Tool } from './tool.ts';
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
  /** Markdown of a tool whose endpoint answers JSON only. */
  markdown?: (body: any) => string;
  onListCut?: Tool['onListCut'];
}

const ROWS: ToolRow[] = [
  {
    endpoint: '/api/query',
    name: 'ask',
    title: 'Ask a question (evidence bundle)',
    description: [
      'Answer evidence for a whole natural-language question about the San Francisco Board of Supervisors (2012–2026); the same as GET /api/query.',
      'It infers a supervisor, years, a recorded position, final-action and housing/comment intent from the question (see `interpretation`), then searches legislative items with roll calls, PDF pages and public comments at once and returns them with guidance.',
      'Use it first when the question is open-ended; then narrow with search_items, vote_aggregate or housing_aggregate, and open hits with get_record.',
      'It returns evidence, not an answer: cite officialUrl. A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project, an aye on a motion to table the disapproval supports it; read the action text.',
    ].join(' '),
    more: 'ask a narrower question, or use search_items / search_pages / search_public_comments with a lower limit',
  },
  {
    endpoint: '/api/search',
    name: 'search_pages',
    title: 'Search agenda and minutes pages',
    description: [
      'Full-text (BM25) search over the PDF pages of San Francisco Board of Supervisors agendas and minutes, 2012–2026; the same as GET /api/search.',
      'Use it to find where something is mentioned (a file number such as 160965 ranks the pages holding it first; a quoted "phrase" must match as a phrase), then read a page with get_record.',
      'For legislation with its roll calls prefer search_items; for what speakers said, search_public_comments; for a whole question, ask.',
      'With type/supervisor/position/final it returns the unified list (files first, then votes, comments, pages).',
      'A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project; read the action text.',
    ].join(' '),
    more: 'lower `limit`, or narrow with year/from/to/kind; pages have no offset, so refine the words',
  },
  {
    endpoint: '/api/items',
    name: 'search_items',
    title: 'Search legislative items and their roll calls',
    description: [
      'Search complete legislative-item blocks (files) taken from Board minutes and agendas, each with its recorded roll calls (ayes, noes, absent, excused) and the action text immediately before each vote; the same as GET /api/items.',
      'Use it for "what happened to file N", "how did supervisor X vote on Y" (voter, position, final), or to collapse repeated readings (groupBy=file) or companion records (groupBy=matter).',
      'An ambiguous or unknown voter comes back as an error listing the candidates.',
      "A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project, an aye on a motion to table the disapproval supports it. Read each roll call's action; no stance is inferred.",
      'Fetch one record in full (block text, roll calls, comments in its hearing) with get_record.',
    ].join(' '),
    more: 'lower `limit`, use groupBy=file, or narrow from/to; fetch one record with get_record',
  },
  {
    endpoint: '/api/comments',
    name: 'search_public_comments',
    title: 'Search public-comment summaries',
    description: [
      "Search speaker-level public-comment summaries parsed from Board minutes (speaker name as recorded, the Clerk's one-line summary, page, official PDF link); the same as GET /api/comments.",
      "Use it for who spoke about a topic or what a named speaker said (speaker filter). These are the Clerk's summaries, not verbatim transcripts; quote them as summaries.",
    ].join(' '),
    more: 'lower `limit`, add `speaker`, or narrow from/to',
  },
  {
    endpoint: '/api/aggregates/votes',
    name: 'vote_aggregate',
    title: "Count a supervisor's recorded positions",
    description: [
      "Deterministic counts of one supervisor's recorded positions (aye, no, absent, excused) on roll calls, per legislative file (its most recent matching roll call) or per roll call, with page-addressable evidence for each; the same as GET /api/aggregates/votes.",
      'Use it for "how often did X vote no", "X\'s final votes in 2017". An ambiguous or unknown voter comes back as an error listing the candidates; give the full name or narrow from/to.',
      'Counts are of recorded positions only: a recorded position is not a stance on the underlying matter (an aye on a motion to disapprove opposes the project; an aye to table the disapproval supports it). Read each action and the stated interpretation limits; no stance is inferred.',
    ].join(' '),
    more: 'totals count every match; lower `limit`, narrow from/to or position to see the rest of the evidence',
  },
  {
    endpoint: '/api/aggregates/housing',
    name: 'housing_aggregate',
    title: "A supervisor's recorded positions on housing files",
    description: [
      "One supervisor's most recent matching recorded position on each housing-related legislative file, with extracted unit mentions (maximum-unit-mention rule, never summed), addresses, deterministic totals per position, cautions and citations; the same as GET /api/aggregates/housing.",
      'Use it for "how many housing units did X vote for". Read the stated housing rule, unit rule and cautions before quoting totals.',
      'A recorded position is not a stance on the underlying matter: an aye on a motion to disapprove opposes the project, an aye on a motion to table the disapproval supports it; read the action text. No stance is inferred.',
    ].join(' '),
    more: 'totals count every matching file; lower `limit`, narrow from/to or position to see the rest',
  },
  {
    endpoint: '/api/changes',
    name: 'read_changes',
    title: 'Read the change feed',
    description: [
      'The append-only entity change feed (documents, supervisors, recorded-positions, legislative-files): inserts, updates and deletes between consecutive data releases, in global sequence order; the same as GET /api/changes.',
      'Use it to sync or to learn what is new since you last looked: start at cursor 0 (or filter by `since`, an RFC 3339 time), then pass nextCursor back as cursor while hasMore is true.',
      'Each change links to the record as a snapshot row. A recorded position is not a stance on the underlying matter.',
    ].join(' '),
    more: 'call again with cursor = nextCursor (it points at the last change shown)',
    omit: ['release'],
    markdown: changesMarkdown,
    // The budget kept fewer changes than were read: continue right after the last one kept.
    onListCut: (feed, key) => {
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
      'The manifest of versioned bulk snapshots of the current release (documents, supervisors, recorded-positions, legislative-files): record counts, key and order, record JSON Schemas, JSON/NDJSON page URLs (cursor-paginated, pinned to the release) and Parquet files with sha256; the same as GET /api/snapshots.',
      'Use it before bulk analysis or to learn the data model; fetch the pages over HTTP. Follow new data with read_changes.',
      'A recorded position (in recorded-positions) is not a stance on the underlying matter: it is a vote on the action named beside it.',
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
  return {
    name: row.name,
    title: row.title,
    description: row.description,
    input: paramsSchema(ep.params, row.omit),
    params: ep.params,
    output: responseOutput(ep.response),
    run: ({ release, urls }, params) => query(release, urls, params),
    markdown,
    more: row.more,
    onListCut: row.onListCut,
  };
}

const [ask, searchPages, searchItems, searchComments, ...rest] = ROWS.map(toolOf);

/** Every tool, in the order clients list them. */
export const tools: Tool[] = [ask, searchPages, searchItems, searchComments, getRecord, ...rest];
