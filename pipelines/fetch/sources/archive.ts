// The Clerk's archive (sfbos.archive.sf.gov), 2012 – mid-2025: the Drupal 7 Views listing of full-board meetings
// (`meetings/full-board-meetings`, paged by `?page=N`) and the files under /sites/default/files/.
// Every way the listing can go wrong is a SourceFailure naming the page: a changed listing must stop the run loudly,
// never fall back to guessing file names.
import { isoDate, namedDate } from '../../../core/dates.ts';
import type { FetchConfig } from '../config.ts';
import {
  bagName,
  type Discovery,
  type Kind,
  type ListedDocument,
  type ListedMeeting,
  type SourceContext,
  type SourceFailure,
} from '../source.ts';

export const LISTING_PATH = 'meetings/full-board-meetings';
export const MAX_PAGES = 500;

/** One row of the listing table, as printed. */
export interface ListingRow {
  /** ISO date from the row's date cell, or null when it cannot be read. */
  meetingDate: string | null;
  /** What the date cell printed (for a failure message). */
  dateText: string;
  label: string | null;
  /** Whether the row has its documents cell (td.views-field-field-meeting-type-1), links or not. */
  documentsCell: boolean;
  documents: ListedDocument[];
  /** Links in the documents cell that name neither an agenda nor minutes (or cannot be read as URLs). */
  otherLinks: string[];
}

export interface ListingPage {
  rows: ListingRow[];
  /** The Drupal pager: absent (null) or present, with the absolute URL of its next-page link (`li.next`, `li.pager-next`) or null. */
  pager: { next: string | null } | null;
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp|#039);/gi, (_, e: string) => {
    const l = e.toLowerCase();
    if (l.startsWith('#x')) return String.fromCodePoint(parseInt(l.slice(2), 16));
    if (l.startsWith('#')) return String.fromCodePoint(Number(l.slice(1)));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' } as Record<string, string>)[l];
  });
}

function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

function attributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/g)) {
    attrs[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4]);
  }
  return attrs;
}

/** An href made absolute against the page, or null when it is not a URL. */
function absolute(href: string, pageUrl: string): string | null {
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return null;
  }
}

const hasClass = (attrs: Record<string, string>, name: string) => (attrs.class ?? '').split(/\s+/).includes(name);

/** An element's inner HTML by class; Views cells and pagers do not nest elements of their own tag. */
function elementsWithClass(html: string, tag: string, cls: string): { attrs: Record<string, string>; inner: string }[] {
  const found = [];
  for (const m of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, 'gi'))) {
    const attrs = attributes(m[1]);
    if (hasClass(attrs, cls)) found.push({ attrs, inner: m[2] });
  }
  return found;
}

/** The date cell: Drupal's Date module prints `<span class="date-display-single" content="2016-11-01T14:00:00-07:00">`. */
function readDate(cellHtml: string): { meetingDate: string | null; dateText: string } {
  const span = /<(\w+)\b([^>]*\bdate-display-single\b[^>]*)>([\s\S]*?)<\/\1>/i.exec(cellHtml);
  const dateText = textOf(span ? span[3] : cellHtml);
  // The date part of the ISO date-time is the local (Pacific) date the Clerk entered, whatever the offset.
  const content = span ? (attributes(span[2]).content ?? '') : '';
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(content);
  if (iso)
    return { meetingDate: isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3])), dateText: dateText || content };
  const named = namedDate(dateText);
  if (named) return { meetingDate: named, dateText };
  const numeric = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(dateText);
  if (numeric) return { meetingDate: isoDate(Number(numeric[3]), Number(numeric[1]), Number(numeric[2])), dateText };
  return { meetingDate: null, dateText };
}

/** Agenda or minutes, from the link text, else from the file name (`bag110524_minutes.pdf`, `m110524.pdf`). */
export function kindOf(linkText: string, url: string): Kind | null {
  const fileName = new URL(url).pathname.split('/').pop() ?? '';
  for (const source of [linkText, fileName]) {
    if (/agenda/i.test(source)) return 'agenda';
    if (/minutes/i.test(source)) return 'minutes';
  }
  if (/^m\d{6}\b/i.test(fileName)) return 'minutes';
  return null;
}

/** One listing page: its table rows and its pager. Links are made absolute against the page's URL. */
export function parseArchiveListing(page: string, pageUrl: string): ListingPage {
  const html = page.replace(/<!--[\s\S]*?-->/g, '');
  const rows: ListingRow[] = [];
  for (const table of elementsWithClass(html, 'table', 'views-table')) {
    const body = /<tbody\b[^>]*>([\s\S]*?)<\/tbody>/i.exec(table.inner)?.[1] ?? table.inner;
    for (const tr of body.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
      const cells = [...tr[1].matchAll(/<td\b([^>]*)>([\s\S]*?)<\/td>/gi)].map((c) => ({
        attrs: attributes(c[1]),
        inner: c[2],
      }));
      if (cells.length === 0) continue; // a header row
      const dateCell = cells.find((c) => hasClass(c.attrs, 'views-field-field-date'));
      const docCell = cells.find((c) => hasClass(c.attrs, 'views-field-field-meeting-type-1'));
      const documents: ListedDocument[] = [];
      const otherLinks: string[] = [];
      // Documents are linked from the meeting-type-1 cell; a minutes column of its own is read as well.
      const linkCells = cells.filter((c) => c !== dateCell && /<a\b/i.test(c.inner));
      for (const a of linkCells
        .map((c) => c.inner)
        .join('\n')
        .matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
        const href = attributes(a[1]).href;
        if (!href) continue;
        const url = absolute(href, pageUrl);
        const kind = url ? kindOf(textOf(a[2]), url) : null;
        if (url && kind) documents.push({ kind, url });
        else otherLinks.push(url ?? href);
      }
      // The row's label (Regular Meeting, Special Meeting…) is whatever another cell prints.
      const label =
        cells
          .filter((c) => c !== dateCell && c !== docCell && !linkCells.includes(c))
          .map((c) => textOf(c.inner))
          .find(Boolean) ?? null;
      const date = dateCell
        ? readDate(dateCell.inner)
        : { meetingDate: null, dateText: 'no td.views-field-field-date cell' };
      rows.push({ ...date, label, documentsCell: docCell !== undefined, documents, otherLinks });
    }
  }
  const pagerList = elementsWithClass(html, 'ul', 'pager')[0];
  let pager: ListingPage['pager'] = null;
  if (pagerList) {
    // The site's theme marks it li.next (Drupal core: li.pager-next); both title it "Go to next page".
    const nextItem =
      elementsWithClass(pagerList.inner, 'li', 'next')[0] ?? elementsWithClass(pagerList.inner, 'li', 'pager-next')[0];
    const anchors = [...(nextItem?.inner ?? pagerList.inner).matchAll(/<a\b([^>]*)>/gi)].map((m) => attributes(m[1]));
    const next = (nextItem ? anchors[0] : anchors.find((a) => /^go to next page$/i.test(a.title ?? '')))?.href;
    pager = { next: next ? absolute(next, pageUrl) : null };
  }
  return { rows, pager };
}

