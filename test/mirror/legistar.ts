// Synthetic Legistar pages for a loopback mirror of sfgov.legistar.com, in exactly the markup of the fixtures in
// pipelines/fetch/fixtures/legistar-*.{xml,html} (which say where that markup comes from): the calendar RSS feed
// (Feed.ashx), a meeting page (MeetingDetail.aspx) and the calendar grid (Calendar.aspx). Links are relative, as
// Legistar writes them, except the feed's, which are absolute under `base` (the mirror's Legistar root).
// answerLegistar routes a request to them the way the real site answers (Gateway.aspx redirects, the calendar's POST).
import type { MeetingItem } from '../../pipelines/fetch/source.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `2016-11-01` → `11/1/2016`, as Legistar prints dates. */
export function usDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${m}/${d}/${y}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 822 date of a day at noon GMT, for `<pubDate>`. */
function rfc822(iso: string): string {
  const d = new Date(`${iso}T12:00:00Z`);
  const dd = String(d.getUTCDate()).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${dd} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} 12:00:00 GMT`;
}

export interface FeedItemSpec {
  meetingDate: string;
  /** `2:00 PM` */
  time: string;
  id: string;
  guid: string;
  body: string;
  cancelled?: boolean;
}

/** A calendar feed (Feed.ashx?M=Calendar&…&Mode=YEAR) listing these meetings. */
export function renderFeed(base: string, year: number, items: FeedItemSpec[], note = ''): string {
  const rendered = items.map((it) => {
    const title = it.cancelled
      ? `${it.body} - ${usDate(it.meetingDate)} (CANCELED)`
      : `${it.body} - ${usDate(it.meetingDate)} - ${it.time}`;
    const published = new Date(Date.parse(`${it.meetingDate}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
    return `    <item>
      <title>${esc(title)}</title>
      <link>${esc(`${base}Gateway.aspx?M=MD&From=RSS&ID=${it.id}&GUID=${it.guid}`)}</link>
      <guid isPermaLink="false">${it.guid}-${published}-12-00-00</guid>
      <description />
      <category>${esc(it.body)}</category>
      <pubDate>${rfc822(published)}</pubDate>
    </item>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
${note}<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>City and County of San Francisco - Calendar (${year})</title>
    <link>${esc(`${base}Calendar.aspx`)}</link>
    <description>City and County of San Francisco - Calendar (${year})</description>
    <language>en-us</language>
    <atom:link href="${esc(`${base}Feed.ashx?M=Calendar&Mode=${year}`)}" rel="self" type="application/rss+xml" />
${rendered.join('\n')}
  </channel>
</rss>
`;
}

const PAGE_HEAD = (
  title: string,
  note: string,
) => `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
${note}<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head id="ctl00_Head1"><title>
	${esc(title)}
</title></head>
<body id="ctl00_body1" style="margin: 0px; border: 0px;">`;

/** The hidden ASP.NET state every InSite page posts back. */
function hiddenState(viewState: string): string {
  return `<input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" />
<input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="" />
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="${esc(viewState)}" />
<input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="${esc(`EV-${viewState}`)}" />`;
}

const font = (html: string, color = 'Black') => `<font face="Tahoma" color="${color}" size="2">${html}</font>`;
const cell = (html: string) => `<td><font face="Tahoma" size="2">${html}</font></td>`;
const notAvailable = (id: string, cls: string) =>
  `<a id="${id}" class="${cls}">${font('Not&#160;available', 'Gray')}</a>`;

export interface MeetingPageSpec {
  meetingDate: string;
  time?: string;
  id: string;
  guid: string;
  body?: string;
  /** Printed under the location, e.g. `Regular Meeting`, `Special Meeting`. */
  label?: string;
  /** Relative or absolute hrefs; absent means "Not available". */
  agendaHref?: string;
  minutesHref?: string;
  rows: Partial<MeetingItem>[];
}

