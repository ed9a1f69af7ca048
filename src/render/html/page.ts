// The unified search reference page, rendered on the server (it works without JavaScript); assets/app.js only
// swaps in the results section without a full reload.
import type { ProblemBody } from './types.ts';

type Row = Record<string, any>;

export const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Snippets mark matched words `**like this**`; on the page they become <mark>. */
const marked = (s: string) => esc(s).replace(/\*\*(.+?)\*\*/g, '<mark>$1</mark>');

export interface Form {
  q: string; type: string; from: string; to: string; supervisor: string; position: string; final: boolean;
}

export const TYPE_LABEL: Record<string, string> = { legislation: 'Legislation', vote: 'Vote', comment: 'Public comment', page: 'PDF page' };

const option = (value: string, label: string, current: string) => `<option value="${esc(value)}"${value === current ? ' selected' : ''}>${esc(label)}</option>`;

function formHtml(f: Form, supervisors: string[]): string {
  return `<form class="search" method="get" action="/" role="search" aria-label="Search the Board's records">
  <div class="q">
    <label for="q">Search legislation, votes, public comment and pages</label>
    <div class="row"><input id="q" name="q" type="search" value="${esc(f.q)}" minlength="2" maxlength="300" required placeholder="e.g. affordable housing Transbay" autocomplete="off">
    <button type="submit">Search</button></div>
  </div>
  <fieldset class="filters"><legend>Filters</legend>
    <label>Type <select name="type" id="type">${[['all', 'Everything'], ['legislation', 'Legislation'], ['votes', 'Votes'], ['comments', 'Public comment'], ['pages', 'PDF pages']].map(([v, l]) => option(v, l, f.type)).join('')}</select></label>
    <label>From year <input name="from" id="from" type="number" min="2012" max="2026" inputmode="numeric" value="${esc(f.from)}" placeholder="2012"></label>
    <label>To year <input name="to" id="to" type="number" min="2012" max="2026" inputmode="numeric" value="${esc(f.to)}" placeholder="2026"></label>
    <label>Supervisor <input name="supervisor" id="supervisor" list="supervisors" maxlength="80" value="${esc(f.supervisor)}" placeholder="surname or full name"></label>
    <datalist id="supervisors">${supervisors.map((s) => `<option value="${esc(s)}">`).join('')}</datalist>
    <label>Recorded position <select name="position" id="position">${option('', 'Any', f.position)}${['aye', 'no', 'absent', 'excused'].map((p) => option(p, p, f.position)).join('')}</select></label>
    <label class="check"><input type="checkbox" name="final" id="final" value="true"${f.final ? ' checked' : ''}> Final actions only</label>
  </fieldset>
</form>`;
}

function rollCallHtml(rc: Row): string {
  const part = (label: string, names: string[]) => (names?.length ? `<span class="${label.toLowerCase()}">${label} ${names.length}: ${esc(names.join(', '))}</span>` : '');
  return `<p class="rollcall">${[part('Ayes', rc.ayes), part('Noes', rc.noes), part('Absent', rc.absent), part('Excused', rc.excused)].filter(Boolean).join(' · ')}</p>`;
}

function resultHtml(r: Row): string {
  const type = r.resultType ?? 'page';
  const facts = [
    r.housingUnits?.length ? `Units: ${esc(r.housingUnits.join(', '))}` : '',
    r.addresses?.length ? `Addresses: ${esc(r.addresses.join('; '))}` : '',
    r.amounts?.length ? `Amounts: ${esc(r.amounts.map((a: Row) => `${a.raw} (${a.qualifier})`).join('; '))}` : '',
    r.parties?.length ? `Parties: ${esc(r.parties.join('; '))}` : '',
  ].filter(Boolean);
  return `<li class="result ${esc(type)}" data-type="${esc(type)}">
  <p class="meta"><span class="badge">${esc(TYPE_LABEL[type] ?? type)}</span> ${esc(r.meetingDate)} · ${esc(r.kind)} · page ${esc(r.page)}${r.groupCount > 1 ? ` · ${esc(r.groupCount)} records of this file` : ''}</p>
  <h2><a href="${esc(r.transcriptUrl)}">${esc(r.title)}</a></h2>
  ${r.matchedAction ? `<p class="action"><strong>Action:</strong> ${esc(r.matchedAction)} <span class="tag">${esc(r.actionType)}${r.isFinal ? ', final' : ''}</span></p>` : ''}
  ${r.recordedPosition ? `<p class="position"><strong>${esc(r.supervisor)}</strong> recorded <strong class="pos-${esc(r.recordedPosition)}">${esc(r.recordedPosition)}</strong></p>` : ''}
  ${r.rollCall ? rollCallHtml(r.rollCall) : ''}
  ${type === 'vote' ? '' : `<p class="snippet">${marked(r.snippet)}</p>`}
  ${facts.length ? `<p class="facts">${facts.join(' · ')}</p>` : ''}
  <p class="links"><a href="${esc(r.officialUrl)}">Official PDF, page ${esc(r.page)}</a> · <a href="${esc(r.transcriptUrl)}">Record</a> · <a href="${esc(r.markdownUrl)}">Markdown</a></p>
</li>`;
}

