// The list of meetings by year (what each holds: the coverage by year in words), a meeting's page (its documents, items in agenda order with actions and roll calls, commenters in order) and a
// supervisor's pages (term, recorded positions with their coverage, and the list of supervisors).
import type { MeetingCoverage } from '../../../core/lake/coverage.ts';
import type { Supervisor } from '../../../core/roster.ts';
import type { SpanCoverage } from '../../queries/coverage.ts';
import type { MeetingRecord, VotesAggregate } from '../../schema-types.ts';
import { coverageHtml } from './coverage.ts';
import { day, esc, href, month, shell, sources } from './layout.ts';
import { tallyHtml } from './page.ts';
import { POSITION_CAUTION } from './records.ts';
import { resultText, tallyText } from './words.ts';

/** A supervisor's recorded positions (the votes aggregate per roll call) with the API URL of the same answer. */
export type Positions = VotesAggregate & { url: string };

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const kindOf = (m: MeetingRecord, id: string) => m.documents.find((d) => d.id === id)?.kind ?? 'agenda';

/**
 * How many of the meeting's items the page lists, and from which document. The meeting's count covers the agenda's
 * and the minutes' listings of its items alike; the page lists one document's, and links to the other's.
 */
function shownHtml(m: MeetingRecord): string {
  const shown = m.items.length;
  const from = kindOf(m, m.itemsFrom);
  const what =
    from === 'minutes' ? 'the minutes, which record what was done' : 'the agenda, which lists what was to be taken up';
  if (shown >= m.holds.items) return `<p class="shown">All ${count(shown, 'item')}, from ${what}.</p>`;
  const other = m.documents.find((d) => d.kind !== from);
  const rest = m.holds.items - shown;
  return `<p class="shown">${shown} of the ${m.holds.items} items shown: those of ${what}.${other ? ` <a href="${esc(href.meeting(m.date))}?items=${esc(other.kind)}">Show the ${esc(other.kind)}’${other.kind.endsWith('s') ? '' : 's'} ${rest} instead</a>.` : ''}</p>`;
}

export function meetingHtml(m: MeetingRecord): string {
  const items = m.items ?? [];
  const comments = m.comments ?? [];
  const itemHtml = (i: MeetingRecord['items'][number]) => {
    const rollCalls = i.rollCalls;
    // A printed action that a roll call carries is shown once, with its vote.
    const unvoted = (i.actions ?? []).filter((a) => !rollCalls.some((rc) => rc.action === a));
    return `<li><p><a href="${esc(href.item(i.id))}">File ${esc(i.fileNumber)}: ${esc(i.title)}</a> <span class="tag">${esc(i.itemType ?? '')}${i.section ? ` · ${esc(i.section)}` : ''}</span></p>
${unvoted.length ? `<p class="action">${esc(unvoted.join(' · '))}</p>` : ''}
${rollCalls.map((rc) => `<p class="rc"><a href="${esc(href.item(i.id))}#vote-${esc(rc.sequence)}">Vote ${esc(rc.sequence)}</a>: <strong>${esc(resultText(rc.result))} ${esc(tallyText(rc.ayes.length, rc.noes.length))}</strong> · “${esc(rc.action)}” · ${tallyHtml(rc)}</p>`).join('')}</li>`;
  };
  const main = `<article class="record">
<h1>Board of Supervisors meeting, ${esc(day(m.date))}</h1>
<p class="meta">${esc(holdsText(m.holds))}</p>
<h2>Official documents</h2>
<ul>${m.documents.map((d) => `<li><a class="official" href="${esc(d.officialUrl)}">${esc(d.title)}</a> (${esc(d.kind)}, ${count(d.pages, 'page')})</li>`).join('')}</ul>
${coverageHtml(m.coverage)}
<h2 id="items">Items, in agenda order</h2>
${items.length ? `${m.holds.rollCalls ? `<p class="caution">${esc(POSITION_CAUTION)}</p>` : ''}${shownHtml(m)}<ol class="items">${items.map(itemHtml).join('\n')}</ol>` : '<p>No legislative item was read from this meeting’s documents.</p>'}
${comments.length ? `<h2>Public comment, in order</h2><ol>${comments.map((c) => `<li><a href="${esc(href.comment(c.id))}">${esc(c.speaker)}</a>: ${esc(c.statement)}</li>`).join('')}</ol>` : ''}
${sources([], m.transcriptUrl, m.markdownUrl)}
</article>`;
  return shell({ title: `Meeting of ${day(m.date)} — Board Records`, json: m.transcriptUrl }, main);
}

export const termText = (s: Supervisor) => `${month(s.termFrom)} to ${s.termTo ? month(s.termTo) : 'now'}`;

const POSITION_LABEL: Record<string, string> = { aye: 'Aye', no: 'No', absent: 'Absent', excused: 'Excused' };

