// The Clerk's archive of full-board agendas and minutes (2012–2024): `bagMMDDYY_{agenda|minutes}.pdf`, served under
// sfbos.org and now sfbos.archive.sf.gov. Meeting dates come from the archive's listing page (following its pager);
// when that yields nothing, the board's regular meeting day, Tuesday, is probed in the window.
import type { FetchConfig } from '../config.ts';
import { CANONICAL } from '../config.ts';
import { bagName, isoDate, publicUrl, type Candidate, type Kind } from '../candidate.ts';
import type { HttpClient } from '../http.ts';
import type { Robots } from '../robots.ts';

const BAG = /bag(\d{2})(\d{2})(\d{2})_(agenda|minutes)\.pdf$/i;
const MAX_LISTING_PAGES = 200;

export interface ListedDocument { meetingDate: string; kind: Kind; url: string }

function decodeAttr(s: string): string {
  return s.replace(/&amp;/gi, '&').replace(/&#0*38;/g, '&').replace(/&quot;/gi, '"').replace(/&#0*39;|&apos;/gi, "'");
}

/** Every link to a bag file on a listing page, plus the pager's next page if any. */
export function parseListing(html: string, pageUrl: string): { documents: ListedDocument[]; next: string | null } {
  const documents: ListedDocument[] = [];
  let next: string | null = null;
  for (const m of html.matchAll(/<a\b([^>]*)>/gi)) {
    const attrs = m[1];
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    if (!href) continue;
    let url: URL;
    try {
      url = new URL(decodeAttr(href[1] ?? href[2] ?? href[3]), pageUrl);
    } catch {
      continue;
    }
    if (/\brel\s*=\s*["']?[^"'>]*\bnext\b/i.test(attrs)) next ??= url.href;
    const bag = BAG.exec(decodeURIComponent(url.pathname));
    if (!bag) continue;
    const date = isoDate(2000 + Number(bag[3]), Number(bag[1]), Number(bag[2]));
    if (date) documents.push({ meetingDate: date, kind: bag[4].toLowerCase() as Kind, url: url.href });
  }
  return { documents, next };
}

/** Tuesdays in [from, until], ISO dates. */
export function meetingTuesdays(from: string, until: string): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + ((2 - d.getUTCDay() + 7) % 7));
  for (const end = new Date(`${until}T00:00:00Z`); d <= end; d.setUTCDate(d.getUTCDate() + 7)) out.push(d.toISOString().slice(0, 10));
  return out;
}

export function clerkCandidate(cfg: FetchConfig, meetingDate: string, kind: Kind, optional: boolean, listedUrl?: string): Candidate {
  const name = bagName(meetingDate, kind);
  const official = cfg.clerkBase + name;
  const archive = cfg.archiveBase + name;
  return {
    key: `${meetingDate}-${kind}`,
    meetingDate,
    kind,
    file: `pdfs/${name}`,
    urls: [...new Set([official, archive, ...(listedUrl ? [listedUrl] : [])])],
    officialUrl: publicUrl(official, cfg.clerkBase, CANONICAL.clerk),
    archiveUrl: publicUrl(archive, cfg.archiveBase, CANONICAL.archive),
    source: 'clerk-archive',
    optional,
  };
}

export interface Discovery { candidates: Candidate[]; errors: string[]; note: string }

export async function discoverClerkArchive(cfg: FetchConfig, http: HttpClient, robots: Robots): Promise<Discovery> {
  const listed = new Map<string, ListedDocument>();
  const seen = new Set<string>();
  let problem = '';
  for (let url: string | null = cfg.clerkListing; url && !seen.has(url) && seen.size < MAX_LISTING_PAGES; ) {
    seen.add(url);
    if (!(await robots.allowed(url))) { problem = `listing ${url} disallowed by robots.txt`; break; }
    try {
      const res = await http.text(url);
      if (res.status !== 200) { problem = `listing ${url}: HTTP ${res.status}`; break; }
      const page = parseListing(res.text, res.url);
      for (const doc of page.documents) listed.set(`${doc.meetingDate}-${doc.kind}`, doc);
      url = page.next;
    } catch (err) {
      problem = `listing ${url}: ${(err as Error).message}`;
      break;
    }
  }
  const inWindow = (d: string) => d >= cfg.since && d <= cfg.until;
  if (listed.size > 0) {
    const candidates = [...listed.values()].filter((d) => inWindow(d.meetingDate)).map((d) => clerkCandidate(cfg, d.meetingDate, d.kind, false, d.url));
    // A pager that breaks halfway leaves meetings undiscovered: that is a failure of the run, not a reason to probe.
    return { candidates, errors: problem ? [problem] : [], note: `${candidates.length} documents listed on ${seen.size} listing page(s)` };
  }
  const from = cfg.since > cfg.probeFrom ? cfg.since : cfg.probeFrom;
  const until = cfg.until < cfg.probeUntil ? cfg.until : cfg.probeUntil;
  const days = from <= until ? meetingTuesdays(from, until) : [];
  const candidates = days.flatMap((d) => (['agenda', 'minutes'] as const).map((k) => clerkCandidate(cfg, d, k, true)));
  return { candidates, errors: [], note: `${problem || 'listing has no documents'}; probing ${days.length} meeting Tuesdays` };
}
