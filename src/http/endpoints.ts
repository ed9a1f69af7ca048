// The endpoint table: path, parameter schema, response schema, handler and Markdown rendering. The router and the
// OpenAPI document are both built from it, so they cannot drift apart. Each area keeps its endpoints in routes/.
import type { Context, Middleware } from 'koa';
import type { Release } from '../lake/release.ts';
import type { Urls } from './urls.ts';

export interface HandlerInput<P> {
  release: Release;
  urls: Urls;
  params: P;
  /** Path parameters, e.g. `{ id }`, with any `.md` suffix already removed. */
  path: Record<string, string>;
  ctx: Context;
}

export interface Endpoint {
  /** Router path (`:id` for path parameters). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params: string;
  response: string;
  /** Present when the endpoint also answers in Markdown (`.md`, `format=md`, `Accept: text/markdown`). */
  markdown?: (body: any) => string;
  /** The endpoint can also stream `application/x-ndjson` (chosen by its `format` parameter). */
  ndjson?: boolean;
  /** Returns the JSON body; may instead set `ctx.body` itself (a stream) and return undefined. */
  handler: (input: HandlerInput<any>) => Promise<unknown>;
}

/** Routes that are not JSON/Markdown GET resources (the MCP endpoint, the web page, release files). */
export interface RawRoute {
  methods: string[];
  path: string;
  handler: (ctx: Context) => Promise<void>;
}

/** Routes mounted on the app from outside http/ (the MCP endpoint), with middleware that runs before admission. */
export interface Mount {
  gate: Middleware;
  routes: RawRoute[];
}