/** The View.ashx link of a meeting's agenda (`A`) or minutes (`M`), relative as Legistar writes it. */
export const viewHref = (mode: 'A' | 'M', id: string, guid: string) => `View.ashx?M=${mode}&ID=${id}&GUID=${guid}`;

const ITEM_COLUMNS = [
  'File #',
  'Ver.',
  'Agenda #',
  'Name',
  'Type',
  'Status',
  'Title',
  'Action',
  'Result',
  'Action Details',
  'Video',
];

/** A meeting page (MeetingDetail.aspx?ID=…&GUID=…): the meeting's fields, its documents, its grid of files. */
export function renderMeetingPage(spec: MeetingPageSpec, note = ''): string {
  const body = spec.body ?? 'Board of Supervisors';
  const time = spec.time ?? '2:00 PM';
  const p = 'ctl00_ContentPlaceHolder1_';
  const docCell = (kind: 'Agenda' | 'Minutes', href: string | undefined) =>
    href
      ? `<img id="${p}img${kind}" src="Images/PDF.gif" alt="${kind}" border="0" /> <a id="${p}hyp${kind}" href="${esc(href)}" target="_blank">${font(kind, 'Blue')}</a>`
      : notAvailable(`${p}hyp${kind}`, kind === 'Agenda' ? 'meetingAgendaNotAvailbleLink' : 'otherNotAvaiableMinutes');
  const rows = spec.rows.map((r, i) => {
    const ctl = `${p}gridMain_ctl00_ctl${String(4 + 2 * i).padStart(2, '0')}_`;
    const file = r.fileNumber
      ? `<a id="${ctl}hypFile" href="LegislationDetail.aspx?ID=${4700000 + i}&amp;GUID=${spec.guid}&amp;Options=&amp;Search=">${font(esc(r.fileNumber), 'Blue')}</a>`
      : '&#160;';
    const details = `<a id="${ctl}hypDetails" href="#" onclick="radopen('HistoryDetail.aspx?ID=${spec.id}&amp;GUID=${spec.guid}&amp;Row=${i}','HistoryDetail');return false;">${font('Action details', 'Blue')}</a>`;
    return `<tr class="${i % 2 ? 'rgAltRow' : 'rgRow'}" id="${p}gridMain_ctl00__${i}">
	${cell(file)}${cell(esc(r.version ?? ''))}${cell(esc(r.agendaNumber ?? ''))}${cell(esc(r.name ?? ''))}${cell(esc(r.type ?? ''))}${cell(esc(r.status ?? ''))}
	${cell(esc(r.title ?? ''))}
	${cell(esc(r.action ?? ''))}${cell(esc(r.result ?? ''))}${cell(details)}${cell(notAvailable(`${ctl}hypVideo`, 'videoFileNotAvailableLink videolink'))}
</tr>`;
  });
  const label = spec.label ? `<br /><em>${esc(spec.label)}</em>` : '';
  const self = `MeetingDetail.aspx?ID=${spec.id}&GUID=${spec.guid}&Options=info|&Search=`;
  return `${PAGE_HEAD(`City and County of San Francisco - Meeting of ${body} on ${usDate(spec.meetingDate)} at ${time}`, note)}
<form name="aspnetForm" method="post" action="./${esc(self)}" id="aspnetForm">
${hiddenState(`MD-${spec.id}`)}
<div id="${p}pageTop1">
<table id="${p}tblMain" cellpadding="2" cellspacing="0" border="0" width="100%">
<tr>
	<td><span id="${p}lblNameX">${font('Meeting Name:', 'Navy')}</span></td>
	<td><a id="${p}hypName" href="DepartmentDetail.aspx?ID=11111&amp;GUID=${spec.guid}">${font(esc(body), 'Blue')}</a></td>
	<td><span id="${p}lblAgendaStatusX">${font('Agenda status:', 'Navy')}</span></td>
	<td><span id="${p}lblAgendaStatus">${font(spec.agendaHref ? 'Final' : 'Draft')}</span></td>
</tr>
<tr>
	<td><span id="${p}lblDateX">${font('Meeting date/time:', 'Navy')}</span></td>
	<td><span id="${p}lblDate">${font(usDate(spec.meetingDate))}</span> <span id="${p}lblTime">${font(esc(time))}</span></td>
	<td><span id="${p}lblMinutesStatusX">${font('Minutes status:', 'Navy')}</span></td>
	<td><span id="${p}lblMinutesStatus">${font(spec.minutesHref ? 'Final' : 'Draft')}</span></td>
</tr>
<tr>
	<td><span id="${p}lblLocationX">${font('Meeting location:', 'Navy')}</span></td>
	<td colspan="3"><span id="${p}lblLocation">${font(`Legislative Chamber, Room 250<br />City Hall, 1 Dr. Carlton B. Goodlett Place<br />San Francisco, CA 94102-4689${label}`)}</span></td>
</tr>
<tr>
	<td><span id="${p}lblAgendaX">${font('Published agenda:', 'Navy')}</span></td>
	<td id="${p}tdAgenda">${docCell('Agenda', spec.agendaHref)}</td>
	<td><span id="${p}lblMinutesX">${font('Published minutes:', 'Navy')}</span></td>
	<td id="${p}tdMinutes">${docCell('Minutes', spec.minutesHref)}</td>
</tr>
</table>
</div>
<div id="${p}gridMain" class="RadGrid RadGrid_Default" style="font-family:Tahoma;font-size:10pt;width:100%;">
<table class="rgMasterTable" border="0" id="${p}gridMain_ctl00" width="100%" style="table-layout:auto;empty-cells:show;">
<thead>
	<tr>
		${ITEM_COLUMNS.map((c) => `<th scope="col" class="rgHeader" style="text-align:left;">${esc(c)}</th>`).join('')}
	</tr>
</thead><tbody>
${rows.length > 0 ? rows.join('\n') : `<tr class="rgNoRecords"><td colspan="${ITEM_COLUMNS.length}"><div>No records to display.</div></td></tr>`}
</tbody>
</table><input id="${p}gridMain_ClientState" name="${p}gridMain_ClientState" type="hidden" />
</div>
</form>
</body>
</html>
`;
}

