// Parsers for what sfgov.legistar.com serves: the calendar RSS feed (Feed.ashx), a meeting page (MeetingDetail.aspx)
// and the calendar grid (Calendar.aspx). The page shapes follow Legistar InSite as public scrapers read it:
// opencivicdata/python-legistar-scraper (legistar/base.py parseDataTable: Telerik grids whose header cells are
// `th.rgHeader` and rows `tr.rgRow` / `tr.rgAltRow`; parseDetails: the meeting page's `ctl00_ContentPlaceHolder1_lbl…`
// and `…_hyp…` fields; legistar/events.py: the items grid `ctl00_ContentPlaceHolder1_gridMain_ctl00`, the year list
// `lstYears` and its form POST) and its saved Calendar.aspx (tests/fixtures/chicago/events.html). Nothing here fetches.
import { isoDate } from '../../../core/dates.ts';
import { type Kind, type ListedDocument, type MeetingItem } from '../source.ts';

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  rsquo: '\u2019',
  lsquo: '\u2018',
  rdquo: '\u201d',
  ldquo: '\u201c',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? whole;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Visible text of a fragment: tags dropped (a `<br>` is a space), entities decoded, whitespace collapsed. */
export function cleanText(html: string): string {
  const text = html
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ');
  return decodeEntities(text)
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

/** An attribute of an opening tag, decoded, or null. */
export function attr(openTag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(openTag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3]) : null;
}

/** One element: its opening tag and its inner HTML. */
export interface Element {
  open: string;
  inner: string;
}

/** The element that opens at `start` (a `<tag` position), matched with its balanced closing tag. */
function elementAt(html: string, start: number, tag: string): Element & { end: number } {
  const openEnd = html.indexOf('>', start) + 1;
  const open = html.slice(start, openEnd);
  if (open.endsWith('/>')) return { open, inner: '', end: openEnd };
  const re = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'gi');
  re.lastIndex = openEnd;
  let depth = 1;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[0].endsWith('/>')) continue;
    depth += m[1] ? -1 : 1;
    if (depth === 0) return { open, inner: html.slice(openEnd, m.index), end: re.lastIndex };
  }
  return { open, inner: html.slice(openEnd), end: html.length };
}

/** The element with this id attribute, or null. */
export function byId(html: string, id: string): Element | null {
  const m = new RegExp(`<([a-z][a-z0-9]*)\\b[^>]*\\sid\\s*=\\s*["']${id}["'][^>]*>`, 'i').exec(html);
  return m ? elementAt(html, m.index, m[1]) : null;
}

/** The outermost elements of one tag name in a fragment (nested ones stay inside their parent). */
export function children(html: string, tag: string): Element[] {
  const out: Element[] = [];
  const re = new RegExp(`<${tag}\\b[^>]*>`, 'gi');
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const el = elementAt(html, m.index, tag);
    out.push(el);
    re.lastIndex = el.end;
  }
  return out;
}

/** The first link of a fragment that has an href (a "Not available" anchor has none), resolved against the page. */
export function firstHref(html: string, pageUrl: string): string | null {
  for (const a of children(html, 'a')) {
    const href = attr(a.open, 'href');
    if (!href || href.startsWith('#') || /^javascript:/i.test(href)) continue;
    try {
      return new URL(href, pageUrl).href;
    } catch {
      continue;
    }
  }
  return null;
}

/** `11/1/2016` (anywhere in the text) → `2016-11-01`, or null. */
export function usDate(text: string): string | null {
  const m = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(text);
  return m ? isoDate(Number(m[3]), Number(m[1]), Number(m[2])) : null;
}

const CANCELLED = /\bcancel+ed\b/i;

/**
 * A Telerik grid as python-legistar-scraper reads it: header names from `th.rgHeader` (text, else an input's value
 * or an image's alt), then each `tr.rgRow` / `tr.rgAltRow` as its cells keyed by header name.
 */
export interface GridRow {
  cells: Map<string, string>;
}

export function parseGrid(table: Element): { headers: string[]; rows: GridRow[] } {
  const headers = children(table.inner, 'th')
    .filter((th) => /\brgHeader\b/.test(attr(th.open, 'class') ?? ''))
    .map((th) => {
      const text = cleanText(th.inner);
      if (text) return text;
      const input = children(th.inner, 'input')[0];
      const img = /<img\b[^>]*>/i.exec(th.inner);
      return (input && attr(input.open, 'value')?.trim()) || (img && attr(img[0], 'alt')) || '';
    });
  const body =
    children(table.inner, 'tbody')
      .map((b) => b.inner)
      .join('') || table.inner;
  const rows = children(body, 'tr')
    .filter((tr) => /(?:^|\s)(?:rgRow|rgAltRow)(?:\s|$)/.test(attr(tr.open, 'class') ?? '')) // also `rgAltRow rgSelectedRow`
    .map((tr) => {
      const cells = new Map<string, string>();
      children(tr.inner, 'td').forEach((td, i) => {
        if (headers[i] !== undefined && !cells.has(headers[i])) cells.set(headers[i], td.inner);
      });
      return { cells };
    });
  return { headers, rows };
}

