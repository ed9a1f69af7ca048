// One read-only tool: its schemas, the query it calls and its Markdown. `register` adds the parts every tool shares:
// a release held for the call, REST-identical argument errors as `isError` results, the token budget, the release id.
import type { ParsedUrlQuery } from 'node:querystring';

import type { McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';

import { HttpError } from '../http/errors.ts';
import { readParams } from '../http/params.ts';
import type { Urls } from '../http/urls.ts';
import { busyDetail, cancelledBy, QueryTimeout } from '../lake/pool.ts';
import type { Release } from '../lake/release.ts';
import { InvalidParameter } from '../queries/errors.ts';
import type { ParamsSchemaId, SchemaTypes } from '../schema-types.ts';
import { fit, footer, type Holder } from './budget.ts';
import { type JsonSchema, passThrough } from './schema.ts';

export interface ToolContext {
  release: Release;
  urls: Urls;
}

/**
 * One tool as it is written: `P` the type of its parsed arguments, `B` of its answer (a response schema's type, see
 * src/schema-types.ts), which its Markdown reads. Written through `tool<P, B>(…)`.
 */
export interface TypedTool<P, B extends object> {
  name: string;
  title: string;
  /** When to use it, what it returns, and its caveats (an agent reads this to choose a tool). */
  description: string;
  /** The advertised input schema (normally a REST parameter schema via paramsSchema). */
  input: JsonSchema;
  /** Validates and coerces arguments, throwing InvalidParameter as REST does (readParams, see `restParams`). */
  parse: (args: Record<string, unknown>) => P;
  output: StandardSchemaWithJSON<Record<string, unknown>>;
  run: (ctx: ToolContext, params: P) => Promise<B>;
  markdown: (body: B) => string;
  /** How to get what a shortened list left out. */
  more: string;
  /** Fixes what depends on a list the budget shortened (e.g. the change feed's cursor): the list's holder and key. */
  onListCut?: (holder: Holder, key: string | number) => void;
}

/**
 * A tool whatever its types: what `register` and the tool list take. Its functions are methods, so a TypedTool<P, B>
 * is one (methods compare their parameters both ways): `register` hands `run` what `parse` returned, and `markdown`
 * what `run` answered.
 */
export interface Tool {
  name: string;
  title: string;
  description: string;
  input: JsonSchema;
  parse(args: Record<string, unknown>): unknown;
  output: StandardSchemaWithJSON<Record<string, unknown>>;
  run(ctx: ToolContext, params: unknown): Promise<object>;
  markdown(body: unknown): string;
  more: string;
  onListCut?(holder: Holder, key: string | number): void;
}

/** A tool: checked as TypedTool<P, B> here, listed as a Tool. */
export const tool = <P, B extends object>(t: TypedTool<P, B>): Tool => t;

/** Connects per-call dependencies: the release of the HTTP request (held again for the call) and link building. */
export interface Deps {
  release: Release;
  urls: Urls;
  log: (line: string) => void;
  /**
   * The HTTP request's deadline (or its client gone): a call that has not started by then answers at once that it was
   * not run, and the queries of one that is running are interrupted.
   */
  deadline: AbortSignal;
}

/** Runs what it is given one at a time, in order: the calls of one request (a batch) take one connection's turn each. */
export function oneAtATime(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn);
    tail = run.catch(() => {});
    return run;
  };
}

/** Arguments as the query string would carry them, so readParams coerces and words errors exactly as for REST. */
const asQuery = (args: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? String(v) : v]),
  ) as ParsedUrlQuery;

/** A REST parameter a tool leaves out (`format`, `release`) is refused as REST refuses unknown parameters. */
function known(input: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  const unknown = Object.keys(args).filter((k) => !(k in ((input.properties as object) ?? {})));
  if (unknown.length)
    throw new InvalidParameter(
      unknown.map((k) => ({ parameter: k, rule: 'unknown', message: `${k} is not a parameter of this endpoint` })),
    );
  return args;
}

/** Arguments read as the REST endpoint reads its query string: parameter schema `id`, the tool's `input` properties. */
export const restParams =
  <K extends ParamsSchemaId>(id: K, input: JsonSchema) =>
  (args: Record<string, unknown>): SchemaTypes[K] =>
    readParams(id, asQuery(known(input, args)));

const errorResult = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });

export function register(server: McpServer, tool: Tool, deps: Deps, turn: ReturnType<typeof oneAtATime>): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: passThrough(tool.input),
      outputSchema: tool.output,
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    (args: Record<string, unknown>) =>
      turn(async () => {
        if (deps.deadline.aborted)
          return errorResult(
            "the request's time limit passed before this call started; send it again in a request of its own",
          );
        const release = deps.release.hold();
        try {
          const params = tool.parse(args);
          const body = await cancelledBy(deps.deadline, () => tool.run({ release, urls: deps.urls }, params));
          const fitted = fit({ ...body, release: release.id }, tool.markdown, tool.more, tool.onListCut);
          const structured = { ...fitted.body, release: release.id, trimmed: fitted.trimmed };
          return {
            content: [{ type: 'text' as const, text: fitted.markdown + footer(release.id, fitted.trimmed) }],
            structuredContent: structured,
          };
        } catch (e) {
          if (e instanceof HttpError || e instanceof InvalidParameter) return errorResult(e.message);
          const busy = busyDetail(e);
          if (busy)
            return errorResult(
              e instanceof QueryTimeout && deps.deadline.aborted
                ? "the request's time limit passed while this call ran; send it again in a request of its own"
                : busy,
            );
          deps.log(
            JSON.stringify({
              time: new Date().toISOString(),
              level: 'error',
              tool: tool.name,
              error: (e as Error).stack,
            }),
          );
          return errorResult('the server could not answer this request');
        } finally {
          release.drop();
        }
      }),
  );
}