export interface CalendarRowSpec {
  body: string;
  meetingDate: string;
  time: string;
  id: string;
  guid: string;
  /** Printed under the location, e.g. `Special Meeting`, `CANCELLED`. */
  label?: string;
  agenda?: boolean;
  minutes?: boolean;
}

export interface CalendarSpec {
  /** What the year list shows (`2026`, `This Month`). */
  yearShown: string;
  rows: CalendarRowSpec[];
  viewState?: string;
  /** The grid's pager: this page of that many. */
  page?: { current: number; of: number };
}

const CALENDAR_COLUMNS = [
  'Name',
  'Meeting Date',
  '',
  'Meeting Time',
  'Meeting Location',
  'Meeting Details',
  'Agenda',
  'Minutes',
  'Video',
];

/** The calendar (Calendar.aspx): the year list, the hidden form state, the grid of meetings and its pager. */
export function renderCalendar(spec: CalendarSpec, note = ''): string {
  const p = 'ctl00_ContentPlaceHolder1_';
  const rows = spec.rows.map((r, i) => {
    const ctl = `${p}gridCalendar_ctl00_ctl${String(4 + 2 * i).padStart(2, '0')}_`;
    const q = `ID=${r.id}&amp;GUID=${r.guid}`;
    const doc = (kind: 'Agenda' | 'Minutes', mode: 'A' | 'M', on: boolean | undefined) =>
      on
        ? `<span style="white-space: nowrap;"><img id="${ctl}img${kind}" src="Images/PDF.gif" alt="${kind}" border="0" /> <a id="${ctl}hyp${kind}" href="View.ashx?M=${mode}&amp;${q}" target="_blank">${font(kind, 'Blue')}</a></span>`
        : `<span style="white-space: nowrap;">${notAvailable(`${ctl}hyp${kind}`, kind === 'Agenda' ? 'meetingAgendaNotAvailbleLink' : 'otherNotAvaiableMinutes')}</span>`;
    const label = r.label ? `<br><em>${esc(r.label)}</em>` : '';
    return `<tr class="${i % 2 ? 'rgAltRow' : 'rgRow'}" valign="top" id="${p}gridCalendar_ctl00__${i}">
	${cell(`<a id="${ctl}hypBody" href="DepartmentDetail.aspx?ID=11111&amp;GUID=${r.guid}">${font(esc(r.body), 'Blue')}</a>`)}<td class="rgSorted">${font(usDate(r.meetingDate))}</td>${cell(`<a id="${ctl}hypiCal" href="View.ashx?M=IC&amp;${q}"><img id="${ctl}btnExportToCalendar1" src="Images/ical.gif" alt="Export to iCalendar" border="0" /></a>`)}
	${cell(`<span id="${ctl}lblTime">${font(esc(r.time))}</span>`)}${cell(`Legislative Chamber, Room 250${label}`)}
	${cell(`<a id="${ctl}hypMeetingDetail" href="MeetingDetail.aspx?${q}&amp;Options=info|&amp;Search=">${font('Meeting&#160;details', 'Blue')}</a>`)}
	${cell(doc('Agenda', 'A', r.agenda))}${cell(doc('Minutes', 'M', r.minutes))}${cell(notAvailable(`${ctl}hypVideo`, 'videoFileNotAvailableLink videolink'))}
</tr>`;
  });
  const header = CALENDAR_COLUMNS.map((c) =>
    c
      ? `<th scope="col" class="rgHeader" style="text-align:left;">${esc(c)}</th>`
      : `<th scope="col" class="rgHeader" style="text-align:left;"><img title="ics" src="Images/ical.gif" alt="ics" border="0" /></th>`,
  ).join('');
  let pager = '';
  if (spec.page && spec.page.of > 1) {
    const links = Array.from({ length: spec.page.of }, (_, k) => {
      const n = k + 1;
      const target = `ctl00$ContentPlaceHolder1$gridCalendar$ctl00$ctl03$ctl01$ctl${String(n).padStart(2, '0')}`;
      const cls = n === spec.page!.current ? ' class="rgCurrentPage"' : '';
      return `<a${cls} href="javascript:__doPostBack('${target}','')"><span>${n}</span></a>`;
    });
    pager = `<tfoot>
	<tr class="rgPager"><td colspan="${CALENDAR_COLUMNS.length}"><table summary="Data pager which controls on which page is shown." border="0" style="width:100%;border-collapse:separate;"><tr><td class="rgPagerCell NumericPages"><div class="rgWrap rgNumPart">${links.join('')}</div></td></tr></table></td></tr>
</tfoot>`;
  }
  const viewState = spec.viewState ?? `CAL-${spec.yearShown}-${spec.page?.current ?? 1}`;
  return `${PAGE_HEAD('City and County of San Francisco - Calendar', note)}
<form name="aspnetForm" method="post" action="./Calendar.aspx" id="aspnetForm" style="direction:ltr;">
${hiddenState(viewState)}
<table id="${p}Calendar1" width="100%" cellpadding="2" cellspacing="2" border="0">
<tr align="left">
	<td id="${p}tdYears" style="width: 175px;">
		<div id="${p}lstYears" class="RadComboBox RadComboBox_Default"><table summary="combobox" border="0" style="border-width:0;border-collapse:collapse;width:100%"><tr class="rcbReadOnly"><td class="rcbInputCell rcbInputCellLeft" style="width:100%;"><input name="ctl00$ContentPlaceHolder1$lstYears" type="text" class="rcbInput radPreventDecorate" id="${p}lstYears_Input" value="${esc(spec.yearShown)}" readonly="readonly" title="Date Range Dropdown List" /></td></tr></table><input id="${p}lstYears_ClientState" name="${p}lstYears_ClientState" type="hidden" /></div>
	</td>
</tr>
</table>
<div id="${p}gridCalendar" class="RadGrid RadGrid_Default" style="font-family:Tahoma;font-size:10pt;width:99.5%;">
<table class="rgMasterTable" border="0" id="${p}gridCalendar_ctl00" width="100%" style="table-layout:auto;empty-cells:show;">
<thead>
	<tr>
		${header}
	</tr>
</thead>${pager}<tbody>
${rows.length > 0 ? rows.join('\n') : `<tr class="rgNoRecords"><td colspan="${CALENDAR_COLUMNS.length}"><div>No records to display.</div></td></tr>`}
</tbody>
</table><input id="${p}gridCalendar_ClientState" name="${p}gridCalendar_ClientState" type="hidden" />
</div>
</form>
</body>
</html>
`;
}

