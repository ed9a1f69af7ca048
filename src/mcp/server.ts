// The MCP server of one request: a fresh McpServer with every read-only tool, bound to the request's release.
import { McpServer } from '@modelcontextprotocol/server';

import { type Deps, oneAtATime, register } from './tool.ts';
import { tools } from './tools.ts';

const INSTRUCTIONS = [
  'Read-only records of the San Francisco Board of Supervisors (agendas, minutes, legislative files, roll calls, public-comment summaries), 2012–2026, as far as the lake holds them.',
  'The lake holds some meetings of that span, and minutes (votes, public comment) of fewer: every counting answer states its `coverage`, and the coverage tool gives the whole picture; never read a zero count as "never happened" beyond it.',
  "Start with ask for an open question, search_items for legislation and votes, search_pages for any mention, search_public_comments for speakers, get_meeting for one meeting (list_meetings for the dates); open any record URL with get_record; count a supervisor's recorded positions with vote_aggregate and housing_aggregate; follow new data with list_releases, read_changes and snapshot_manifest.",
  'Cite officialUrl (the City PDF). A recorded position is not a stance on the underlying matter: read the action text.',
  'Each result is kept within about 20k tokens; `trimmed` lists what was cut (path, kept, of) and how to fetch the rest. Output schemas show the first level; the OpenAPI document at /api/openapi.json has every field.',
].join(' ');

export function createMcpServer(deps: Deps): McpServer {
  const server = new McpServer(
    { name: 'board-records', title: 'Board Records', version: '2.0.0' },
    // One server per request with a fixed tool list: the list never changes while a client could listen.
    { instructions: INSTRUCTIONS, capabilities: { tools: { listChanged: false } } },
  );
  const turn = oneAtATime();
  for (const tool of tools) register(server, tool, deps, turn);
  return server;
}
