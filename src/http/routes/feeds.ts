// Atom feeds to follow a search (/feeds/search, the search page's parameters) or a supervisor's recorded votes
// (/feeds/supervisors/{id}): the matching records, each published on its meeting's day and updated when the release
// history last changed it, newest first. A refused query is a 400 problem document naming the parameter and the rule
// (a feed reader is no browser: no HTML page).
import type { Context } from 'koa';

import type { Release } from '../../lake/release.ts';
import { changeTimes, positionKey, recordKey } from '../../queries/feeds.ts';
import { atomFeed, type Entry, meetingDay } from '../../render/atom/feed.ts';
import { coverageSentences } from '../../render/html/coverage.ts';
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
import { etagOf, notModified } from '../cache.ts';
import type { RawRoute } from '../endpoints.ts';
import { notFound } from '../errors.ts';
import type { State } from '../state.ts';
import { bySupervisorId, positionsOf } from './record-pages.ts';
import { formOf, runSearch } from './web.ts';

/** Entries a feed lists: the best matches of its search (the API's largest page). */
const FEED_SIZE = 50;

/** Every record id begins with its document's: `2016-11-01-minutes-…`. */
const documentOf = (id: string) => /^\d{4}-\d{2}-\d{2}-[a-z]+/.exec(id)?.[0] ?? '';

const unmarked = (s: string) => String(s ?? '').replace(/\*\*/g, '');

/** An entry before its dates: `changed` keys the record in changeTimes (src/queries/feeds.ts). */
type Undated = Omit<Entry, 'published' | 'updated'> & { meetingDate: string; changed: string; rank: number };

/**
 * Entries dated: published on the meeting's day, updated at the record's latest change (the meeting's day when the log
 * has none, and never before it); the most recently updated first, in the query's order within one time.
 */
async function dated(release: Release, rows: Undated[]): Promise<Entry[]> {
  const times = await changeTimes(release);
  const at = (s: string) => Date.parse(s);
  return rows
    .map(({ meetingDate, changed, rank, ...entry }) => {
      const published = meetingDay(meetingDate);
      const change = times.get(changed);
      const updated = change && at(change) > at(published) ? change : published;
      return { rank, entry: { ...entry, published, updated } };
    })
    .sort((a, b) => at(b.entry.updated) - at(a.entry.updated) || a.rank - b.rank)
    .map((x) => x.entry);
}

function sendFeed(ctx: Context, xml: string): void {
  ctx.type = 'application/atom+xml; charset=utf-8';
  ctx.body = xml;
}

/** The feed's own `updated`: its latest entry's, or the release's creation when it lists none. */
const newest = (entries: Entry[], release: Release) =>
  entries.map((e) => e.updated).reduce((m, u) => (Date.parse(u) > Date.parse(m) ? u : m), '') ||
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
  const body = await runSearch(release, urls, form, FEED_SIZE); // a refusal is the API's own 400 problem
  const rows = body.results.map((r, rank) => ({
    url: urls.base + resultHref(r, form.q),
    title: r.title,
    summary: resultSummary(r),
    official: r.officialUrl,
    category: TYPE_LABEL[r.resultType ?? 'page'],
    meetingDate: r.meetingDate,
    changed: r.fileNumber ? recordKey('legislative-files', r.fileNumber) : recordKey('documents', documentOf(r.id)),
    rank,
  }));
  const entries = await dated(release, rows);
  const filters = filtersText(form, body.voter).join(', ');
  sendFeed(
    ctx,
    atomFeed({
      self: urls.base + feedHref(form),
      page: urls.base + searchHref(form),
      title: `Board Records: “${form.q}”${filters ? ` (${filters})` : ''}`,
      subtitle: `The ${FEED_SIZE} best matches in the San Francisco Board of Supervisors' records, each dated by its meeting. ${coverageSentences(body.coverage).join(' ')}`,
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
  const latestFirst = [...(votes?.records ?? [])].sort((a, b) => b.meetingDate.localeCompare(a.meetingDate));
  const rows = latestFirst.map((r, rank) => ({
    url: urls.base + href.vote(r.rollCallId),
    title: `${s.fullName}: ${r.position} on file ${r.fileNumber}, ${r.title}`,
    summary: `${day(r.meetingDate)}: ${r.action} A recorded position is a vote on this action, not a stance on the matter.`,
    official: r.evidence?.officialUrl,
    category: r.position,
    meetingDate: r.meetingDate,
    changed: positionKey(r.rollCallId, s.id),
    rank,
  }));
  const entries = await dated(release, rows);
  sendFeed(
    ctx,
    atomFeed({
      self: urls.base + href.supervisorFeed(s.id),
      page: urls.base + href.supervisor(s.id),
      title: `Board Records: recorded votes of Supervisor ${s.fullName}`,
      subtitle:
        `The ${FEED_SIZE} most recent recorded positions, each dated by its meeting. ${votes ? coverageSentences(votes.coverage).join(' ') : ''}`.trim(),
      updated: newest(entries, release),
      entries,
    }),
  );
}

export const feedRoutes: RawRoute[] = [
  { methods: ['GET', 'HEAD'], path: '/feeds/search', handler: searchFeed },
  { methods: ['GET', 'HEAD'], path: '/feeds/supervisors/:id', handler: supervisorFeed },
];
