// A record's own page: a legislative item (its actions in order, each roll call as a table, extracted facts, its other
// meetings), a PDF page (its text with the query marked) and a public comment. Each links to its meeting, to the
// official PDF page and to the same record as data.
import { pageId } from '../../../core/lake/ids.ts';
import { parseQuery, tokenTerms } from '../../../core/text/analysis.ts';
import type {
  CommentRecord,
  Extracted,
  ItemRecord,
  PageRecord,
  RollCall,
  SnapshotLegislativeFile,
} from '../../schema-types.ts';
import { commentsOf } from '../markdown/records.ts';
import { day, esc, href, shell, sources } from './layout.ts';
import { actionTypeText, qualifierText, resultText, tallyText } from './words.ts';

export const POSITION_CAUTION =
  'A recorded position is a vote on the action named beside it, not a stance on the matter: an aye on a motion to disapprove opposes the project. Read the action.';

const POSITIONS: [keyof Pick<RollCall, 'ayes' | 'noes' | 'absent' | 'excused'>, string][] = [
  ['ayes', 'Aye'],
  ['noes', 'No'],
  ['absent', 'Absent'],
  ['excused', 'Excused'],
];

/** A recorded name's supervisor page, when the name was reconciled to one. */
export type WhoIs = (name: string) => string | null;

const names = (list: string[], whoIs: WhoIs) =>
  list
    .map((name) => {
      const id = whoIs(name);
      return id ? `<a href="${esc(href.supervisor(id))}">${esc(name)}</a>` : esc(name);
    })
    .join(', ');