// ---------------------------------------------------------------------------------------------------------------
// The calendar feed (Feed.ashx?M=Calendar&ID=…&GUID=…&Mode=YYYY)

/** One `<item>` of a Legistar calendar feed. */
export interface FeedEntry {
  title: string;
  /** `<category>`, else the title before ` - M/D/YYYY`. */
  body: string;
  meetingDate: string | null;
  /** `2:00 PM` when the title has one. */
  time: string | null;
  cancelled: boolean;
  /** The meeting page (`Gateway.aspx?M=MD&…` on the real site), absolute, or null. */
  link: string | null;
}

export type FeedParse = { ok: true; entries: FeedEntry[] } | { ok: false; problem: string };

function tagText(xml: string, tag: string): string {
  const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'i').exec(xml);
  return m ? cleanText(m[1]) : '';
}

/**
 * A calendar feed's items. Real items (sources.md; citelao/Civic-Dude contrib/scrapy/legistar/spiders/MeetingsSpider.py
 * quotes one) have a title `Board of Supervisors - 11/4/2025 - 2:00 PM` (a cancelled one `… - 10/1/2025 (CANCELED)`),
 * a link to `Gateway.aspx?M=MD&From=RSS&ID=…&GUID=…`, an empty description, a category naming the body and a pubDate.
 * A body that is not RSS (the site's `Invalid feed` answer, an HTML error page) is a problem, not an empty feed.
 */
export function parseFeed(xml: string, feedUrl: string): FeedParse {
  if (!/<rss\b/i.test(xml) || !/<channel\b/i.test(xml)) {
    const said = cleanText(xml).slice(0, 80);
    return { ok: false, problem: said ? `not an RSS feed: '${said}'` : 'an empty body' };
  }
  const entries = children(xml, 'item').map(({ inner }): FeedEntry => {
    const title = tagText(inner, 'title');
    const dated = /^(.*?)\s+-\s+(\d{1,2}\/\d{1,2}\/\d{4})(?:\s+-\s+(\d{1,2}:\d{2}\s*[AP]M))?/i.exec(title);
    const category = tagText(inner, 'category');
    let link: string | null = null;
    const rawLink = tagText(inner, 'link');
    if (rawLink) {
      try {
        link = new URL(rawLink, feedUrl).href;
      } catch {
        link = null;
      }
    }
    return {
      title,
      body: category || (dated ? dated[1] : title.split(' - ')[0]).trim(),
      meetingDate: dated ? usDate(dated[2]) : null,
      time: dated?.[3]?.toUpperCase() ?? null,
      cancelled: CANCELLED.test(title),
      link,
    };
  });
  return { ok: true, entries };
}

// ---------------------------------------------------------------------------------------------------------------
// A meeting page (MeetingDetail.aspx?ID=…&GUID=…)

/** What a meeting page shows: the meeting, its published agenda and minutes, and its grid of files. */
export interface MeetingPage {
  body: string;
  meetingDate: string | null;
  time: string | null;
  /** The remark printed under the location (`Regular Meeting`, `Special Meeting`), or null. */
  label: string | null;
  cancelled: boolean;
  documents: ListedDocument[];
  /** null when the page has no items grid at all. */
  items: MeetingRow[] | null;
}

/** One row of the items grid, its text cleaned; fileNumber is '' for agenda items that are not files. */
export type MeetingRow = Omit<MeetingItem, 'meetingDate' | 'meetingUrl'>;

const ID = 'ctl00_ContentPlaceHolder1_';

/** The remark Legistar prints in `<em>` after a meeting's location (`Special Meeting`, `CANCELLED`), or null. */
function remark(locationHtml: string): string | null {
  const em = children(locationHtml, 'em')[0];
  const text = em ? cleanText(em.inner) : '';
  return text || null;
}

function documentLink(html: string, anchorId: string, pageUrl: string, kind: Kind): ListedDocument | null {
  const a = byId(html, anchorId);
  if (!a) return null;
  const href = attr(a.open, 'href');
  if (!href || /not\s+available/i.test(cleanText(a.inner))) return null;
  try {
    return { kind, url: new URL(href, pageUrl).href };
  } catch {
    return null;
  }
}

