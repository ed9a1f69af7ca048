// Legistar (sfgov.legistar.com): one calendar feed per year. The parse is deliberately tolerant: it accepts the RSS
// feed (`<item>`s, links possibly entity-escaped inside <description>) and the HTML calendar grid (`<tr>` rows), keeps
// rows whose name is the configured body, and takes each row's `View.ashx?M=A` (agenda) and `View.ashx?M=M` (minutes)
// links. An item with only a MeetingDetail link (ID + GUID) gets the agenda and minutes links derived from it, marked
// optional, since the feed does not say whether they are published yet.
import type { FetchConfig } from '../config.ts';
import { CANONICAL } from '../config.ts';
import { bagName, isoDate, publicUrl, type Candidate, type Kind } from '../candidate.ts';
import type { HttpClient } from '../http.ts';
import type { Robots } from '../robots.ts';
import type { Discovery } from './clerk-archive.ts';

export interface LegistarMeeting {
  meetingDate: string;
  agendaUrl: string | null;
  minutesUrl: string | null;
  /** Links derived from the MeetingDetail ID/GUID rather than listed. */
  derived: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

const stripTags = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

/** The record's name: an RSS title, else its first table cell. */
function recordName(record: string): string {
  const m = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(record) ?? /<td\b[^>]*>([\s\S]*?)<\/td>/i.exec(record);
  return m ? stripTags(m[1]) : '';
}

export function parseCalendar(feed: string, pageUrl: string, body: string): LegistarMeeting[] {
  const text = feed.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1');
  let records = [...text.matchAll(/<item\b[\s\S]*?<\/item>/gi)].map((m) => m[0]);
  if (records.length === 0) records = [...text.matchAll(/<tr\b[\s\S]*?<\/tr>/gi)].map((m) => m[0]);
  const meetings: LegistarMeeting[] = [];
  for (const raw of records) {
    // Decoding first turns escaped markup in RSS descriptions into links, and `&amp;` in hrefs into `&`.
    const record = decodeEntities(decodeEntities(raw));
    const name = recordName(record);
    if (!name.toLowerCase().startsWith(body.toLowerCase()) || /[a-z]/i.test(name.charAt(body.length))) continue;
    const all = stripTags(record);
    if (/\bcancel+ed\b/i.test(all)) continue;
    const date = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(all);
    const meetingDate = date && isoDate(Number(date[3]), Number(date[1]), Number(date[2]));
    if (!meetingDate) continue;
    const links = [...record.matchAll(/[^\s"'<>]*View\.ashx\?[^\s"'<>]+/gi)].map((m) => resolve(m[0], pageUrl)).filter((u): u is URL => u !== null);
    const pick = (code: string) => links.find((u) => u.searchParams.get('M') === code)?.href ?? null;
    let meeting: LegistarMeeting = { meetingDate, agendaUrl: pick('A'), minutesUrl: pick('M'), derived: false };
    if (!meeting.agendaUrl && !meeting.minutesUrl) {
      const detail = /[^\s"'<>]*MeetingDetail\.aspx\?[^\s"'<>]+/i.exec(record);
      const u = detail && resolve(detail[0], pageUrl);
      const id = u?.searchParams.get('ID');
      const guid = u?.searchParams.get('GUID');
      if (!u || !id || !guid) continue;
      const view = (code: string) => new URL(`View.ashx?M=${code}&ID=${encodeURIComponent(id)}&GUID=${encodeURIComponent(guid)}`, u).href;
      meeting = { meetingDate, agendaUrl: view('A'), minutesUrl: view('M'), derived: true };
    }
    meetings.push(meeting);
  }
  return meetings;
}

function resolve(href: string, base: string): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

export function calendarUrls(cfg: FetchConfig): string[] {
  const urls: string[] = [];
  for (let y = Number(cfg.since.slice(0, 4)); y <= Number(cfg.until.slice(0, 4)); y++) urls.push(cfg.legistarCalendar.replaceAll('{year}', String(y)));
  return urls;
}

export async function discoverLegistar(cfg: FetchConfig, http: HttpClient, robots: Robots): Promise<Discovery> {
  const byKey = new Map<string, Candidate>();
  const errors: string[] = [];
  let meetings = 0;
  const urls = calendarUrls(cfg);
  for (const url of urls) {
    try {
      if (!(await robots.allowed(url))) { errors.push(`calendar ${url} disallowed by robots.txt`); continue; }
      const res = await http.text(url);
      if (res.status !== 200) { errors.push(`calendar ${url}: HTTP ${res.status}`); continue; }
      for (const m of parseCalendar(res.text, res.url, cfg.legistarBody)) {
        if (m.meetingDate < cfg.since || m.meetingDate > cfg.until) continue;
        meetings++;
        for (const [kind, link] of [['agenda', m.agendaUrl], ['minutes', m.minutesUrl]] as [Kind, string | null][]) {
          const key = `${m.meetingDate}-${kind}`;
          // Two body meetings on one day (a regular and a special one) share a manifest row; the first listed wins.
          if (!link || byKey.has(key)) continue;
          byKey.set(key, {
            key,
            meetingDate: m.meetingDate,
            kind,
            file: `pdfs/${bagName(m.meetingDate, kind)}`,
            urls: [link],
            officialUrl: publicUrl(link, cfg.legistarBase, CANONICAL.legistar),
            archiveUrl: '',
            source: 'legistar',
            optional: m.derived,
          });
        }
      }
    } catch (err) {
      errors.push(`calendar ${url}: ${(err as Error).message}`);
    }
  }
  return { candidates: [...byKey.values()], errors, note: `${meetings} meetings in ${urls.length} yearly calendar(s)` };
}
