// The route list's entries: the endpoint table's (path, parameter schema, response schema, query or handler, Markdown
// rendering), raw routes and mounted ones. The router, the OpenAPI document and the MCP tools (src/mcp/tools.ts) are
// all built from the one list (routes/index.ts), so they cannot drift apart. Each area keeps its routes in routes/.
import type { Context, Middleware } from 'koa';

import type { Release } from '../lake/release.ts';
import type { Links } from '../queries/links.ts';
import type { ParamsSchemaId, SchemaTypes } from '../schema-types.ts';
import type { Operations } from './openapi-parts.ts';
import type { Urls } from './urls.ts';

export interface HandlerInput<P> {
  release: Release;
  urls: Urls;
  params: P;
  /** Path parameters, e.g. `{ id }`, with any `.md` suffix already removed. */
  path: Record<string, string>;
  ctx: Context;
}

/**
 * One endpoint as the table writes it: `P` is the type of its parameter schema (what readParams returns for
 * `params`), `R` the type of its response schema (src/schema-types.ts), so the query's answer is checked against the
 * response schema's type, and the Markdown reads that type. Written through `endpoint<P, R>(…)`.
 */
export interface TypedEndpoint<P, R extends object> {
  /** Router path (`:id` for path parameters). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params: ParamsSchemaId;
  response: keyof SchemaTypes;
  /** Present when the endpoint also answers in Markdown (`.md`, `format=md`, `Accept: text/markdown`). */
  markdown?: (body: R) => string;
  /** The endpoint can also stream `application/x-ndjson` (chosen by its `format` parameter). */
  ndjson?: boolean;
  /** The endpoint can also answer `text/csv` (`format=csv`, or an Accept that prefers it). */
  csv?: boolean;
  /** Its `Link` to the next page names the release of this one when the request did not pin one. */
  pinsPages?: boolean;
  /**
   * Its answer describes the lake (the releases kept and refused), which changes while the release does not: it is
   * never kept in the answer cache, and its ETag is of its bytes, not of the release.
   */
  aboutLake?: boolean;
  /** The query that answers it with the JSON body, HTTP-free: REST and its MCP tool both call it. */
  query?: (release: Release, links: Links, params: P) => Promise<R>;
  /**
   * Where HTTP is needed instead (path ids and 404s, streams, the request's state): returns the JSON body, or sets
   * `ctx.body` itself (a stream) and returns undefined.
   */
  handler?: (input: HandlerInput<P>) => Promise<R | undefined>;
}

/**
 * An entry of the table whatever its types: what the router, the OpenAPI document and the MCP tools read. Its
 * functions are methods, so a TypedEndpoint<P, R> is one (methods compare their parameters both ways); the router
 * hands each the parameters its `params` schema checked, and the body its own query answered.
 */
export interface Endpoint {
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params: ParamsSchemaId;
  response: keyof SchemaTypes;
  markdown?(body: unknown): string;
  ndjson?: boolean;
  csv?: boolean;
  pinsPages?: boolean;
  aboutLake?: boolean;
  query?(release: Release, links: Links, params: unknown): Promise<object>;
  handler?(input: HandlerInput<unknown>): Promise<unknown>;
}

/** A table entry: checked as TypedEndpoint<P, R> here, listed as an Endpoint. */
export const endpoint = <P, R extends object>(e: TypedEndpoint<P, R>): Endpoint => e;

/** Routes that are not JSON/Markdown GET resources (the MCP endpoint, the web page, release files). */
export interface RawRoute {
  methods: string[];
  path: string;
  handler: (ctx: Context) => Promise<void>;
  /** Its operations in the OpenAPI document; absent for what the document leaves out (web pages, feeds, assets). */
  openapi?: Operations;
}

/**
 * A route served by a mount (the MCP endpoint: http/ does not know MCP, server.ts mounts it): listed with the others
 * for the OpenAPI document, its handler comes with the mount.
 */
export interface MountedRoute {
  path: string;
  mounted: true;
  openapi: Operations;
}

/** An entry of the route list (routes/index.ts): a resource of the endpoint table, a raw route, or a mounted one. */
export type Route = Endpoint | RawRoute | MountedRoute;

export const isEndpoint = (r: Route): r is Endpoint => !('methods' in r) && !('mounted' in r);

/** Routes mounted on the app from outside http/ (the MCP endpoint), with middleware that runs before admission. */
export interface Mount {
  gate: Middleware;
  routes: RawRoute[];
}

/**
 * A query whose inferred answer is looser than its response schema's type: one built from DuckDB rows, whose columns
 * TypeScript sees as untyped until the engine declares them, or with an enum column read as a string. This states its
 * answer as `R` (the same function, so nothing changes at run time); the contract check (config.contractChecks, on in
 * every test) verifies the answer against the schema. Each use names the query; a typed query drops it.
 */
export const declared =
  <R>() =>
  <A extends unknown[]>(query: (...args: A) => Promise<unknown>): ((...args: A) => Promise<R>) =>
    query as (...args: A) => Promise<R>;
