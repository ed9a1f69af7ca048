// GET / (the search page), its two static assets, and the pages of the problem types; what the record pages and the
// feeds share with it: the form read from a URL, a search run for it, a refusal in plain words, an HTML answer.
import { readFileSync } from 'node:fs';

import type { Context } from 'koa';

import type { Release } from '../../lake/release.ts';
import { coverageOf, FULL_SPAN } from '../../queries/coverage.ts';
import { checkYearOrder, InvalidParameter, type ParamError } from '../../queries/errors.ts';
import { supervisorNames } from '../../queries/supervisors.ts';
import type { Candidate, Refusal } from '../../render/html/errors.ts';
import {
  type Answer,
  DEPTH,
  type Form,
  lastPage,
  MAX_PAGE,
  pageHtml,
  PER_PAGE,
  resultsHtml,
} from '../../render/html/page.ts';
import { problemTypeHtml } from '../../render/html/problems.ts';
import { etagOf, notModified } from '../cache.ts';
import type { RawRoute } from '../endpoints.ts';
import { PROBLEM_TYPES, type ProblemType, toProblem } from '../errors.ts';
import { readParams } from '../params.ts';
import type { State } from '../state.ts';
import { search } from '../typed-queries.ts';
import type { Urls } from '../urls.ts';

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const ASSETS: Record<string, { type: string; body: string }> = {
  'app.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(new URL('../../render/html/assets/app.css', import.meta.url), 'utf8'),
  },
  'app.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('../../render/html/assets/app.js', import.meta.url), 'utf8'),
  },
};

const one = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : String(v ?? '')).trim();

const pageRange = (last: number) =>
  new InvalidParameter([{ parameter: 'page', rule: 'range', message: `page must be 1 to ${last}` }]);

/** The page number of a URL: decimal digits, 1 to MAX_PAGE; anything else is refused in words. */
function pageOf(v: string): number {
  if (v === '') return 1;
  const n = /^\d{1,3}$/.test(v) ? Number(v) : 0;
  if (n < 1 || n > MAX_PAGE) throw pageRange(MAX_PAGE);
  return n;
}

/** The search form as a URL gives it (a repeated field counts once; unknown fields are ignored). */
export function formOf(ctx: Context): Form {
  const q = ctx.query;
  return {
    q: one(q.q),
    type: one(q.type) || 'all',
    from: one(q.from),
    to: one(q.to),
    supervisor: one(q.supervisor),
    position: one(q.position),
    final: one(q.final) === 'true',
    page: /^\d{1,3}$/.test(one(q.page)) ? Math.max(1, Number(one(q.page))) : 1,
  };
}

/** Runs the search of a form for its first `limit` results (the parameters checked as /api/search checks them). */
export async function runSearch(release: Release, urls: Urls, f: Form, limit: number) {
  if (/^\d+$/.test(f.from) && /^\d+$/.test(f.to)) checkYearOrder(f.from, f.to);
  const query = {
    q: f.q,
    type: f.type,
    from: f.from,
    to: f.to,
    supervisor: f.supervisor,
    position: f.position,
    final: f.final ? 'true' : '',
  };
  const params = readParams('params/search.json', query);
  return search(release, urls, { ...params, limit });
}

/** A refusal the page can put in words, or null for an error that is not the client's (rethrown). */
export function refusalOf(e: unknown, f: Form, pages?: number): Refusal | null {
  const p = toProblem(e);
  if (!p || p.status >= 500) return null;
  return {
    pages,
    status: p.status,
    errors: (p.extra.errors as ParamError[] | undefined) ?? [],
    candidates: p.extra.candidates as Candidate[] | undefined,
    typed: { supervisor: f.supervisor, from: f.from, to: f.to, page: f.page },
  };
}

/** Sends a page: HTML under the site's Content-Security-Policy. */
export function sendHtml(ctx: Context, html: string, status = 200): void {
  ctx.status = status;
  ctx.set('Content-Security-Policy', CSP);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

async function page(ctx: Context): Promise<void> {
  const { release, urls } = ctx.state as State;
  // The page is made from the release, the query and X-Partial only: the ETag is known before any query runs.
  ctx.vary('X-Partial');
  if (notModified(ctx, etagOf(`${release.id}\n${ctx.url}\n${ctx.get('X-Partial')}`), 'public, max-age=60')) return;
  const form = formOf(ctx);
  let answer: Answer | null = null;
  let refusal: Refusal | null = null;
  let pages: number | undefined;
  if (form.q || Object.keys(ctx.query).length > 0) {
    try {
      form.page = pageOf(one(ctx.query.page));
      // Page n shows results (n-1)·PER_PAGE+1 … n·PER_PAGE of one ranking of the best DEPTH; past the last, a 400.
      const body = await runSearch(release, urls, form, DEPTH);
      pages = lastPage(body.results.length);
      if (form.page > pages) throw pageRange(pages);
      answer = { body, first: (form.page - 1) * PER_PAGE + 1 };
    } catch (e) {
      refusal = refusalOf(e, form, pages);
      if (!refusal) throw e;
    }
  }
  const lake = answer || refusal ? null : await coverageOf(release, FULL_SPAN);
  const results = resultsHtml(form, answer, refusal, lake);
  const status = refusal?.status ?? 200;
  if (ctx.get('X-Partial') === 'results') return sendHtml(ctx, results, status);
  sendHtml(ctx, pageHtml(form, await supervisorNames(release), results), status);
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
    ctx.body = {
      type: urls.problem(key),
      title: p.title,
      status: p.status,
      description: p.description,
      action: p.action,
    };
    return;
  }
  sendHtml(ctx, problemTypeHtml(p));
}

export const webRoutes: RawRoute[] = [
  { methods: ['GET', 'HEAD'], path: '/problems/:type', handler: problemType },
  { methods: ['GET', 'HEAD'], path: '/', handler: page },
  {
    methods: ['GET', 'HEAD'],
    path: '/favicon.ico',
    handler: async (ctx) => {
      ctx.status = 204;
    },
  },
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
