// POST /api/mcp: stateless MCP Streamable HTTP. Each request gets a fresh McpServer over the request's release,
// served by the SDK's web-standard handler, which speaks both protocol generations: 2026-07-28 (per-request
// envelope) and the 2025 line (2025-11-25 and earlier, stateless: no session ids). The SDK answers every protocol
// error itself: malformed JSON-RPC, a wrong Accept or Content-Type, an unsupported protocol version, GET/DELETE
// (405, there are no sessions). In front of it, before admission (`mcpGate`): the Host check (DNS rebinding: 400 for
// a malformed Host, 403 for a foreign one), the body read whole under MAX_BODY_BYTES (413), the body timeout
// (408) and the cap on body bytes held across requests (503), and the batch bound (400). Browser pages of any origin may call it (CORS, app.ts): it is public, read-only
// and holds no credentials, so an Origin allow-list would protect nothing.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

import { createMcpHandler, localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server';
import type { Context, Next } from 'koa';

import { type Config, limitsOf } from '../config.ts';
import type { Mount, RawRoute } from '../http/endpoints.ts';
import type { State } from '../http/state.ts';
import { ownBase } from '../http/urls.ts';
import { BodyBudget, BodyRefused, readBody, whenDone } from '../http/wire.ts';
import { ToolLinks } from './links.ts';
import { createMcpServer } from './server.ts';

export const MCP_PATH = '/api/mcp';
/** Requests are small JSON-RPC messages; anything bigger is refused with 413 before parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Unexpected tool failures (the client gets a generic isError result; the stack goes to stderr). */
const log = (line: string) => console.error(line);

const rpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/** Host names this service answers to: loopback, its configured (or reached) address, PUBLIC_BASE_URL's host. */
function allowedHosts(ctx: Context, config: Config): string[] {
  const own = [ownBase(config, ctx.req.socket), ...(config.publicBaseUrl ? [config.publicBaseUrl] : [])];
  return [...localhostAllowedHostnames(), ...own.map((u) => new URL(u).hostname)];
}

/** A malformed or missing Host is a 400; a Host naming another site (DNS rebinding) a 403. */
function refuseHost(ctx: Context, config: Config): Response | undefined {
  const host = validateHostHeader(ctx.get('Host'), allowedHosts(ctx, config));
  if (!host.ok) return rpcError(host.errorCode === 'invalid_host' ? 403 : 400, -32000, host.message);
  return undefined;
}

async function send(ctx: Context, res: Response): Promise<void> {
  ctx.status = res.status;
  res.headers.forEach((value, key) => {
    if (key !== 'content-length') ctx.set(key, value);
  });
  ctx.body = res.body ? Readable.fromWeb(res.body as NodeReadableStream) : '';
}

const messageCount = (body: Buffer): number => {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return Array.isArray(parsed) ? parsed.length : 1;
  } catch {
    return 1; // the SDK answers the parse error
  }
};

/** Runs before admission for /api/mcp: checks, then reads the whole body, so a slow client holds no admission slot. */
export function mcpGate(config: Config) {
  const limits = limitsOf(config);
  const bodies = new BodyBudget(limits.mcpBodyBytesTotal); // bodies being read, across requests
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path !== MCP_PATH) return next(); // the canonical path (src/http/paths.ts): no spelling steps around it
    const refused = refuseHost(ctx, config);
    if (refused) return send(ctx, refused);
    if (ctx.method !== 'POST') return next();
    let body: Buffer;
    try {
      body = await readBody(ctx.req, MAX_BODY_BYTES, limits.bodyTimeoutMs, bodies);
    } catch (e) {
      if (!(e instanceof BodyRefused)) throw e;
      // The rest of the body is left unread: close the connection rather than leave it on it.
      ctx.set('Connection', 'close');
      if (e.status === 503) ctx.set('Retry-After', '1');
      return send(ctx, rpcError(e.status ?? 400, -32000, e.message));
    }
    const count = messageCount(body);
    if (count > limits.mcpBatchLimit)
      return send(
        ctx,
        rpcError(
          400,
          -32600,
          `Invalid Request: a batch may hold at most ${limits.mcpBatchLimit} messages (got ${count})`,
        ),
      );
    (ctx.state as State).mcp = { body, deadline: AbortSignal.timeout(limits.mcpDeadlineMs) };
    return next();
  };
}

async function handle(ctx: Context): Promise<void> {
  const { release, urls, mcp: request } = ctx.state as State;
  const gone = new AbortController();
  const deadline = request ? AbortSignal.any([request.deadline, gone.signal]) : gone.signal; // only POSTs reach a tool
  const mcp = createMcpHandler(() => createMcpServer({ release, urls: new ToolLinks(urls.base), log, deadline }), {
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  // A client that leaves tears the exchange down (the SDK listens to the request's signal).
  whenDone(ctx.res, () => {
    gone.abort();
    void mcp.close();
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(ctx.req.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  // The URL is built from the service's own base, never the client's Host header, and the canonical path.
  const res = await mcp.fetch(
    new Request(`${urls.base}${ctx.url}`, {
      method: ctx.method,
      headers,
      signal: gone.signal,
      ...(request ? { body: new Uint8Array(request.body) } : {}),
    }),
  );
  await send(ctx, res);
}

export const mcpRoutes: RawRoute[] = [
  { methods: ['POST', 'GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'], path: MCP_PATH, handler: handle },
];

/** The MCP endpoint as server.ts mounts it on the app: the gate before admission, and the route. */
export const mcpMount = (config: Config): Mount => ({ gate: mcpGate(config), routes: mcpRoutes });
