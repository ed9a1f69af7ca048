// What every request carries through the middleware (Koa's ctx.state), set up in app.ts.
import type { Lake } from '../lake/lake.ts';
import type { Release } from '../lake/release.ts';
import type { Downloads } from './downloads.ts';
import type { Urls } from './urls.ts';

/** `POST /api/mcp`: the whole body and the request's deadline (counted from the body's arrival), from the MCP gate. */
export interface McpRequest {
  body: Buffer;
  deadline: AbortSignal;
}

export interface State {
  release: Release;
  urls: Urls;
  lake: Lake;
  /** Every release this request holds (the current one, and a `release=` pin), let go when the response ends. */
  holds: Release[];
  /** `POST /api/mcp`: the body and deadline, from the gate in front of admission. */
  mcp?: McpRequest;
  /** Release-file downloads in progress, bounded apart from admission. */
  downloads: Downloads;
  /** Requests admitted right now (health reports it). */
  admitted: () => number;
}