/** One roll call: the action voted on, what it did, and the names by recorded position (linked to their supervisors). */
export function rollCallTable(rc: RollCall, n: number, whoIs: WhoIs = () => null): string {
  const notes = [
    `${resultText(rc.result)} ${tallyText(rc.ayes.length, rc.noes.length)}`,
    `on ${actionTypeText(rc.actionType)}`,
    rc.isFinal ? 'final action' : '',
    rc.rescindedBy ? `undone by vote ${rc.rescindedBy}` : '',
    rc.sharedVote ? 'same vote as an earlier roll call' : '',
    rc.countMismatch ? 'printed tally differs from the names' : '',
  ].filter(Boolean);
  const rows = POSITIONS.map(([key, label]) => {
    const recorded: string[] = rc[key] ?? [];
    return `<tr><th scope="row">${label}</th><td>${recorded.length}</td><td>${recorded.length ? names(recorded, whoIs) : '—'}</td></tr>`;
  }).join('');
  return `<section class="vote" id="vote-${n}" aria-labelledby="vote-${n}-h">
<h3 id="vote-${n}-h">Vote ${n}: ${esc(rc.action)}</h3>
<p class="tag">${esc(notes.join(' · '))} · <a href="#vote-${n}">link to this vote</a></p>
<table><caption class="visually-hidden">Recorded positions on vote ${n}</caption><thead><tr><th scope="col">Position</th><th scope="col">Count</th><th scope="col">Supervisors, as recorded</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}

function factsHtml(x: Partial<Extracted>): string {
  const groups: [string, string[]][] = [
    [
      'Amounts',
      (x.amounts ?? []).map((a) => `${esc(a.raw)} <span class="tag">${esc(qualifierText(a.qualifier))}</span>`),
    ],
    ['Addresses', (x.addresses ?? []).map(esc)],
    ['Housing units', (x.housingUnits ?? []).map(esc)],
    ['Parties', (x.parties ?? []).map(esc)],
  ];
  const found = groups.filter(([, v]) => v.length);
  if (found.length === 0)
    return '<p>No amounts, addresses, housing units or parties were found in the text of this item.</p>';
  return `<dl class="facts">${found.map(([k, v]) => `<dt>${k}</dt><dd>${v.join('; ')}</dd>`).join('')}</dl>`;
}

/** The file's appearances other than this one, from its legislative-file record. */
function otherMeetingsHtml(item: ItemRecord, file: SnapshotLegislativeFile | null): string {
  const others = (file?.meetings ?? []).filter((m) => m.item_id !== item.id);
  if (others.length === 0) return `<p>The lake holds no other appearance of file ${esc(item.fileNumber)}.</p>`;
  return `<ul>${others
    .map(
      (m) =>
        `<li><a href="${esc(href.item(m.item_id))}">${esc(day(m.meeting_date))}, ${esc(m.kind)}</a>${m.section ? ` · ${esc(m.section)}` : ''} · <a href="${esc(m.official_url)}">official PDF</a></li>`,
    )
    .join('')}</ul>`;
}

/** A vote that stands: not undone later, and on the matter itself (not a procedural motion or a rescission). */
const decides = (rc: RollCall) => !rc.rescindedBy && rc.actionType !== 'other' && rc.actionType !== 'rescission';

/**
 * What became of the item at this meeting, first on its page: the last vote that stands (`Passed 11–0`, on what, and
 * whether final), else the last action printed; then what was printed after that vote, and any vote undone.
 */
export function outcomeHtml(item: ItemRecord): string {
  const rollCalls: RollCall[] = item.rollCalls ?? [];
  const lines = item.statusLines ?? [];
  const vote = rollCalls.filter(decides).at(-1);
  const undone = rollCalls.filter((rc) => rc.rescindedBy);
  const after = vote ? lines.slice(lines.lastIndexOf(vote.action) + 1) : [];
  const head = vote
    ? `<p class="verdict">${esc(resultText(vote.result))} ${esc(tallyText(vote.ayes.length, vote.noes.length))}</p>
<p>On ${esc(actionTypeText(vote.actionType))}${vote.isFinal ? ', the final action' : ''}: “${esc(vote.action)}” · <a href="#vote-${esc(vote.sequence)}">Vote ${esc(vote.sequence)}</a></p>`
    : lines.length
      ? `<p class="verdict printed">${esc(lines.at(-1))}</p>`
      : `<p class="verdict">No action is printed</p><p>${item.kind === 'agenda' ? 'An agenda lists what is to be taken up; the minutes record what was done.' : 'The minutes print no action for this item.'}</p>`;
  const more = [
    ...(vote && lines.includes(vote.action) ? after.map((l) => `Then: ${l}`) : []),
    ...undone.map(
      (rc) =>
        `Vote ${rc.sequence} (${resultText(rc.result)} ${tallyText(rc.ayes.length, rc.noes.length)}) was undone by vote ${rc.rescindedBy}.`,
    ),
  ];
  return `<section class="outcome" aria-label="Outcome at this meeting">${head}${more.map((l) => `<p>${esc(l)}</p>`).join('')}${rollCalls.length > 1 ? `<p>${rollCalls.length} roll calls on this item, below.</p>` : ''}</section>`;
}

/** Titles longer than this are cut in the heading (at a word) and given whole in a fold below the outcome. */
const SHORT_TITLE = 110;

const cut = (s: string) => {
  if (s.length <= SHORT_TITLE) return s;
  const head = s.slice(0, SHORT_TITLE);
  return `${head.slice(0, Math.max(head.lastIndexOf(' '), 60)).replace(/[\s,;:.-]+$/, '')}…`;
};

export function itemHtml(item: ItemRecord, file: SnapshotLegislativeFile | null, whoIs: WhoIs): string {
  const pages = item.startPage === item.endPage ? `page ${item.startPage}` : `pages ${item.startPage}–${item.endPage}`;
  const rollCalls: RollCall[] = item.rollCalls ?? [];
  const comments = item.comments ? commentsOf(item) : [];
  // The outcome comes before a long title and description: they fold, the file number stays in the heading.
  const folded = item.title.length > SHORT_TITLE || (item.longTitle ?? '').length > 200;
  const main = `<article class="record">
<p class="meta">${esc(item.itemType ?? 'Item')} · <a href="${esc(href.meeting(item.meetingDate))}">Meeting of ${esc(day(item.meetingDate))}</a> · ${esc(item.kind)}, ${pages}${item.sponsors?.length ? ` · Sponsors: ${esc(item.sponsors.join(', '))}` : ''}</p>
<h1>File ${esc(item.fileNumber)}: ${esc(cut(item.title))}</h1>
${outcomeHtml(item)}
${folded ? `<details class="title"><summary>The full title${item.longTitle ? ' and description' : ''}</summary><p>${esc(item.title)}</p>${item.longTitle ? `<p class="long">${esc(item.longTitle)}</p>` : ''}</details>` : item.longTitle ? `<p class="long">${esc(item.longTitle)}</p>` : ''}
<p><a class="official" href="${esc(item.officialUrl)}">Official PDF, page ${esc(item.startPage)}</a></p>
<h2>Actions, in order</h2>
${item.statusLines?.length ? `<ol class="actions">${item.statusLines.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>` : '<p>No action is printed for this item.</p>'}
<h2>Roll calls</h2>
${rollCalls.length ? `<p class="caution">${esc(POSITION_CAUTION)}</p>${rollCalls.map((rc) => rollCallTable(rc, rc.sequence, whoIs)).join('\n')}` : `<p>No roll call is recorded for this item${item.kind === 'agenda' ? ': an agenda lists what is to be taken up; the minutes record the votes' : ''}.</p>`}
<h2>Amounts, addresses and units</h2>
${factsHtml(item.extracted ?? {})}
${comments.length ? `<h2>Public comment in this hearing</h2><ol>${comments.map((c) => `<li><a href="${esc(href.comment(c.id))}">${esc(c.speaker)}</a>: ${esc(c.statement)}</li>`).join('')}</ol>` : ''}
<h2>Other meetings of file ${esc(item.fileNumber)}</h2>
${otherMeetingsHtml(item, file)}
<details><summary>The item as printed</summary><pre class="text">${esc(item.text)}</pre></details>
${sources([{ url: item.officialUrl, label: `Official PDF, ${pages}` }], item.transcriptUrl, item.markdownUrl)}
</article>`;
  return shell(
    { title: `File ${item.fileNumber}, ${day(item.meetingDate)} — Board Records`, json: item.transcriptUrl },
    main,
  );
}

/** The page text with every word of the query marked (analysed as the index analyses it). */
export function highlighted(text: string, q: string): { html: string; marks: number } {
  // The scored terms hold a quoted phrase's words too (less its stopwords, which would mark every "the").
  const wanted = new Set(q ? parseQuery(q).terms : []);
  let marks = 0;
  const html = text
    .split(/(\s+)/)
    .map((tok) => {
      if (wanted.size === 0 || /^\s*$/.test(tok) || !tokenTerms(tok).some((t) => wanted.has(t))) return esc(tok);
      marks++;
      return `<mark>${esc(tok)}</mark>`;
    })
    .join('');
  return { html, marks };
}

export function pageRecordHtml(page: PageRecord, q: string): string {
  const { html, marks } = highlighted(String(page.text ?? ''), q);
  const near = [
    page.page > 1
      ? `<a rel="prev" href="${esc(href.page(pageId(page.documentId, page.page - 1), q))}">← Page ${page.page - 1}</a>`
      : '',
    page.pages && page.page < page.pages
      ? `<a rel="next" href="${esc(href.page(pageId(page.documentId, page.page + 1), q))}">Page ${page.page + 1} →</a>`
      : '',
  ].filter(Boolean);
  const main = `<article class="record">
<p class="meta"><a href="${esc(href.meeting(page.meetingDate))}">Meeting of ${esc(day(page.meetingDate))}</a> · ${esc(page.kind)} · page ${esc(page.page)}${page.pages ? ` of ${esc(page.pages)}` : ''}</p>
<h1>${esc(page.title)}</h1>
<p><a class="official" href="${esc(page.officialUrl)}">Official PDF, page ${esc(page.page)}</a></p>
${q ? `<p class="found">${marks ? `${marks} ${marks === 1 ? 'word' : 'words'} of “${esc(q)}” marked on this page.` : `No word of “${esc(q)}” is printed on this page.`} <a href="/?q=${esc(encodeURIComponent(q))}">Back to the search</a></p>` : ''}
${page.quality && page.quality !== 'ok' ? `<p class="caution">The text of this page was read with difficulty (${esc(page.quality)}): check the official PDF.</p>` : ''}
<pre class="text page-text">${html}</pre>
${near.length ? `<nav class="pager" aria-label="Nearby pages">${near.join('')}</nav>` : ''}
${sources([{ url: page.officialUrl, label: `Official PDF, page ${page.page}` }], page.transcriptUrl, page.markdownUrl)}
</article>`;
  return shell({ title: `${page.title} — Board Records`, json: page.transcriptUrl }, main);
}

export function commentHtml(c: CommentRecord): string {
  const main = `<article class="record">
<p class="meta"><a href="${esc(href.meeting(c.meetingDate))}">Meeting of ${esc(day(c.meetingDate))}</a> · minutes, page ${esc(c.page)}${c.fileNumber ? ` · on <a href="/?q=${esc(encodeURIComponent(c.fileNumber))}">file ${esc(c.fileNumber)}</a>` : ''}</p>
<h1>Public comment: ${esc(c.speaker)}</h1>
<blockquote><p>${esc(c.statement)}</p></blockquote>
<p class="caution">This is the Clerk's summary in the minutes, not the speaker's words; the speaker's name is as recorded.</p>
${sources([{ url: c.officialUrl, label: `Official PDF, page ${c.page}` }], c.transcriptUrl, c.markdownUrl)}
</article>`;
  return shell(
    { title: `Public comment: ${c.speaker}, ${day(c.meetingDate)} — Board Records`, json: c.transcriptUrl },
    main,
  );
}