function filtersText(f: Form): string {
  const parts = [f.type !== 'all' ? `type ${f.type}` : '', f.from ? `from ${f.from}` : '', f.to ? `to ${f.to}` : '', f.supervisor ? `supervisor ${f.supervisor}` : '', f.position ? `position ${f.position}` : '', f.final ? 'final actions only' : ''].filter(Boolean);
  return parts.length ? parts.join(', ') : 'none';
}

/** What the lake holds, in words: on the first screen, in every empty state and beside every count. */
const coverageHtml = (statement: string) => `<p class="coverage"><strong>What the lake holds:</strong> ${esc(statement)} <a href="/api/coverage.md">Coverage by year</a></p>`;

/**
 * The results section alone (what the script swaps in). `lake`, the coverage statement of the whole lake, is shown
 * before any search (a search answer states its own).
 */
export function resultsHtml(f: Form, body: Row | null, problem: ProblemBody | null, lake: string | null): string {
  if (problem) {
    return `<section id="results" aria-live="polite"><div class="error" role="alert"><h2>That search could not run</h2><p>${esc(problem.detail)}</p>${problem.candidates?.length ? `<p>Candidates: ${esc(problem.candidates.map((c) => c.fullName ?? '').join('; '))}</p>` : ''}</div></section>`;
  }
  if (!body) return `<section id="results" aria-live="polite"><p class="hint">Search the San Francisco Board of Supervisors' agendas, minutes, recorded votes and public comment. Try <a href="/?q=Transbay+Block+8">Transbay Block 8</a> or <a href="/?q=housing&amp;supervisor=Kim&amp;type=all">housing votes by Supervisor Kim</a>.</p>${lake ? coverageHtml(lake) : ''}</section>`;
  if (body.results.length === 0) {
    const suggestions = [
      f.supervisor || f.position || f.final ? 'remove the supervisor, position or final filter' : '',
      f.from || f.to ? 'widen the years' : '',
      f.type !== 'all' ? 'search everything (type: Everything)' : '',
      'use fewer or different words',
    ].filter(Boolean);
    return `<section id="results" aria-live="polite"><div class="empty"><h2>No results for “${esc(f.q)}”</h2>${coverageHtml(body.coverage.statement)}<p>Filters in force: ${esc(filtersText(f))}. ${body.filters?.omitted ? esc(body.filters.omitted) + '. ' : ''}Try to ${esc(suggestions.join(', or '))}.</p></div></section>`;
  }
  return `<section id="results" aria-live="polite">
  <p class="summary">${esc(body.returned)} of ${esc(body.total)} results for “${esc(f.q)}” · filters: ${esc(filtersText(f))}${body.voter ? ` · supervisor: ${esc(body.voter.fullName)}` : ''} · release ${esc(body.release ?? '')}</p>
  ${coverageHtml(body.coverage.statement)}
  <p class="caution">A recorded position is not a stance on the matter: an aye on a motion to disapprove opposes the project. Read the action.</p>
  <ol class="results">${body.results.map(resultHtml).join('\n')}</ol>
</section>`;
}

export function pageHtml(f: Form, supervisors: string[], results: string): string {
  const title = f.q ? `${f.q} — Board Records` : 'Board Records — San Francisco Board of Supervisors';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#results">Skip to results</a>
<header><h1><a href="/">Board Records</a></h1><p>San Francisco Board of Supervisors: agendas, minutes, recorded votes and public comment. Read-only; every result links to the official PDF. <a href="/api/openapi.json">API</a></p></header>
<main>
${formHtml(f, supervisors)}
${results}
</main>
</body>
</html>`;
}
