// Legistar (sfgov.legistar.com), 2011 – 2026: the Board's per-year calendar feeds (Feed.ashx with the site's feed ID
// and GUID), each item's meeting page (Gateway.aspx → MeetingDetail.aspx) with its agenda and minutes View.ashx links
// and its grid of files, and the calendar grid (Calendar.aspx, a year chosen by form POST) for the years without a
// feed or whose feed failed. Every failure is reported with its URL; none stops the other years.
import { CANONICAL } from '../config.ts';
import {
  type Discovery,
  type ListedDocument,
  type ListedMeeting,
  type MeetingItem,
  publicUrl,
  type SourceContext,
  type SourceFailure,
} from '../source.ts';
import {
  type CalendarPage,
  type CalendarRow,
  parseCalendarPage,
  parseFeed,
  parseMeetingPage,
} from './legistar-pages.ts';

export { parseCalendarPage, parseFeed, parseMeetingPage } from './legistar-pages.ts';

/** The feed of one year: `Feed.ashx?M=Calendar&ID=…&GUID=…&Mode=YYYY` under the configured Legistar root. */
export function feedUrl(base: string, year: number, feed: { id: string; guid: string }): string {
  return `${base}Feed.ashx?M=Calendar&ID=${encodeURIComponent(feed.id)}&GUID=${encodeURIComponent(feed.guid)}&Mode=${year}`;
}

/** A meeting found by a feed item or a grid row, before its meeting page is read. */
interface Lead {
  meetingDate: string;
  /** The meeting page to follow (Gateway.aspx or MeetingDetail.aspx), or null. */
  link: string | null;
  label: string | null;
  /** Documents the listing itself links (the calendar grid does; the feed does not). */
  documents: ListedDocument[];
  foundAt: string;
}

interface Run {
  ctx: SourceContext;
  meetings: ListedMeeting[];
  meetingItems: MeetingItem[];
  failures: SourceFailure[];
  pagesRead: number;
}

const inWindow = (run: Run, date: string) => date >= run.ctx.cfg.since && date <= run.ctx.cfg.until;

function fail(run: Run, url: string, expected: string, message: string): void {
  run.failures.push({ source: 'legistar', url, expected, message });
}

/** GET a page, or null after recording why not (robots.txt, HTTP error after retries, a status other than 200). */
async function get(run: Run, url: string, expected: string) {
  if (!(await run.ctx.robots.allowed(url))) {
    fail(run, url, expected, 'robots.txt disallows this URL');
    return null;
  }
  try {
    const res = await run.ctx.http.text(url);
    run.pagesRead++;
    if (res.status === 200) return res;
    fail(
      run,
      res.url,
      expected,
      res.url === url ? `HTTP ${res.status}` : `HTTP ${res.status} (redirected from ${url})`,
    );
  } catch (err) {
    fail(run, url, expected, (err as Error).message);
  }
  return null;
}

/**
 * POST an ASP.NET form (the calendar's year list and pager are postbacks). http.ts has no POST, so this one uses
 * fetch() inside the client's limiter, with its User-Agent, timeout and retries on 429/5xx and broken connections.
 */
/** The calendar's form POST (choosing a year or a grid page), bounded, guarded and retried as every request is. */
async function postForm(run: Run, url: string, fields: Record<string, string>, cookie: string, expected: string) {
  try {
    const res = await run.ctx.http.form(url, fields, cookie ? { cookie } : {});
    run.pagesRead++;
    if (res.status === 200) return res;
    fail(run, url, expected, `HTTP ${res.status} to the form POST`);
  } catch (err) {
    fail(run, url, expected, `${(err as Error).message} (the form POST)`);
  }
  return null;
}

/** The MeetingDetail URL a row is filed under: ID and GUID only, under the public Legistar root. */
function meetingKey(run: Run, pageUrl: string): string {
  const u = new URL(pageUrl);
  const id = u.searchParams.get('ID');
  const guid = u.searchParams.get('GUID');
  const { legistarBase } = run.ctx.cfg;
  const local = id && guid ? `${legistarBase}MeetingDetail.aspx?ID=${id}&GUID=${guid}` : pageUrl;
  return publicUrl(local, legistarBase, CANONICAL.legistar);
}

