// Links for answers given over MCP: record links stay URLs (get_record opens them), but where an answer tells the caller
// what to call next, it names the tool and its arguments rather than a REST URL the agent would have to fetch itself.
import { Urls } from '../http/urls.ts';
import type { LinkQuery } from '../queries/links.ts';

const call = (tool: string, q: LinkQuery) =>
  `the ${tool} tool with ${JSON.stringify(Object.fromEntries(Object.entries(q).filter(([, v]) => v !== null && v !== undefined && v !== '')))}`;

export class ToolLinks extends Urls {
  votes(q: LinkQuery): string {
    return call('vote_aggregate', q);
  }
  housing(q: LinkQuery): string {
    return call('housing_aggregate', q);
  }
  comments(q: LinkQuery): string {
    return call('search_public_comments', q);
  }
}