/** A supervisor's page: `votes` is the votes aggregate (per roll call) over their term, null for a term outside 2012–2026. */
export function supervisorHtml(s: Supervisor, votes: Positions | null, feed: string): string {
  const title = `Supervisor ${s.fullName} — Board Records`;
  const head = `<h1>Supervisor ${esc(s.fullName)}</h1>
<p class="meta">${s.district ? `District ${esc(s.district)} · ` : ''}Served ${esc(termText(s))}</p>`;
  if (!votes) {
    return shell(
      { title },
      `<article class="record">${head}
<p>This term lies outside the years the records cover (2012–2026), so no recorded position can be shown.</p></article>`,
    );
  }
  const records = votes.records ?? [];
  const coverage = votes.coverage;
  const totals = Object.entries(votes.totals);
  const rows = records
    .map(
      (r) =>
        `<tr><td><a href="${esc(href.meeting(r.meetingDate))}">${esc(day(r.meetingDate))}</a></td><td><a href="${esc(href.vote(r.rollCallId))}">File ${esc(r.fileNumber)}</a>: ${esc(r.title)}<br><span class="tag">${esc(r.action)}</span></td><td class="pos-${esc(r.position)}">${esc(POSITION_LABEL[r.position] ?? r.position)}</td></tr>`,
    )
    .join('');
  const main = `<article class="record">
${head}
<p class="follow"><a href="${esc(feed)}" type="application/atom+xml">Follow ${esc(s.fullName)}’s recorded votes</a> (an Atom feed for any feed reader)</p>
<h2>Recorded positions</h2>
${coverageHtml(coverage)}
<p class="caution">${esc(POSITION_CAUTION)}</p>
${
  votes.total
    ? `<table class="totals"><caption>Recorded positions in roll calls, by position</caption><thead><tr>${totals.map(([k]) => `<th scope="col">${esc(POSITION_LABEL[k] ?? k)}</th>`).join('')}<th scope="col">All</th></tr></thead><tbody><tr>${totals.map(([, n]) => `<td>${esc(n)}</td>`).join('')}<td>${esc(votes.total)}</td></tr></tbody></table>
<table class="positions"><caption>${records.length < votes.total ? `The ${records.length} most recent of ${votes.total} recorded positions` : `All ${votes.total} recorded positions`}, newest first</caption><thead><tr><th scope="col">Meeting</th><th scope="col">File and action voted on</th><th scope="col">Position</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>No recorded position of ${esc(s.fullName)} is in the lake.</p>`
}
${sources([], votes.url)}
</article>`;
  return shell({ title, json: votes.url, feed: { href: feed, title: `Board Records: votes of ${s.fullName}` } }, main);
}

export function supervisorsHtml(list: Supervisor[]): string {
  const main = `<h1>Supervisors</h1>
<p>Every supervisor the lake's roster names, with their term. Each page lists the positions recorded for them.</p>
<table><thead><tr><th scope="col">Supervisor</th><th scope="col">District</th><th scope="col">Term</th></tr></thead><tbody>${list
    .map(
      (s) =>
        `<tr><td><a href="${esc(href.supervisor(s.id))}">${esc(s.fullName)}</a></td><td>${esc(s.district ?? '')}</td><td>${esc(termText(s))}</td></tr>`,
    )
    .join('')}</tbody></table>`;
  return shell({ title: 'Supervisors — Board Records' }, main);
}

/** What a meeting's documents hold, in words: `agenda and minutes · 91 items · 44 roll calls · 16 public comments`. */
export const holdsText = (m: Omit<MeetingCoverage, 'date' | 'year' | 'documents'>) =>
  [
    [m.agenda ? 'agenda' : '', m.minutes ? 'minutes' : ''].filter(Boolean).join(' and '),
    count(m.items, 'item'),
    m.rollCalls ? count(m.rollCalls, 'roll call') : 'no recorded vote',
    m.comments ? count(m.comments, 'public comment') : '',
  ]
    .filter(Boolean)
    .join(' · ');

/** One year in a sentence: `14 meetings; minutes for 3, recorded votes in 2, public comment in 2.` */
function yearText(list: MeetingCoverage[]): string {
  const n = (f: (m: MeetingCoverage) => boolean) => list.filter(f).length;
  return `${count(list.length, 'meeting')}: agendas for ${n((m) => m.agenda)}, minutes for ${n((m) => m.minutes)}, recorded votes in ${n((m) => m.rollCalls > 0)}, public comment in ${n((m) => m.comments > 0)}.`;
}

/**
 * `/meetings`: every meeting the records hold, by year, newest first, each with what its documents hold; the years
 * first as a table of coverage in words (the page the coverage paragraphs link to).
 */
export function meetingsListHtml(all: MeetingCoverage[], overall: SpanCoverage, json: string): string {
  const years = [...new Set(all.map((m) => m.year))].sort((a, b) => b - a);
  const inYear = (y: number) => all.filter((m) => m.year === y).sort((a, b) => b.date.localeCompare(a.date));
  const main = `<h1>Meetings</h1>
<p>Every meeting of the Board of Supervisors whose agenda or minutes the records hold, newest first. The minutes record what was done and the votes; an agenda only lists what was to be taken up.</p>
${coverageHtml(overall, false)}
<h2 id="coverage">Coverage by year</h2>
<table class="years"><thead><tr><th scope="col">Year</th><th scope="col">What the records hold</th></tr></thead><tbody>${years
    .map((y) => `<tr><td><a href="#y${y}">${y}</a></td><td>${esc(yearText(inYear(y)))}</td></tr>`)
    .join('')}</tbody></table>
${years
  .map(
    (y) => `<section aria-labelledby="y${y}"><h2 id="y${y}">${y}</h2>
<ul class="meetings">${inYear(y)
      .map(
        (m) =>
          `<li><a href="${esc(href.meeting(m.date))}">${esc(day(m.date))}</a> <span class="holds">${esc(holdsText(m))}</span></li>`,
      )
      .join('')}</ul></section>`,
  )
  .join('\n')}`;
  return shell({ title: 'Meetings — Board Records', json }, main);
}
