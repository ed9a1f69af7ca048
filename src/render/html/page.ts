// The search page, rendered on the server (it works without JavaScript); assets/app.js only swaps in the results
// section without a full reload. Result titles open the record's own page; the page number is in the URL.
import type { SpanCoverage } from '../../queries/coverage.ts';
import type { RollCall, SearchResponse, Supervisor } from '../../schema-types.ts';
import { coverageHtml } from './coverage.ts';
import { type Refusal, refusalHtml } from './errors.ts';
import { day, esc, href, shell } from './layout.ts';
import { actionTypeText, qualifierText } from './words.ts';

/** One result of a search. */
export type SearchResult = SearchResponse['results'][number];

export { esc } from './layout.ts';

/** Snippets mark matched words `**like this**`; on the page they become <mark>. */
export const marked = (s: string) => esc(s).replace(/\*\*(.+?)\*\*/g, '<mark>$1</mark>');

export interface Form {
  q: string;
  type: string;
  from: string;
  to: string;
  supervisor: string;
  position: string;
  final: boolean;
  /** The page of results, from 1. */
  page: number;
}

/**
 * Results per page, and the most a search lists: one ranking to DEPTH whatever the page, cut per page. A page that
 * prints a listed file is not listed again, and which files are listed depends on the depth, so only a ranking of the
 * same depth on every page gives a count that equals what the pages list (and pages that never shift).
 */
export const PER_PAGE = 20;
export const MAX_PAGE = 100;
export const DEPTH = PER_PAGE * MAX_PAGE;

export const TYPE_LABEL: Record<string, string> = {
  legislation: 'Legislation',
  vote: 'Vote',
  comment: 'Public comment',
  page: 'PDF page',
};
const TYPES: [string, string][] = [
  ['all', 'Everything'],
  ['legislation', 'Legislation'],
  ['votes', 'Votes'],
  ['comments', 'Public comment'],
  ['pages', 'PDF pages'],
];

/** The form's values as a query string: only what differs from the defaults, so shared URLs stay short. */
export function formQuery(f: Form, page = f.page): string {
  const qs = new URLSearchParams();
  if (f.q) qs.set('q', f.q);
  if (f.type && f.type !== 'all') qs.set('type', f.type);
  for (const k of ['from', 'to', 'supervisor', 'position'] as const) if (f[k]) qs.set(k, f[k]);
  if (f.final) qs.set('final', 'true');
  if (page > 1) qs.set('page', String(page));
  return qs.toString();
}

export const searchHref = (f: Form, page = f.page) => `/?${formQuery(f, page)}`;
export const feedHref = (f: Form) => `/feeds/search?${formQuery(f, 1)}`;

/** The same search as data (the API's own default type is pages, so the page's type is always given). */
function apiSearchHref(f: Form): string {
  const qs = new URLSearchParams(formQuery(f, 1));
  qs.set('type', f.type || 'all');
  return `/api/search?${qs}`;
}

const option = (value: string, label: string, current: string) =>
  `<option value="${esc(value)}"${value === current ? ' selected' : ''}>${esc(label)}</option>`;

/** The filters in force, in words (the supervisor by the full name the search resolved, once). */
export function filtersText(f: Form, voter?: Supervisor): string[] {
  const years =
    f.from && f.to
      ? f.from === f.to
        ? `year ${f.from}`
        : `years ${f.from}–${f.to}`
      : f.from
        ? `from ${f.from}`
        : f.to
          ? `up to ${f.to}`
          : '';
  return [
    f.type !== 'all' ? (TYPES.find(([v]) => v === f.type)?.[1] ?? '') : '',
    years,
    f.supervisor ? `Supervisor ${voter?.fullName ?? f.supervisor}` : '',
    f.position ? `recorded ${f.position}` : '',
    f.final ? 'final actions only' : '',
  ].filter(Boolean);
}

function formHtml(f: Form, supervisors: string[]): string {
  const set = filtersText(f);
  return `<form class="search" method="get" action="/" role="search" aria-label="Search the Board's records">
  <h1 class="q"><label for="q">Search legislation, votes, public comment and PDF pages</label></h1>
  <div class="row"><input id="q" name="q" type="search" value="${esc(f.q)}" minlength="2" maxlength="300" required placeholder="e.g. affordable housing Transbay" autocomplete="off">
  <button type="submit">Search</button></div>
  <details class="filters"><summary>Filters${set.length ? `: ${esc(set.join(', '))}` : ''}</summary>
  <fieldset><legend>Narrow the search</legend>
    <label>Type <select name="type" id="type">${TYPES.map(([v, l]) => option(v, l, f.type)).join('')}</select></label>
    <label>From year <input name="from" id="from" type="number" min="2012" max="2026" inputmode="numeric" value="${esc(f.from)}" placeholder="2012"></label>
    <label>To year <input name="to" id="to" type="number" min="2012" max="2026" inputmode="numeric" value="${esc(f.to)}" placeholder="2026"></label>
    <label>Supervisor <input name="supervisor" id="supervisor" list="supervisors" maxlength="80" value="${esc(f.supervisor)}" placeholder="surname or full name"></label>
    <datalist id="supervisors">${supervisors.map((s) => `<option value="${esc(s)}">`).join('')}</datalist>
    <label>Recorded position <select name="position" id="position">${option('', 'Any', f.position)}${['aye', 'no', 'absent', 'excused'].map((p) => option(p, p, f.position)).join('')}</select></label>
    <label class="check"><input type="checkbox" name="final" id="final" value="true"${f.final ? ' checked' : ''}> Final actions only</label>
    <button type="submit" class="secondary">Apply filters</button>
  </fieldset></details>
</form>`;
}

