// Every record as a page at a stable URL: /items/{id}, /pages/{id}, /comments/{id}, /meetings (by year) and /meetings/{date},
// /supervisors/{id} (and /supervisors). Each is made by the same query as its API record; the JSON stays at the API
// URL, where `.json` on a page's path, or an Accept that prefers JSON, is sent (a redirect).
import type { Context } from 'koa';

import type { Supervisor } from '../../../core/roster.ts';
import type { Release } from '../../lake/release.ts';
import { coverageOf, FULL_SPAN, meetingsCoverage } from '../../queries/coverage.ts';
import { InvalidParameter } from '../../queries/errors.ts';
import { meetingDate } from '../../queries/meetings.ts';
import { entity } from '../../queries/snapshots.ts';
import { supervisors } from '../../queries/supervisors.ts';
import { itemVoters } from '../../queries/voters.ts';
import { MAX_YEAR, MIN_YEAR } from '../../queries/years.ts';
import { href } from '../../render/html/layout.ts';
import { meetingHtml, meetingsListHtml, supervisorHtml, supervisorsHtml } from '../../render/html/meetings.ts';
import { commentHtml, itemHtml, pageRecordHtml } from '../../render/html/records.ts';
import type { SnapshotLegislativeFile } from '../../schema-types.ts';
import { etagOf, notModified } from '../cache.ts';
import type { RawRoute } from '../endpoints.ts';
import { notFound } from '../errors.ts';
import type { State } from '../state.ts';
import { getComment, getItem, getMeeting, getPage, snapshotRecord, votesAggregate } from '../typed-queries.ts';
import type { Urls } from '../urls.ts';
import { sendHtml } from './web.ts';

/** The largest page of GET /api/meetings (params/meetings.json). */
const MEETINGS_LIMIT = 1000;

/** The most recent recorded positions a supervisor's page and feed list. */
export const POSITIONS_SHOWN = 50;

/**
 * Sends the record's JSON instead (returns true): `.json` on the path (308 to the API URL), or an Accept that prefers
 * JSON to HTML (303). Otherwise sets the page's validators; true too when the client holds the page already (304).
 */
async function elsewhere(ctx: Context, id: string, api: (id: string) => string | Promise<string>): Promise<boolean> {
  ctx.vary('Accept');
  if (id.endsWith('.json')) {
    ctx.status = 308;
    ctx.redirect(await api(id.slice(0, -'.json'.length)));
    return true;
  }
  if (ctx.accepts('text/html', 'application/json') === 'application/json') {
    ctx.status = 303;
    ctx.redirect(await api(id));
    return true;
  }
  const { release } = ctx.state as State;
  return notModified(ctx, etagOf(`${release.id}\n${ctx.url}`), 'public, max-age=60');
}

/** A record page: its id from the path, its API URL, the query that reads it (null: 404) and its HTML. */
function recordPage<R>(
  api: (urls: Urls, id: string, release: Release) => string | Promise<string>,
  read: (release: Release, urls: Urls, id: string, ctx: Context) => Promise<R | null>,
  html: (record: R, ctx: Context) => string,
  what: string,
) {
  return async (ctx: Context) => {
    const { release, urls } = ctx.state as State;
    const id = String(ctx.params.id);
    if (await elsewhere(ctx, id, (x) => api(urls, x, release))) return;
    const record = await read(release, urls, id, ctx);
    if (record === null) throw notFound(`the records hold no ${what} '${id.slice(0, 80)}'`);
    sendHtml(ctx, html(record, ctx));
  };
}

const query = (ctx: Context) => (typeof ctx.query.q === 'string' ? ctx.query.q.slice(0, 300) : '');

/** A meeting date from a path, or null (an impossible date names no meeting: a 404, like an unknown one). */
function dateOf(s: string): string | null {
  try {
    return meetingDate(s);
  } catch (e) {
    if (e instanceof InvalidParameter) return null;
    throw e;
  }
}

/** An item with its file's record (its other meetings) and who each of its recorded names is. */
async function itemWithFile(release: Release, urls: Urls, id: string) {
  const item = await getItem(release, urls, id);
  if (!item) return null;
  const [record, voters, roster] = await Promise.all([
    snapshotRecord(release, entity('legislative-files')!, String(item.fileNumber)),
    itemVoters(release, id),
    supervisors(release),
  ]);
  // A record of the legislative-files entity (snapshot-record.json is the union of the entities' records).
  const file = record as SnapshotLegislativeFile | null;
  const known = new Set(roster.map((s) => s.id));
  const whoIs = (name: string) => (known.has(voters.get(name) ?? '') ? voters.get(name)! : null);
  return { item, file, whoIs };
}

