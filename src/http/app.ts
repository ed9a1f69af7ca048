// The Koa application: logging and release pinning, CORS, problem documents, content negotiation, the endpoint table.
import cors from '@koa/cors';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';

import { type Config, limitsOf } from '../config.ts';
import type { Lake } from '../lake/lake.ts';
import { Overloaded, QueryTimeout } from '../lake/pool.ts';
import type { Release } from '../lake/release.ts';
import { notFoundHtml } from '../render/html/problems.ts';
import { checkResponse } from '../schemas.ts';
import { answersOf } from './answers.ts';
import { etagOf, notModified } from './cache.ts';
import { compression } from './compress.ts';
import { Downloads } from './downloads.ts';
import { type Endpoint, isEndpoint, type Mount } from './endpoints.ts';
import { HttpError, notFound, type ProblemType, problemTypeOf, toProblem } from './errors.ts';
import { readParams } from './params.ts';
import { canonicalPath } from './paths.ts';
import { routes } from './routes/index.ts';
import type { State } from './state.ts';
import { ownBase, Urls } from './urls.ts';
import { clientFault, faultLine, whenDone } from './wire.ts';

/** The Koa app, and how many requests it has admitted right now. */
export type App = Koa & { admitted: () => number; downloads: Downloads };

/** Answered outside admission: cheap, or bounded elsewhere (release files have their own download pool). */
const unadmitted = (path: string) =>
  path === '/api/health' ||
  path.startsWith('/assets/') ||
  path.startsWith('/problems/') ||
  /^\/api\/releases\/[^/]+\/files\//.test(path);

type Format = 'json' | 'md' | 'ndjson' | 'csv';

/**
 * `.md` suffix, then `format=md`, then `Accept: text/markdown`; on NDJSON (CSV) endpoints `format=ndjson` (`csv`), or
 * an Accept that prefers `application/x-ndjson` (`text/csv`); anything a client cannot take is a 406.
 */
function negotiate(ctx: Context, ep: Endpoint): Format {
  const markdown = ep.markdown !== undefined;
  const { ndjson, csv } = ep;
  if (markdown && ctx.path.endsWith('.md')) return 'md';
  if (markdown && ctx.query.format === 'md') return 'md';
  if (ndjson && ctx.query.format === 'ndjson') return 'ndjson';
  if (csv && ctx.query.format === 'csv') return 'csv';
  const accept = ctx.get('Accept');
  if (markdown && /text\/markdown/i.test(accept) && !/application\/json/i.test(accept)) return 'md';
  const preferred = accept
    ? ctx.accepts(
        'application/json',
        'application/problem+json',
        ...(markdown ? ['text/markdown'] : []),
        ...(ndjson ? ['application/x-ndjson'] : []),
        ...(csv ? ['text/csv'] : []),
      )
    : 'application/json';
  if (!preferred)
    throw new HttpError(
      406,
      'Not acceptable',
      `this endpoint answers application/json${markdown ? ' or text/markdown' : ''}${ndjson ? ' or application/x-ndjson' : ''}${csv ? ' or text/csv' : ''}`,
    );
  if (ctx.query.format === undefined && preferred === 'application/x-ndjson') return 'ndjson';
  if (ctx.query.format === undefined && preferred === 'text/csv') return 'csv';
  return 'json';
}

/** An HTML page instead of a problem document: a 404 off the API to a client that prefers HTML (a browser). */
const wantsHtml = (ctx: Context) =>
  !ctx.path.startsWith('/api/') &&
  ctx.accepts('application/problem+json', 'application/json', 'text/html') === 'text/html';

function problem(
  ctx: Context,
  status: number,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
  type: ProblemType = problemTypeOf(status),
) {
  ctx.status = status;
  ctx.vary('Accept');
  if (status === 404 && wantsHtml(ctx)) {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    ctx.body = notFoundHtml(ctx.path, detail);
    return;
  }
  const { urls, release } = ctx.state as State;
  ctx.type = 'application/problem+json';
  ctx.body = {
    type: urls.problem(type),
    title,
    status,
    detail,
    instance: ctx.path,
    ...extra,
    release: release?.id ?? null,
  };
}

/** The next page of a paged answer (snapshot pages, the change feed, meetings), as the request's own query with the cursor moved. */
function nextQuery(ctx: Context, body: unknown): Record<string, string> | null {
  const b = body as { nextCursor?: unknown; hasMore?: unknown; nextAfter?: unknown } | undefined;
  if (b === undefined) {
    const next = ctx.response.get('X-Next-Cursor'); // a streamed NDJSON page
    return next ? { cursor: next } : null;
  }
  if (typeof b.nextAfter === 'string') return { after: b.nextAfter };
  if (typeof b.nextCursor === 'number' && b.hasMore !== false) return { cursor: String(b.nextCursor) };
  return null;
}