/** A roll call's names by position, on one line: `Ayes 7: … · Noes 3: …`. */
export function tallyHtml(rc: Pick<RollCall, 'ayes' | 'noes' | 'absent' | 'excused'>): string {
  const part = (label: string, names: string[]) =>
    names?.length
      ? `<span class="${label.toLowerCase()}">${label} ${names.length}: ${esc(names.join(', '))}</span>`
      : '';
  return [part('Ayes', rc.ayes), part('Noes', rc.noes), part('Absent', rc.absent), part('Excused', rc.excused)]
    .filter(Boolean)
    .join(' · ');
}

export const rollCallHtml = (rc: RollCall) => `<p class="rollcall">${tallyHtml(rc)}</p>`;

/** Extracted facts of a file: units, addresses, amounts, parties. */
export function factsText(x: {
  housingUnits?: number[];
  addresses?: string[];
  amounts?: Record<string, unknown>[];
  parties?: string[];
}): string[] {
  return [
    x.housingUnits?.length ? `Units: ${x.housingUnits.join(', ')}` : '',
    x.addresses?.length ? `Addresses: ${x.addresses.join('; ')}` : '',
    x.amounts?.length
      ? `Amounts: ${x.amounts.map((a) => `${a.raw} (${qualifierText(String(a.qualifier))})`).join('; ')}`
      : '',
    x.parties?.length ? `Parties: ${x.parties.join('; ')}` : '',
  ].filter(Boolean);
}

/** A vote's roll call: a roll-call.json record, which the search schema leaves an open object. */
export const rollCallOf = (r: SearchResult) => r.rollCall as RollCall;

/** A result's own page. */
export function resultHref(r: SearchResult, q: string): string {
  const type = r.resultType ?? 'page';
  if (type === 'legislation') return href.item(r.id);
  if (type === 'vote') return href.vote(r.id);
  if (type === 'comment') return href.comment(r.id);
  return href.page(r.id, q);
}

function resultHtml(r: SearchResult, q: string, voter: Supervisor | undefined): string {
  const type = r.resultType ?? 'page';
  const facts = factsText(r);
  return `<li class="result ${esc(type)}" data-type="${esc(type)}">
  <p class="meta"><span class="badge">${esc(TYPE_LABEL[type] ?? type)}</span> <a href="${esc(href.meeting(r.meetingDate))}">${esc(day(r.meetingDate))}</a> · ${esc(r.kind)} · page ${esc(r.page)}${(r.groupCount ?? 0) > 1 ? ` · ${esc(r.groupCount)} records of this file` : ''}</p>
  <h2><a href="${esc(resultHref(r, q))}">${esc(r.title)}</a></h2>
  ${r.matchedAction ? `<p class="action"><strong>Action:</strong> ${esc(r.matchedAction)} <span class="tag">${esc(actionTypeText(r.actionType))}${r.isFinal ? ', final action' : ''}</span></p>` : ''}
  ${r.recordedPosition ? `<p class="position"><a href="${esc(href.supervisor(voter?.id ?? ''))}">${esc(r.supervisor)}</a> recorded <strong class="pos-${esc(r.recordedPosition)}">${esc(r.recordedPosition)}</strong></p>` : ''}
  ${r.rollCall ? rollCallHtml(rollCallOf(r)) : ''}
  ${type === 'vote' ? '' : `<p class="snippet">${marked(r.snippet)}</p>`}
  ${facts.length ? `<p class="facts">${esc(facts.join(' · '))}</p>` : ''}
  <p class="links"><a href="${esc(r.officialUrl)}">Official PDF, page ${esc(r.page)}</a></p>
</li>`;
}

/** Pages of a search's list, with a word on the last one when the ranking stopped at DEPTH before the matches did. */
function pagerHtml(f: Form, last: number, listed: number, whole: boolean): string {
  const rest =
    f.page === last && !whole
      ? `<p class="hint">The best ${esc(listed)} results are listed. Add words, years or filters to reach the others.</p>`
      : '';
  if (last === 1) return rest;
  const prev = f.page > 1 ? `<a rel="prev" href="${esc(searchHref(f, f.page - 1))}">← Previous</a>` : '';
  const next = f.page < last ? `<a rel="next" href="${esc(searchHref(f, f.page + 1))}">Next →</a>` : '';
  return `<nav class="pager" aria-label="Pages of results">${prev}<span>Page ${f.page} of ${last}</span>${next}</nav>${rest}`;
}