/** Every page of the archive's listing (`meetings/full-board-meetings?page=N`): the meetings and their links. */
export async function discoverArchive(ctx: SourceContext, maxPages = MAX_PAGES): Promise<Discovery> {
  const { cfg, http, robots } = ctx;
  const meetings: ListedMeeting[] = [];
  const failures: SourceFailure[] = [];
  const fail = (url: string, expected: string, what: string) =>
    failures.push({ source: 'archive', url, expected, message: `${url}: expected ${expected}; ${what}` });
  const seen = new Set<string>();
  let url: string | null = cfg.archiveBase + LISTING_PATH;
  let pages = 0;
  let otherLinks = 0;
  let stoppedEarly = false;

  while (url) {
    if (seen.has(url)) {
      fail(url, 'a next page not read before', 'the pager loops back to a page already read');
      break;
    }
    if (pages >= maxPages) {
      fail(url, `at most ${maxPages} listing pages`, `the pager goes on past page ${maxPages}`);
      break;
    }
    seen.add(url);
    if (!(await robots.allowed(url))) {
      fail(url, 'robots.txt to allow the listing page', 'robots.txt disallows it');
      break;
    }
    let res;
    try {
      res = await http.text(url);
    } catch (err) {
      fail(url, 'the listing page (HTTP 200)', `request failed: ${(err as Error).message}`);
      break;
    }
    pages++;
    const expectedPage = 'a Drupal Views listing page (table.views-table rows, ul.pager)';
    if (res.status !== 200) {
      fail(url, expectedPage, `got HTTP ${res.status}`);
      break;
    }
    const type = res.headers.get('content-type');
    if (type ? !/html/i.test(type) : !/<html\b/i.test(res.text)) {
      fail(url, expectedPage, `got ${type ? `content-type ${type}` : 'a body that is not HTML'}`);
      break;
    }
    const page = parseArchiveListing(res.text, res.url || url);
    if (page.rows.length === 0) {
      fail(url, expectedPage, 'no table.views-table row on the page');
      break;
    }
    const undated = page.rows.filter((r) => !r.meetingDate);
    if (undated.length > 0) {
      const what = undated.length === 1 ? "a row's date" : `${undated.length} rows' dates`;
      fail(url, 'a meeting date in td.views-field-field-date', `${what} cannot be read ('${undated[0].dateText}')`);
    }
    if (!page.rows.some((r) => r.documentsCell)) {
      // Without it every meeting would silently come without documents.
      fail(url, 'document links in td.views-field-field-meeting-type-1', 'no row has that cell');
    }
    for (const row of page.rows) {
      otherLinks += row.otherLinks.length;
      if (!row.meetingDate || row.meetingDate < cfg.since || row.meetingDate > cfg.until) continue;
      meetings.push({ meetingDate: row.meetingDate, label: row.label, documents: row.documents, foundAt: url });
    }
    if (!page.pager) {
      // The archive lists hundreds of meetings over many pages: a page without a pager means the markup changed.
      fail(
        url,
        'a Drupal pager (ul.pager) on every listing page',
        pages === 1 ? 'the first page has none' : 'this page has none',
      );
      break;
    }
    // The listing is newest first: once a whole page is older than the window, later pages are older still.
    const dates = page.rows.map((r) => r.meetingDate).filter((d): d is string => d !== null);
    if (page.pager.next && dates.length > 0 && dates.every((d) => d < cfg.since)) {
      stoppedEarly = true;
      break;
    }
    url = page.pager.next;
  }

  const documents = meetings.reduce((n, m) => n + m.documents.length, 0);
  const note =
    `archive: ${pages} listing page${pages === 1 ? '' : 's'} read${stoppedEarly ? ' (stopped: older than the window)' : ''}, ` +
    `${meetings.length} meetings and ${documents} documents in ${cfg.since}..${cfg.until}` +
    (otherLinks ? `, ${otherLinks} other links skipped` : '');
  return { source: 'archive', meetings, meetingItems: [], failures, note };
}

/** Where a meeting's document lives on the archive host by name: `sites/default/files/bagMMDDYY_{kind}.pdf`. */
export function archiveUrl(cfg: FetchConfig, meetingDate: string, kind: Kind): string {
  return `${cfg.archiveBase}sites/default/files/${bagName(meetingDate, kind)}`;
}
