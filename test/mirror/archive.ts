// Pages of the Clerk's archive listing (`meetings/full-board-meetings`, `?page=N`) for a loopback mirror, in exactly
// the markup of the fixtures pipelines/fetch/fixtures/archive-listing-page-0.html and archive-listing-last.html
// (those fixtures were rendered by this module; their header comment says where each part of the shape comes from).
// Synthetic: the rows are whatever meetings the caller passes.
import type { Kind } from '../../pipelines/fetch/source.ts';

export interface MirrorMeeting {
  meetingDate: string;
  /** The row's label; "Regular Meeting" when not given. */
  label?: string;
  documents: { kind: Kind; href: string; text?: string }[];
}

const LISTING = 'meetings/full-board-meetings';
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `-07:00` or `-08:00`: the Pacific offset at 2 pm that day, as Drupal's Date module prints it in `content`. */
function pacificOffset(meetingDate: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', timeZoneName: 'shortOffset' })
    .formatToParts(new Date(`${meetingDate}T21:00:00Z`))
    .find((p) => p.type === 'timeZoneName')!.value; // GMT-7
  const hours = Number(name.replace('GMT', ''));
  return `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}

function row(m: MirrorMeeting, index: number, count: number): string {
  const [y, mo, d] = m.meetingDate.split('-').map(Number);
  const weekday = DAYS[new Date(Date.UTC(y, mo - 1, d)).getUTCDay()];
  const classes = [
    index % 2 === 0 ? 'odd' : 'even',
    index === 0 ? 'views-row-first' : '',
    index === count - 1 ? 'views-row-last' : '',
  ];
  const links = m.documents
    .map(
      (doc) =>
        `<a href="${escape(doc.href)}">${escape(doc.text ?? (doc.kind === 'agenda' ? 'Agenda' : 'Minutes'))}</a>`,
    )
    .join('<br />\n');
  return `<tr class="${classes.filter(Boolean).join(' ')}">
<td class="views-field views-field-field-date">
<span class="date-display-single" property="dc:date" datatype="xsd:dateTime" content="${m.meetingDate}T14:00:00${pacificOffset(m.meetingDate)}">${weekday}, ${MONTHS[mo - 1]} ${d}, ${y} - 2:00pm</span>
</td>
<td class="views-field views-field-title">
${escape(m.label ?? 'Regular Meeting')}
</td>
<td class="views-field views-field-field-meeting-type-1">
${links}
</td>
</tr>`;
}

/**
 * The pager as the site's Drupal 7 theme prints it (it overrides core theme_pager; the shape of a saved sfbos.org page
 * of 2021 in washabstract/city-scrapers-ca, tests/files/sf_bos.html): `div.pagination` around `ul.pager`, the
 * current page `li.active` (a link without href), other pages `li.item`, then `li.next` titled "Go to next page";
 * odd/even and first/last classes on every item; no first/previous/last links.
 */
function pager(root: string, current: number, total: number): string {
  const href = (page: number) => `${root}${LISTING}${page > 0 ? `?page=${page}` : ''}`;
  const items: { cls: string; html: string }[] = [];
  const first = Math.max(0, Math.min(current - 4, total - 9));
  const last = Math.min(total - 1, first + 8);
  for (let p = first; p <= last; p++) {
    if (p === current) items.push({ cls: 'active', html: `<a>${p + 1}</a>` });
    else items.push({ cls: 'item', html: `<a title="Go to page ${p + 1}" href="${href(p)}">${p + 1}</a>` });
  }
  if (current < total - 1)
    items.push({ cls: 'next', html: `<a title="Go to next page" href="${href(current + 1)}">next ›</a>` });
  const lis = items.map((item, i) => {
    const cls = [item.cls, i % 2 === 0 ? 'odd' : 'even', i === 0 ? 'first' : '', i === items.length - 1 ? 'last' : '']
      .filter(Boolean)
      .join(' ');
    return `<li class="${cls}">${item.html}</li>`;
  });
  return `<div class="pagination" role="navigation"><ul class="pager">${lis.join('\n')}\n</ul></div>`;
}

/**
 * The listing's pages, newest meeting first, `perPage` rows each, a Drupal pager on every page (the last without
 * `li.next`). Links in the pager are root-relative under `root` (`/` for a mirror at a host root, `/archive/`
 * for one under a path prefix). A single page still gets a pager (with only its current page), which Drupal would
 * leave out: the archive's real listing has many pages, and its reader treats a page without a pager as a failure.
 */
export function archiveListingPages(meetings: MirrorMeeting[], perPage: number, root = '/'): string[] {
  const sorted = [...meetings].sort((a, b) => b.meetingDate.localeCompare(a.meetingDate));
  const total = Math.max(1, Math.ceil(sorted.length / perPage));
  const pages: string[] = [];
  for (let p = 0; p < total; p++) {
    const rows = sorted.slice(p * perPage, (p + 1) * perPage);
    pages.push(listingPage(rows.map((m, i) => row(m, i, rows.length)).join('\n'), pager(root, p, total)));
  }
  return pages;
}

function listingPage(rows: string, pagerHtml: string): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML+RDFa 1.0//EN"
  "http://www.w3.org/MarkUp/DTD/xhtml-rdfa-1.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" version="XHTML+RDFa 1.0" dir="ltr">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
<title>Full Board Meetings | Board of Supervisors</title>
</head>
<body class="html not-front not-logged-in no-sidebars page-meetings page-meetings-full-board-meetings">
<div id="page"><div id="main"><div id="content" class="column">
<h1 class="title" id="page-title">Full Board Meetings</h1>
<div class="view view-full-board-meetings view-id-full_board_meetings view-display-id-page">
<div class="view-content">
<table class="views-table cols-3">
<thead>
<tr>
<th class="views-field views-field-field-date">Date</th>
<th class="views-field views-field-title">Meeting</th>
<th class="views-field views-field-field-meeting-type-1">Documents</th>
</tr>
</thead>
<tbody>
${rows}
</tbody>
</table>
</div>
${pagerHtml}
</div>
</div></div></div>
</body>
</html>
`;
}