/** An HTTP answer of the mirror. */
export interface MirrorAnswer {
  status: number;
  body?: string;
  type?: string;
  headers?: Record<string, string>;
}

/** What a mirrored Legistar site holds. */
export interface LegistarSite {
  /** The feed of a year (`Mode=YYYY`), given the mirror's Legistar root: a string is RSS with 200; undefined is 404. */
  feed?: (year: string, base: string) => string | MirrorAnswer | undefined;
  /** MeetingDetail.aspx pages by meeting ID; a missing one answers 404. */
  meetings?: Record<string, string>;
  /** The calendar: what a GET shows (year null), or the year (lstYears client state) and grid page a POST chose. */
  calendar?: (year: string | null, page: number) => string;
}

/**
 * The answer to one request under the mirror's Legistar root, as the real site behaves: Feed.ashx by `Mode`,
 * Gateway.aspx a 302 to MeetingDetail.aspx (`From=RSS&ID=&GUID=`), MeetingDetail.aspx by `ID`, Calendar.aspx a GET
 * (with a session cookie) or a form POST choosing a year or a page. null for any other path (View.ashx, robots.txt):
 * the caller serves those.
 */
export function answerLegistar(
  site: LegistarSite,
  method: string,
  url: URL,
  form: string,
  base: string,
): MirrorAnswer | null {
  const q = url.searchParams;
  const page = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  if (page === 'Feed.ashx') {
    const feed = site.feed?.(q.get('Mode') ?? '', base);
    if (feed === undefined) return { status: 404, body: 'not found' };
    return typeof feed === 'string' ? { status: 200, body: feed, type: 'text/xml; charset=utf-8' } : feed;
  }
  if (page === 'Gateway.aspx') {
    return {
      status: 302,
      headers: { location: `MeetingDetail.aspx?From=RSS&ID=${q.get('ID')}&GUID=${q.get('GUID')}` },
    };
  }
  if (page === 'MeetingDetail.aspx') {
    const html = site.meetings?.[q.get('ID') ?? ''];
    return html ? { status: 200, body: html } : { status: 404, body: '<html><body>Not found</body></html>' };
  }
  if (page === 'Calendar.aspx' && site.calendar) {
    if (method !== 'POST') {
      return {
        status: 200,
        body: site.calendar(null, 1),
        headers: { 'set-cookie': 'ASP.NET_SessionId=s1; path=/; HttpOnly' },
      };
    }
    const fields = new URLSearchParams(form);
    const state = JSON.parse(fields.get('ctl00_ContentPlaceHolder1_lstYears_ClientState') ?? '{}') as {
      value?: string;
    };
    const pager = /gridCalendar.*\$ctl(\d+)$/.exec(fields.get('__EVENTTARGET') ?? '');
    return { status: 200, body: site.calendar(state.value ?? null, pager ? Number(pager[1]) : 1) };
  }
  return null;
}