/** `mounts`: routes served beside the endpoint table (the MCP endpoint, mounted by server.ts). */
export function createApp(config: Config, lake: Lake, mounts: Mount[] = []): App {
  const limits = limitsOf(config);
  const downloads = new Downloads(limits);
  const app = new Koa();
  app.proxy = false;
  const router = new Router();

  // Every later rule (the MCP gate, admission, CORS, caches, the router) reads the one canonical path (paths.ts).
  let templates: string[] | undefined; // the router's, once every route is registered
  app.use(async (ctx, next) => {
    templates ??= router.stack.flatMap((l) => (typeof l.path === 'string' ? [l.path] : []));
    const path = canonicalPath(ctx.path, templates);
    if (path !== ctx.path) ctx.path = path;
    return next();
  });
  app.use(async (ctx, next) => {
    const started = performance.now();
    const release = lake.acquire();
    (ctx.state as State).release = release;
    (ctx.state as State).lake = lake;
    (ctx.state as State).holds = [release];
    (ctx.state as State).downloads = downloads;
    (ctx.state as State).admitted = () => admitted;
    (ctx.state as State).urls = new Urls(config.publicBaseUrl ?? ownBase(config, ctx.req.socket));
    ctx.set('X-Release-Id', release.id);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      await next();
    } finally {
      // Once the answer is over (sent, or its client gone, perhaps long before): a retired release can close.
      whenDone(ctx.res, () => {
        for (const r of (ctx.state as State).holds) r.drop();
        config.log(
          JSON.stringify({
            time: new Date().toISOString(),
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round((performance.now() - started) * 10) / 10,
            release: (ctx.state as State).release.id,
          }),
        );
      });
    }
  });
  // CORS on every path, /api/mcp included: any origin, never credentials (the service holds none; the MCP gate's Host
  // check is what stops DNS rebinding). A preflight is granted the headers it asks for (none is given a meaning here
  // that a page could abuse, and a fixed list refused what client libraries add: Authorization, traceparent, …) and may
  // be cached for a day (browsers cap it lower: Chromium at 2 hours).
  app.use(
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      exposeHeaders: [
        'X-Release-Id',
        'ETag',
        'Link',
        'X-Schema-Version',
        'X-Next-Cursor',
        'X-Total-Count',
        'Content-Range',
        'Accept-Ranges',
        'Content-Length',
        'Mcp-Session-Id',
      ],
      maxAge: 86400,
      keepHeadersOnError: true,
    }),
  );
  // Outside the problem documents, so they are compressed too.
  app.use(compression());
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) problem(ctx, 404, 'Not found', `no resource at ${ctx.path}`);
    } catch (e) {
      const p = toProblem(e);
      // A failure of the server is not an answer any cache may keep (a 4xx is: it is a function of the request).
      if (!p || p.status >= 500) {
        ctx.remove('ETag');
        ctx.set('Cache-Control', 'no-store');
      }
      if (p) {
        for (const [k, v] of Object.entries(p.headers)) ctx.set(k, v);
        problem(ctx, p.status, p.title, p.detail, p.extra, p.type);
      } else {
        config.log(
          JSON.stringify({ time: new Date().toISOString(), level: 'error', path: ctx.path, error: (e as Error).stack }),
        );
        problem(ctx, 500, 'Internal error', 'the server could not answer this request');
      }
    }
  });

  // What must run before admission (MCP bodies are read, bounded in size and time, so a slow client holds no slot).
  for (const m of mounts) app.use(m.gate);

  // Admission: at most poolSize + queueLimit requests at work, waiting for a connection or sending their answer; the
  // rest get 503 at once instead of piling up. A slot is given back once the handler is done and the answer is over
  // (sent, or its client gone); an answer not sent within the send timeout has its connection closed.
  let admitted = 0;
  app.use(async (ctx, next) => {
    if (unadmitted(ctx.path)) return next();
    if (admitted >= config.poolSize + config.queueLimit) throw new Overloaded('too many requests');
    admitted++;
    // A last line of defence: whatever a handler waits on, the request is answered (503) once its time is up.
    let deadline: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      deadline = setTimeout(
        () => reject(new QueryTimeout('request exceeded its time limit')),
        config.queryTimeoutMs * 2 + 1000,
      );
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(deadline);
      const cut = setTimeout(() => ctx.res.destroy(), limits.sendTimeoutMs);
      whenDone(ctx.res, () => {
        clearTimeout(cut);
        admitted--;
      });
    }
  });

  /** `release=<id>`: answer from that release (current or kept) for the whole request; 404 when it is not kept. */
  const pin = async (ctx: Context, id: string): Promise<Release> => {
    const pinned = await lake.acquireById(id);
    if (!pinned) {
      const kept = await lake.kept();
      throw new HttpError(
        404,
        'Release not kept',
        `release ${id} is not kept on this server; kept releases: ${kept.join(', ') || 'none'}`,
        { keptReleases: kept },
        {},
        'release-not-kept',
      );
    }
    const state = ctx.state as State;
    state.holds.push(pinned);
    state.release = pinned;
    ctx.set('X-Release-Id', pinned.id);
    return pinned;
  };

  const serve = (ep: Endpoint) => async (ctx: Context) => {
    // A `.md` path of an endpoint with no Markdown rendering names nothing (never its JSON).
    if (!ep.markdown && Object.values(ctx.params ?? {}).some((v) => String(v).endsWith('.md')))
      throw notFound(
        `${ep.path.replace(/:(\w+)/g, '{$1}')} has no Markdown rendering; it answers application/json${ep.ndjson ? ' or application/x-ndjson' : ''}`,
      );
    const format = negotiate(ctx, ep);
    const path: Record<string, string> = {};
    for (const [k, v] of Object.entries(ctx.params ?? {})) path[k] = String(v).replace(/\.md$/, '');
    const query = { ...ctx.query };
    if (format === 'md' && query.format === undefined && ep.markdown) query.format = 'md';
    if ((format === 'ndjson' || format === 'csv') && query.format === undefined) query.format = format;
    const params = readParams<Record<string, unknown>>(ep.params, query);
    const release = typeof params.release === 'string' ? await pin(ctx, params.release) : (ctx.state as State).release;
    // A release never changes, so the ETag is known before any query runs; the origin judges If-None-Match itself
    // (RFC 9110 13.1.2), whatever Cache-Control the client sent.
    // Pinned to a release, the answer never changes; the current release may be replaced, so a minute's freshness.
    ctx.vary('Accept');
    const fresh =
      !ep.aboutLake &&
      notModified(
        ctx,
        etagOf(`${release.id}
${ctx.url}
${format}`),
        typeof params.release === 'string' ? 'public, max-age=31536000, immutable' : 'public, max-age=60',
        { modified: release.manifest.createdAt, coded: params.format !== 'arrow' },
      );
    if (fresh) return;
    const urls = (ctx.state as State).urls;
    const answers = ep.aboutLake ? null : await answersOf(release, config.answerCacheBytes ?? 0);
    const key = `${urls.base}\n${ctx.url}\n${format}`;
    const cached = answers?.get(key);
    if (cached) {
      if (cached.link) ctx.set('Link', cached.link);
      ctx.type = cached.type;
      ctx.body = cached.text;
      return;
    }
    const body = ep.query
      ? await ep.query(release, urls, params)
      : await ep.handler!({ release, urls, params, path, ctx });
    const next = nextQuery(ctx, body);
    // An unpinned request's next page must come from this one's release, not from whichever is current then.
    const pinned = ep.pinsPages && typeof params.release !== 'string' ? { release: release.id } : {};
    if (next)
      ctx.set(
        'Link',
        `<${urls.api(ctx.path, { ...(ctx.query as Record<string, string>), ...pinned, ...next })}>; rel="next"`,
      );
    if (body === undefined) return; // the handler answered itself (a stream)
    if (config.contractChecks) {
      const violations = checkResponse(ep.response, body);
      if (violations.length)
        throw new Error(`contract violation on ${ep.path}: ${JSON.stringify(violations.slice(0, 3))}`);
    }
    const link = ctx.response.get('Link') ?? '';
    const answer =
      format === 'md'
        ? { type: 'text/markdown; charset=utf-8', text: ep.markdown!(body), link }
        : { type: 'application/json; charset=utf-8', text: JSON.stringify(body), link };
    answers?.set(key, answer);
    // The lake changes without a date: no Last-Modified.
    if (ep.aboutLake && notModified(ctx, etagOf(`${answer.type}\n${answer.text}`), 'no-cache', { modified: null }))
      return;
    ctx.type = answer.type;
    ctx.body = answer.text;
  };

  // Every route of the list: the endpoint table's through `serve`, raw routes as they are, mounted ones by their mount.
  for (const route of routes) {
    if (isEndpoint(route)) {
      router.get(route.path, serve(route));
      if (route.markdown && !route.path.includes(':')) router.get(`${route.path}.md`, serve(route));
    } else if ('handler' in route) router.register(route.path, route.methods, route.handler);
  }
  for (const route of mounts.flatMap((m) => m.routes)) router.register(route.path, route.methods, route.handler);

  // Errors after the headers went out (a streamed body): a client that went away or spoke bad HTTP is one line.
  app.on('error', (e: Error & { code?: string }) => {
    config.log(
      clientFault(e)
        ? faultLine('client-gone', e)
        : JSON.stringify({ time: new Date().toISOString(), level: 'error', error: e.stack }),
    );
  });
  app.use(router.routes());
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    const known = router.match(ctx.path, 'GET').path.length > 0;
    if (known && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD, OPTIONS');
      throw new HttpError(
        405,
        'Method not allowed',
        `${ctx.method} is not allowed on ${ctx.path}; this service is read-only`,
      );
    }
  });
  return Object.assign(app, { admitted: () => admitted, downloads });
}
