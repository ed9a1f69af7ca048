// The MCP server of one request: a fresh McpServer with every read-only tool, bound to the request's release.
import { McpServer } from '@modelcontextprotocol/server';
import { oneAtATime, register, type Deps } from './tool.ts';
import { tools } from './tools.ts';

const INSTRUCTIONS = [
  'Read-only records of the San Francisco Board of Supervisors (agendas, minutes, legislative files, roll calls, public-comment summaries), 2012–2026.',
  'Start with ask for an open question, search_items for legislation and votes, search_pages for any mention, search_public_comments for speakers; open a hit with get_record (by id or URL); count a supervisor\'s recorded positions with vote_aggregate and housing_aggregate; follow new data with read_changes and snapshot_manifest.',
  'Cite officialUrl (the City PDF). A recorded position is not a stance on the underlying matter: read the action text.',
  'Each result is kept within about 20k tokens; `trimmed` says what was cut and how to get the rest.',
].join(' ');

export function createMcpServer(deps: Deps): McpServer {
  const server = new McpServer({ name: 'board-records', title: 'Board Records', version: '2.0.0' }, { instructions: INSTRUCTIONS });
  const turn = oneAtATime();
  for (const tool of tools) register(server, tool, deps, turn);
  return server;
}