export function parseMeetingPage(html: string, pageUrl: string): MeetingPage {
  const field = (id: string) => {
    const el = byId(html, ID + id);
    return el ? cleanText(el.inner) : '';
  };
  const location = byId(html, `${ID}lblLocation`);
  const label = location ? remark(location.inner) : null;
  const documents = [
    documentLink(html, `${ID}hypAgenda`, pageUrl, 'agenda'),
    documentLink(html, `${ID}hypMinutes`, pageUrl, 'minutes'),
  ].filter((d): d is ListedDocument => d !== null);
  const table = byId(html, `${ID}gridMain_ctl00`);
  let items: MeetingRow[] | null = null;
  if (table) {
    const cell = (row: GridRow, name: string) => cleanText(row.cells.get(name) ?? '');
    items = parseGrid(table).rows.map((row) => ({
      fileNumber: cell(row, 'File #'),
      version: cell(row, 'Ver.'),
      agendaNumber: cell(row, 'Agenda #'),
      name: cell(row, 'Name'),
      type: cell(row, 'Type'),
      status: cell(row, 'Status'),
      title: cell(row, 'Title'),
      action: cell(row, 'Action'),
      result: cell(row, 'Result'),
    }));
  }
  const time = field('lblTime') || null;
  return {
    body: field('hypName'),
    meetingDate: usDate(field('lblDate')),
    time,
    label,
    cancelled: CANCELLED.test(label ?? '') || CANCELLED.test(time ?? ''),
    documents,
    items,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The calendar grid (Calendar.aspx)

/** One row of the calendar grid. */
export interface CalendarRow {
  body: string;
  meetingDate: string | null;
  time: string;
  label: string | null;
  cancelled: boolean;
  /** The row's Meeting Details link (MeetingDetail.aspx), absolute, or null. */
  detailUrl: string | null;
  documents: ListedDocument[];
}

/** The ASP.NET form state a postback must send back (`__VIEWSTATE`, `__EVENTVALIDATION`, …). */
export type FormState = Record<string, string>;

export interface CalendarPage {
  /** null when the page has no calendar grid at all. */
  rows: CalendarRow[] | null;
  /** What the year list shows (`2026`, `This Month`, `All Years`), or null. */
  yearShown: string | null;
  form: FormState;
  /** The `__doPostBack` target of the grid's next page, when the grid has more pages. */
  nextPageTarget: string | null;
}

/** The hidden `__…` inputs of an ASP.NET page (python-legistar-scraper's sessionSecrets). */
export function formState(html: string): FormState {
  const state: FormState = {};
  for (const m of html.matchAll(/<input\b[^>]*>/gi)) {
    const name = attr(m[0], 'name');
    if (name && /^__[A-Z]+$/.test(name) && name !== '__EVENTTARGET' && name !== '__EVENTARGUMENT') {
      state[name] = attr(m[0], 'value') ?? '';
    }
  }
  return state;
}

/** The pager link after the current page (`a.rgCurrentPage` and its next sibling), as a postback target. */
function nextPage(html: string): string | null {
  const current = /<a\b[^>]*class\s*=\s*["'][^"']*\brgCurrentPage\b[^>]*>[\s\S]*?<\/a>\s*(<a\b[^>]*>)?/i.exec(html);
  const href = current?.[1] ? attr(current[1], 'href') : null;
  const target = href ? /__doPostBack\('([^']+)'/.exec(href) : null;
  return target ? decodeURIComponent(target[1]) : null;
}

export function parseCalendarPage(html: string, pageUrl: string): CalendarPage {
  const yearInput = /<input\b[^>]*\sid\s*=\s*["']ctl00_ContentPlaceHolder1_lstYears_Input["'][^>]*>/i.exec(html);
  const table = byId(html, `${ID}gridCalendar_ctl00`);
  let rows: CalendarRow[] | null = null;
  if (table) {
    rows = parseGrid(table).rows.map((row): CalendarRow => {
      const cell = (name: string) => row.cells.get(name) ?? '';
      const nameCell = cell('Name');
      const bodyLink = children(nameCell, 'a')[0];
      const location = cell('Meeting Location');
      const label = remark(location);
      const docs: ListedDocument[] = [];
      for (const [column, kind] of [
        ['Agenda', 'agenda'],
        ['Minutes', 'minutes'],
      ] as const) {
        const url = firstHref(cell(column), pageUrl);
        if (url) docs.push({ kind, url });
      }
      const time = cleanText(cell('Meeting Time'));
      return {
        body: cleanText(bodyLink ? bodyLink.inner : nameCell),
        meetingDate: usDate(cleanText(cell('Meeting Date'))),
        time,
        label,
        cancelled: CANCELLED.test(label ?? '') || CANCELLED.test(time),
        detailUrl: firstHref(cell('Meeting Details'), pageUrl),
        documents: docs,
      };
    });
  }
  return {
    rows,
    yearShown: yearInput ? attr(yearInput[0], 'value') : null,
    form: formState(html),
    nextPageTarget: nextPage(html),
  };
}
