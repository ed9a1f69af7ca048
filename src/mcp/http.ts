// POST /api/mcp: stateless MCP Streamable HTTP. Each request gets a fresh McpServer over the request's release,
// served by the SDK's web-standard handler, which speaks both protocol generations: 2026-07-28 (per-request
// envelope) and the 2025 line (2025-11-25 and earlier, stateless: no session ids). The SDK answers every protocol
// error itself: malformed JSON-RPC, a wrong Accept or Content-Type, an unsupported protocol version, GET/DELETE
// (405, there are no sessions), a body over MAX_BODY_BYTES (413, before anything is parsed). In front of it: the
// Origin check the MCP spec requires (browsers from other sites get 403), and no CORS for this path.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context } from 'koa';
import { createMcpHandler, localhostAllowedOrigins, originValidationResponse } from '@modelcontextprotocol/server';
import type { State } from '../http/app.ts';
import type { RawRoute } from '../http/endpoints.ts';
import { createMcpServer } from './server.ts';

export const MCP_PATH = '/api/mcp';
/** Requests are small JSON-RPC messages; anything bigger is refused with 413 before parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Unexpected tool failures (the client gets a generic isError result; the stack goes to stderr). */
const log = (line: string) => console.error(line);

/** The request as a web-standard Request (the body streamed, so the SDK can stop reading at the size limit). */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(ctx.req.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(ctx.method);
  return new Request(`${ctx.protocol}://${ctx.host}${ctx.originalUrl}`, {
    method: ctx.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(ctx.req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/** Same origin (the host this request was addressed to, or the public base URL's) or loopback; no Origin passes. */
function refuseOrigin(ctx: Context): Response | undefined {
  const origin = ctx.get('Origin');
  if (!origin) return undefined;
  const own = new Set([ctx.host, new URL((ctx.state as State).urls.base).host]);
  try {
    if (own.has(new URL(origin).host)) return undefined;
  } catch {
    // unparsable: the SDK check below refuses it
  }
  return originValidationResponse(new Request(`${ctx.protocol}://${ctx.host}${ctx.originalUrl}`, { headers: { Origin: origin } }), localhostAllowedOrigins());
}

async function send(ctx: Context, res: Response): Promise<void> {
  ctx.status = res.status;
  res.headers.forEach((value, key) => {
    if (key !== 'content-length') ctx.set(key, value);
  });
  // A refused body was not read to its end: close the connection rather than leave the rest on it.
  if (res.status === 413) ctx.set('Connection', 'close');
  ctx.body = res.body ? Readable.fromWeb(res.body as NodeReadableStream) : '';
}

async function handle(ctx: Context): Promise<void> {
  // The REST API is open to CORS; this endpoint is not (its callers are MCP clients and same-origin pages).
  for (const h of ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'Access-Control-Allow-Credentials']) ctx.remove(h);
  const refused = refuseOrigin(ctx);
  if (refused) return send(ctx, refused);
  const request = webRequest(ctx);
  const { release, urls } = ctx.state as State;
  const mcp = createMcpHandler(() => createMcpServer({ release, urls, log }), { maxRequestBodySize: MAX_BODY_BYTES });
  const res = await mcp.fetch(request);
  ctx.res.once('close', () => void mcp.close());
  await send(ctx, res);
}

export const mcpRoutes: RawRoute[] = [{ methods: ['POST', 'GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'], path: MCP_PATH, handler: handle }];
