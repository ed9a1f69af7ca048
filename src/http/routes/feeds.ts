// Atom feeds to follow a search (/feeds/search, the search page's parameters) or a supervisor's recorded votes
// (/feeds/supervisors/{id}): the matching records, newest release first. A refused search is a plain-language 400 page.
import type { Context } from 'koa';

import type { Release } from '../../lake/release.ts';
import { publishedTimes } from '../../queries/published.ts';
import { atomFeed, type Entry } from '../../render/atom/feed.ts';
import { coverageSentences } from '../../render/html/coverage.ts';
import { plainErrors } from '../../render/html/errors.ts';
import { day, href } from '../../render/html/layout.ts';
import {
  feedHref,
  filtersText,
  type Form,
  resultHref,
  rollCallOf,
  searchHref,
  type SearchResult,
  TYPE_LABEL,
} from '../../render/html/page.ts';
import { badRequestHtml } from '../../render/html/problems.ts';
import type { SearchResponse } from '../../schema-types.ts';
import { etagOf, notModified } from '../cache.ts';
import type { RawRoute } from '../endpoints.ts';
import { notFound } from '../errors.ts';
import type { State } from '../state.ts';
import { bySupervisorId, positionsOf } from './record-pages.ts';
import { formOf, refusalOf, runSearch, sendHtml } from './web.ts';

/** Entries a feed lists: the best matches of its search (the API's largest page). */
const FEED_SIZE = 50;

/** Every record id begins with its document's: `2016-11-01-minutes-…`. */
const documentOf = (id: string) => /^\d{4}-\d{2}-\d{2}-[a-z]+/.exec(id)?.[0] ?? '';

const unmarked = (s: string) => String(s ?? '').replace(/\*\*/g, '');

/** Entries dated by the release that first carried each one's document, newest first (rank order within a date). */
async function dated(release: Release, rows: { id: string; entry: Omit<Entry, 'updated'> }[]): Promise<Entry[]> {
  const published = await publishedTimes(release);
  const created = new Date(release.manifest.createdAt).toISOString().replace(/\.\d+Z$/, 'Z');
  return rows
    .map(({ id, entry }, rank) => ({ rank, entry: { ...entry, updated: published.get(documentOf(id)) ?? created } }))
    .sort((a, b) => (a.entry.updated < b.entry.updated ? 1 : a.entry.updated > b.entry.updated ? -1 : a.rank - b.rank))
    .map((x) => x.entry);
}

function sendFeed(ctx: Context, xml: string): void {
  ctx.type = 'application/atom+xml; charset=utf-8';
  ctx.body = xml;
}

const newest = (entries: Entry[], release: Release) =>
  entries.reduce((m, e) => (e.updated > m ? e.updated : m), '') ||
  new Date(release.manifest.createdAt).toISOString().replace(/\.\d+Z$/, 'Z');

function resultSummary(r: SearchResult): string {
  if (r.resultType === 'vote' || (r.resultType === 'legislation' && r.matchedAction)) {
    const rc = r.rollCall && rollCallOf(r);
    const tally = rc ? ` Ayes ${rc.ayes.length}, noes ${rc.noes.length}.` : '';
    return `${day(r.meetingDate)}: ${r.matchedAction}.${tally}`;
  }
  return `${day(r.meetingDate)}, ${r.kind} page ${r.page}: ${unmarked(r.snippet)}`;
}

async function searchFeed(ctx: Context): Promise<void> {
  const { release, urls } = ctx.state as State;
  if (notModified(ctx, etagOf(`${release.id}\n${ctx.url}`), 'public, max-age=300')) return;
  const form: Form = { ...formOf(ctx), page: 1 };
  let body: SearchResponse;
  try {
    body = await runSearch(release, urls, form, FEED_SIZE);
  } catch (e) {
    const refusal = refusalOf(e, form);
    if (!refusal) throw e;
    return sendHtml(ctx, badRequestHtml(plainErrors(refusal)), refusal.status);
  }
  const rows = body.results.map((r) => ({
    id: String(r.id),
    entry: {
      url: urls.base + resultHref(r, form.q),
      title: r.title,
      summary: resultSummary(r),
      official: r.officialUrl,
      category: TYPE_LABEL[r.resultType ?? 'page'],
    },
  }));
  const entries = await dated(release, rows);
  const filters = filtersText(form, body.voter).join(', ');
  sendFeed(
    ctx,
    atomFeed({
      self: urls.base + feedHref(form),
      page: urls.base + searchHref(form),
      title: `Board Records: “${form.q}”${filters ? ` (${filters})` : ''}`,
      subtitle: `The ${FEED_SIZE} best matches in the San Francisco Board of Supervisors' records, newest release first. ${coverageSentences(body.coverage).join(' ')}`,
      updated: newest(entries, release),
      entries,
    }),
  );
}

async function supervisorFeed(ctx: Context): Promise<void> {
  const { release, urls } = ctx.state as State;
  if (notModified(ctx, etagOf(`${release.id}\n${ctx.url}`), 'public, max-age=300')) return;
  const s = await bySupervisorId(release, String(ctx.params.id));
  if (!s) throw notFound(`the records hold no supervisor '${String(ctx.params.id).slice(0, 80)}'`);
  const votes = await positionsOf(release, urls, s);
  const rows = (votes?.records ?? []).map((r) => ({
    id: String(r.rollCallId),
    entry: {
      url: urls.base + href.vote(r.rollCallId),
      title: `${s.fullName}: ${r.position} on file ${r.fileNumber}, ${r.title}`,
      summary: `${day(r.meetingDate)}: ${r.action} A recorded position is a vote on this action, not a stance on the matter.`,
      official: r.evidence?.officialUrl,
      category: r.position,
    },
  }));
  const entries = await dated(release, rows);
  sendFeed(
    ctx,
    atomFeed({
      self: urls.base + href.supervisorFeed(s.id),
      page: urls.base + href.supervisor(s.id),
      title: `Board Records: recorded votes of Supervisor ${s.fullName}`,
      subtitle:
        `The ${FEED_SIZE} most recent recorded positions, newest release first. ${votes ? coverageSentences(votes.coverage).join(' ') : ''}`.trim(),
      updated: newest(entries, release),
      entries,
    }),
  );
}

export const feedRoutes: RawRoute[] = [
  { methods: ['GET', 'HEAD'], path: '/feeds/search', handler: searchFeed },
  { methods: ['GET', 'HEAD'], path: '/feeds/supervisors/:id', handler: supervisorFeed },
];