/** Follow a meeting's page: its date, label and documents, and one MeetingItem per grid row with a file number. */
async function readMeeting(run: Run, lead: Lead, seen: Set<string>): Promise<void> {
  const keep = (m: ListedMeeting): void => {
    run.meetings.push(m);
  };
  const fallback = (): ListedMeeting => ({
    meetingDate: lead.meetingDate,
    label: lead.label,
    documents: lead.documents,
    foundAt: lead.foundAt,
  });
  if (!lead.link) return keep(fallback());
  const expected = 'a MeetingDetail.aspx page with the meeting date and its items grid';
  const res = await get(run, lead.link, expected);
  if (!res) return keep(fallback());
  const page = parseMeetingPage(res.text, res.url);
  const key = meetingKey(run, res.url);
  if (seen.has(key)) return;
  seen.add(key);
  if (!page.meetingDate || page.items === null) {
    fail(
      run,
      res.url,
      expected,
      page.meetingDate ? 'no items grid (gridMain) on the page' : 'no meeting date (lblDate) on the page',
    );
    return keep(fallback());
  }
  const { legistarBody } = run.ctx.cfg;
  if (page.body && page.body !== legistarBody) {
    // Its rows would be taken for the Board's votes: keep the listing's facts only.
    fail(run, res.url, `a meeting of the ${legistarBody}`, `the page is a meeting of the ${page.body}`);
    return keep(fallback());
  }
  if (page.cancelled) return;
  if (page.meetingDate !== lead.meetingDate) {
    fail(
      run,
      res.url,
      `the meeting of ${lead.meetingDate} listed at ${lead.foundAt}`,
      `the page is dated ${page.meetingDate}`,
    );
  }
  keep({
    meetingDate: page.meetingDate,
    label: page.label ?? lead.label,
    documents: page.documents.length > 0 ? page.documents : lead.documents,
    foundAt: res.url,
  });
  for (const row of page.items) {
    if (row.fileNumber) run.meetingItems.push({ meetingDate: page.meetingDate, meetingUrl: key, ...row });
  }
}

/** Meetings of the configured body in one year's feed, or null when the feed itself failed (the grid is tried). */
async function readFeed(run: Run, year: number, url: string): Promise<Lead[] | null> {
  const { cfg } = run.ctx;
  const expected = `the RSS calendar feed of ${year}`;
  const res = await get(run, url, expected);
  if (!res) return null;
  const feed = parseFeed(res.text, res.url);
  if (!feed.ok) {
    fail(run, url, expected, feed.problem);
    return null;
  }
  if (feed.entries.length === 0 && `${year}-12-31` < new Date().toISOString().slice(0, 10)) {
    fail(run, url, expected, `no items at all, for a year that is over`);
    return null;
  }
  const leads: Lead[] = [];
  for (const entry of feed.entries) {
    if (entry.body !== cfg.legistarBody || entry.cancelled) continue;
    if (!entry.meetingDate || !entry.link) {
      fail(
        run,
        url,
        `items titled '${cfg.legistarBody} - M/D/YYYY - h:mm AM' with a link`,
        `item '${entry.title}' has ${entry.meetingDate ? 'no link' : 'no readable date'}`,
      );
      continue;
    }
    if (inWindow(run, entry.meetingDate))
      leads.push({ meetingDate: entry.meetingDate, link: entry.link, label: null, documents: [], foundAt: url });
  }
  return leads;
}