/** The pages a list of `listed` results fills (at least one, for the empty state). */
export const lastPage = (listed: number) => Math.max(1, Math.ceil(listed / PER_PAGE));

const follow = (f: Form) =>
  `<p class="follow"><a href="${esc(feedHref(f))}" type="application/atom+xml">Follow this search</a> (an Atom feed for any feed reader: new matching records as releases add them)</p>`;

const CAUTION =
  '<p class="caution">A recorded position is not a stance on the matter: an aye on a motion to disapprove opposes the project. Read the action.</p>';

/** What a page of a search shows: the answer of `search`, with the rank of its first result. */
export interface Answer {
  body: SearchResponse;
  first: number;
}

/**
 * The results section alone (what the script swaps in): a refusal, the first screen (`lake`: what the whole lake
 * holds), an empty result that states its coverage, or a page of results with its pager.
 */
export function resultsHtml(
  f: Form,
  answer: Answer | null,
  refusal: Refusal | null,
  lake: SpanCoverage | null,
): string {
  const section = (inner: string) => `<section id="results" aria-live="polite">${inner}</section>`;
  if (refusal) {
    const back = refusal.pages
      ? `<p class="back"><a href="${esc(searchHref(f, refusal.pages))}">Go to page ${refusal.pages}, the last</a></p>`
      : '';
    return section(refusalHtml(refusal, (supervisor) => searchHref({ ...f, supervisor, page: 1 })) + back);
  }
  if (!answer) {
    return section(
      `<p class="hint">Search the San Francisco Board of Supervisors' agendas, minutes, recorded votes and public comment. Try <a href="/?q=Transbay+Block+8">Transbay Block 8</a> or <a href="/?q=housing&amp;supervisor=Kim">housing votes by Supervisor Kim</a>.</p>${lake ? coverageHtml(lake) : ''}`,
    );
  }
  const { body, first } = answer;
  const results = body.results.slice(first - 1, first - 1 + PER_PAGE);
  const filters = filtersText(f, body.voter);
  if (results.length === 0) {
    const suggestions = [
      f.supervisor || f.position || f.final ? 'remove the supervisor, position or final filter' : '',
      f.from || f.to ? 'widen the years' : '',
      f.type !== 'all' ? 'search everything' : '',
      'use fewer or different words',
    ].filter(Boolean);
    return section(
      `<div class="empty"><h2>No results for “${esc(f.q)}”</h2>${coverageHtml(body.coverage)}<p>${filters.length ? `Filters in force: ${esc(filters.join(', '))}. ` : ''}${body.filters?.omitted ? 'Pages and public comment carry no votes, so a vote filter leaves them out. ' : ''}Try to ${esc(suggestions.join(', or '))}.</p></div>${follow(f)}`,
    );
  }
  // The count is the list's own length: every page is cut from the same ranking. When every match was ranked, what
  // the total has beyond the list are PDF pages that print a file listed here (shown with that file, not again).
  const listed = body.results.length;
  const whole = body.total <= DEPTH;
  const folded = whole ? body.total - listed : 0;
  const last = lastPage(listed);
  const showsVotes = results.some((r) => r.rollCall);
  const of = whole ? `${esc(listed)}` : `the best ${esc(listed)} of ${esc(body.total)} matches`;
  return section(`<p class="summary">${whole && listed <= PER_PAGE ? `${esc(listed)} ${listed === 1 ? 'result' : 'results'}` : `Results ${first}–${first + results.length - 1} of ${of}`} for “${esc(f.q)}”${filters.length ? ` · ${esc(filters.join(', '))}` : ''}</p>
  ${folded > 0 ? `<p class="folded">${esc(folded)} more matching PDF ${folded === 1 ? 'page prints a file' : 'pages print a file'} listed here, so ${folded === 1 ? 'it is' : 'they are'} not listed again.</p>` : ''}
  ${showsVotes ? CAUTION : ''}
  <ol class="results" start="${first}">${results.map((r) => resultHtml(r, f.q, body.voter)).join('\n')}</ol>
  ${pagerHtml(f, last, listed, whole)}
  ${coverageHtml(body.coverage)}
  ${follow(f)}`);
}

export function pageHtml(f: Form, supervisors: string[], results: string): string {
  const title = f.q
    ? `${f.q}${f.page > 1 ? `, page ${f.page}` : ''} — Board Records`
    : 'Board Records — San Francisco Board of Supervisors';
  return shell(
    {
      title,
      script: true,
      searchForm: true,
      feed: f.q ? { href: feedHref(f), title: `Board Records: ${f.q}` } : undefined,
      json: f.q ? apiSearchHref(f) : undefined,
    },
    `${formHtml(f, supervisors)}\n${results}`,
  );
}
