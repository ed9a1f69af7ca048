// GET / (the unified search reference page), its two static assets, and the pages of the problem types.
import { readFileSync } from 'node:fs';
import type { Context } from 'koa';
import type { State } from '../state.ts';
import type { RawRoute } from '../endpoints.ts';
import { etagOf, notModified } from '../cache.ts';
import { PROBLEM_TYPES, toProblem, type ProblemType } from '../errors.ts';
import { problemTypeHtml } from '../../render/html/problems.ts';
import { readParams } from '../params.ts';
import { pageHtml, resultsHtml, type Form } from '../../render/html/page.ts';
import type { ProblemBody } from '../../render/html/types.ts';
import { supervisorNames } from '../../queries/supervisors.ts';
import type { UnifiedParams } from '../../queries/unified.ts';
import { search } from '../../queries/search.ts';
import { coverageOf, FULL_SPAN } from '../../queries/coverage.ts';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const ASSETS: Record<string, { type: string; body: string }> = {
  'app.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('../../render/html/assets/app.css', import.meta.url), 'utf8') },
  'app.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('../../render/html/assets/app.js', import.meta.url), 'utf8') },
};

const one = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : String(v ?? '')).trim();

async function page(ctx: Context): Promise<void> {
  const { release, urls } = ctx.state as State;
  // The page is made from the release, the query and X-Partial only: the ETag is known before any query runs.
  ctx.vary('X-Partial');
  if (notModified(ctx, etagOf(`${release.id}\n${ctx.url}\n${ctx.get('X-Partial')}`), 'public, max-age=60')) return;
  const form: Form = {
    q: one(ctx.query.q), type: one(ctx.query.type) || 'all', from: one(ctx.query.from), to: one(ctx.query.to),
    supervisor: one(ctx.query.supervisor), position: one(ctx.query.position), final: one(ctx.query.final) === 'true',
  };
  let body: Record<string, any> | null = null;
  let problem: ProblemBody | null = null;
  if (form.q || Object.keys(ctx.query).length > 0) {
    try {
      const query = { q: form.q, type: form.type, from: form.from, to: form.to, supervisor: form.supervisor, position: form.position, final: form.final ? 'true' : '' };
      const params = readParams<UnifiedParams>('params/search.json', query);
      body = { ...(await search(release, urls, params)), release: release.id };
    } catch (e) {
      const p = toProblem(e);
      if (!p || p.status >= 500) throw e;
      problem = { status: p.status, detail: p.detail, candidates: p.extra.candidates as ProblemBody['candidates'] };
      ctx.status = p.status;
    }
  }
  const lake = body || problem ? null : (await coverageOf(release, FULL_SPAN)).statement;
  const results = resultsHtml(form, body, problem, lake);
  ctx.set('Content-Security-Policy', CSP);
  ctx.type = 'text/html; charset=utf-8';
  if (ctx.get('X-Partial') === 'results') {
    ctx.body = results;
    return;
  }
  ctx.body = pageHtml(form, await supervisorNames(release), results);
}

/** `/problems/{type}`: what a problem type means, as HTML, or as JSON for a client that prefers it. */
async function problemType(ctx: Context): Promise<void> {
  const key = String(ctx.params.type);
  if (!Object.hasOwn(PROBLEM_TYPES, key)) return; // 404
  const p = { key, ...PROBLEM_TYPES[key as ProblemType] };
  const { urls } = ctx.state as State;
  ctx.vary('Accept');
  const type = ctx.accepts('text/html', 'application/json', 'application/problem+json');
  if (notModified(ctx, etagOf(`${key}\n${type}`), 'public, max-age=3600')) return;
  if (type === 'application/json' || type === 'application/problem+json') {
    ctx.type = 'application/json';
    ctx.body = { type: urls.problem(key), title: p.title, status: p.status, description: p.description, action: p.action };
    return;
  }
  ctx.set('Content-Security-Policy', CSP);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = problemTypeHtml(p);
}

export const webRoutes: RawRoute[] = [
  { methods: ['GET', 'HEAD'], path: '/problems/:type', handler: problemType },
  { methods: ['GET', 'HEAD'], path: '/', handler: page },
  { methods: ['GET', 'HEAD'], path: '/favicon.ico', handler: async (ctx) => { ctx.status = 204; } },
  {
    methods: ['GET', 'HEAD'],
    path: '/assets/:file',
    handler: async (ctx) => {
      const file = String(ctx.params.file);
      if (!Object.hasOwn(ASSETS, file)) return; // not `__proto__`, `constructor` and the like: 404
      const asset = ASSETS[file];
      ctx.type = asset.type;
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = asset.body;
    },
  },
];