/** The calendar grid of one year: the default view, then the year chosen by the year list's postback, every page. */
async function readCalendar(run: Run, year: number): Promise<Lead[]> {
  const { cfg } = run.ctx;
  const url = `${cfg.legistarBase}Calendar.aspx`;
  const expected = `a calendar grid (gridCalendar) with the meetings of ${year}`;
  const first = await get(run, url, expected);
  if (!first) return [];
  const cookie = first.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  let page: CalendarPage = parseCalendarPage(first.text, first.url);
  const yearState = `{"value":"${year}"}`;
  if (page.yearShown !== String(year) && page.form.__VIEWSTATE !== undefined) {
    // python-legistar-scraper (legistar/events.py eventSearch): the year list is a postback with its client state.
    const fields = {
      ...page.form,
      __EVENTTARGET: 'ctl00$ContentPlaceHolder1$lstYears',
      __EVENTARGUMENT: '',
      ctl00_ContentPlaceHolder1_lstYears_ClientState: yearState,
    };
    const posted = await postForm(run, url, fields, cookie, expected);
    if (!posted) return [];
    page = parseCalendarPage(posted.text, posted.url);
    if (page.rows !== null && page.yearShown !== null && page.yearShown !== String(year)) {
      fail(run, url, expected, `the year list shows '${page.yearShown}' after choosing ${year}`);
      return [];
    }
  }
  const rows: CalendarRow[] = [...(page.rows ?? [])];
  for (let n = 0; page.rows && page.nextPageTarget && n < 50; n++) {
    const fields = {
      ...page.form,
      __EVENTTARGET: page.nextPageTarget,
      __EVENTARGUMENT: '',
      ctl00_ContentPlaceHolder1_lstYears_ClientState: yearState,
    };
    const posted = await postForm(run, url, fields, cookie, expected);
    if (!posted) break;
    page = parseCalendarPage(posted.text, posted.url);
    rows.push(...(page.rows ?? []));
  }
  if (rows.length === 0) {
    fail(run, url, expected, page.rows === null ? 'no calendar grid on the page' : 'an empty grid');
    return [];
  }
  const ofYear = rows.filter((r) => r.meetingDate?.startsWith(`${year}-`));
  if (ofYear.length === 0) {
    fail(run, url, expected, `${rows.length} row${rows.length === 1 ? '' : 's'}, none dated in ${year}`);
    return [];
  }
  return ofYear
    .filter((r) => r.body === cfg.legistarBody && !r.cancelled && inWindow(run, r.meetingDate!))
    .map((r) => ({
      meetingDate: r.meetingDate!,
      link: r.detailUrl,
      label: r.label,
      documents: r.documents,
      foundAt: url,
    }));
}

/** Meetings of the configured body in the window, with their documents and their meeting pages' rows. */
export async function discoverLegistar(ctx: SourceContext): Promise<Discovery> {
  const { cfg } = ctx;
  const run: Run = { ctx, meetings: [], meetingItems: [], failures: [], pagesRead: 0 };
  const seen = new Set<string>();
  let feeds = 0;
  let grids = 0;
  for (let year = Number(cfg.since.slice(0, 4)); year <= Number(cfg.until.slice(0, 4)); year++) {
    const feed = cfg.legistarFeeds[String(year)];
    let leads = feed ? await readFeed(run, year, feedUrl(cfg.legistarBase, year, feed)) : null;
    if (feed) feeds++;
    if (leads === null) {
      grids++;
      leads = await readCalendar(run, year);
    }
    await Promise.all(leads.map((lead) => readMeeting(run, lead, seen)));
  }
  // Pages are read concurrently: order by date (then page) so runs compare; the sort is stable within a meeting.
  run.meetings.sort((a, b) => a.meetingDate.localeCompare(b.meetingDate) || a.foundAt.localeCompare(b.foundAt));
  run.meetingItems.sort(
    (a, b) => a.meetingDate.localeCompare(b.meetingDate) || a.meetingUrl.localeCompare(b.meetingUrl),
  );
  return {
    source: 'legistar',
    meetings: run.meetings,
    meetingItems: run.meetingItems,
    failures: run.failures,
    note:
      `legistar: ${feeds} feed${feeds === 1 ? '' : 's'}, ${grids} calendar grid${grids === 1 ? '' : 's'}, ${run.pagesRead} pages read; ` +
      `${run.meetings.length} meetings, ${run.meetingItems.length} items, ${run.failures.length} failures`,
  };
}