export const bySupervisorId = async (release: Release, id: string) =>
  (await supervisors(release)).find((s) => s.id === id) ?? null;

/** The years of a supervisor's term that the lake's years hold, or null when none. */
export function termYears(s: Supervisor): { from: number; to: number } | null {
  const from = Math.max(MIN_YEAR, Number(s.termFrom.slice(0, 4)));
  const to = Math.min(MAX_YEAR, s.termTo ? Number(s.termTo.slice(0, 4)) : MAX_YEAR);
  return from <= to ? { from, to } : null;
}

/**
 * A supervisor's recorded positions over their term (per roll call, newest first), with the coverage of those years;
 * null when the term lies outside the years the service covers.
 */
export async function positionsOf(release: Release, urls: Urls, s: Supervisor) {
  const years = termYears(s);
  if (!years) return null;
  const p = {
    voter: s.fullName,
    from: years.from,
    to: years.to,
    final: false,
    limit: POSITIONS_SHOWN,
    groupBy: 'roll-call' as const,
  };
  return { ...(await votesAggregate(release, urls, p)), url: positionsUrl(urls, s) };
}

/** The API URL of what a supervisor's page shows: their positions per roll call over their term's years. */
function positionsUrl(urls: Urls, s: Supervisor): string {
  const years = termYears(s);
  return urls.votes({
    voter: s.fullName,
    from: years?.from,
    to: years?.to,
    groupBy: 'roll-call',
    limit: POSITIONS_SHOWN,
  });
}

export const recordPageRoutes: RawRoute[] = [
  {
    methods: ['GET', 'HEAD'],
    path: '/meetings',
    handler: async (ctx) => {
      const { release, urls } = ctx.state as State;
      if (notModified(ctx, etagOf(`${release.id}\n${ctx.url}`), 'public, max-age=60')) return;
      const all = await meetingsCoverage(release);
      // The same list as JSON, every meeting in one answer.
      const json = urls.meetings({ limit: MEETINGS_LIMIT });
      sendHtml(ctx, meetingsListHtml(all, await coverageOf(release, FULL_SPAN), json));
    },
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/items/:id',
    handler: recordPage(
      (u, id) => u.item(id),
      itemWithFile,
      (r) => itemHtml(r.item, r.file, r.whoIs),
      'item',
    ),
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/pages/:id',
    handler: recordPage(
      (u, id) => u.page(id),
      getPage,
      (r, ctx) => pageRecordHtml(r, query(ctx)),
      'page',
    ),
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/comments/:id',
    handler: recordPage((u, id) => u.comment(id), getComment, commentHtml, 'public comment'),
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/meetings/:id',
    handler: recordPage(
      (u, id) => u.meeting(id),
      async (release, urls, id, ctx) => {
        const date = dateOf(id);
        // `?items=agenda`: the agenda's items rather than the minutes' (anything else: the default).
        const kind = ctx.query.items === 'agenda' || ctx.query.items === 'minutes' ? ctx.query.items : undefined;
        return date ? getMeeting(release, urls, date, {}, kind) : null;
      },
      meetingHtml,
      'meeting of',
    ),
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/supervisors/:id',
    handler: recordPage(
      async (u, id, release) => {
        const s = await bySupervisorId(release, id);
        return s ? positionsUrl(u, s) : u.votes({ voter: id.replace(/-/g, ' ') });
      },
      async (release, urls, id) => {
        const s = await bySupervisorId(release, id);
        return s ? { s, votes: await positionsOf(release, urls, s) } : null;
      },
      (r) => supervisorHtml(r.s, r.votes, href.supervisorFeed(r.s.id)),
      'supervisor',
    ),
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/supervisors',
    handler: async (ctx) => {
      const { release } = ctx.state as State;
      if (notModified(ctx, etagOf(`${release.id}\n${ctx.url}`), 'public, max-age=60')) return;
      const list = [...(await supervisors(release))].sort(
        (a, b) => a.surname.localeCompare(b.surname) || a.fullName.localeCompare(b.fullName),
      );
      sendHtml(ctx, supervisorsHtml(list));
    },
  },
];
