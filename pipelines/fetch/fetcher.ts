// One fetch run: every source lists its meetings, the meetings are merged, each document is tried at the URLs its
// sources link and then at each host's file-name patterns (conditionally when we hold it already), checked, hashed,
// renamed into place and recorded. Failures are collected, never fatal to the others; the report says them all.
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { removeStaleTemps, tempPath, writeFileAtomic } from './atomic.ts';
import { CANONICAL, type FetchConfig, type SourceName } from './config.ts';
import { HttpClient, HttpError } from './http.ts';
import { acquireLock } from './lock.ts';
import { type Manifest, readManifest, writeManifest } from './manifest.ts';
import { mergeMeetingItems, readMeetingItems, writeMeetingItems } from './meeting-items.ts';
import { checkPdf, ContentError } from './pdf-check.ts';
import { type Reporter, silentReporter } from './progress.ts';
import { buildReport, type DocumentResult, type FetchReport } from './report.ts';
import { hostGuard, Robots } from './robots.ts';
import {
  bagName,
  type Candidate,
  type Discovery,
  type Kind,
  type ListedMeeting,
  publicUrl,
  type SourceContext,
} from './source.ts';
import { archiveUrl, discoverArchive } from './sources/archive.ts';
import { weekdays } from './sources/guess.ts';
import { discoverLegistar } from './sources/legistar.ts';
import { mediaUrls } from './sources/media.ts';
import { sfbosUrls } from './sources/sfbos.ts';
import { type FetchState, loadState, saveState, type StateEntry } from './state.ts';

export type { DocumentResult, FetchReport } from './report.ts';

const LISTINGS: Partial<Record<SourceName, (ctx: SourceContext) => Promise<Discovery>>> = {
  archive: discoverArchive,
  legistar: discoverLegistar,
};

const KINDS: Kind[] = ['agenda', 'minutes'];

/** The addresses a meeting's document has on the hosts by name, most likely first for its year. */
export function patternUrls(cfg: FetchConfig, meetingDate: string, kind: Kind): string[] {
  const recent = meetingDate >= '2025-01-01';
  const archive = archiveUrl(cfg, meetingDate, kind);
  return recent
    ? [...mediaUrls(cfg, meetingDate, kind), ...sfbosUrls(cfg, meetingDate, kind), archive]
    : [archive, ...sfbosUrls(cfg, meetingDate, kind)];
}

/** A URL under any configured base, written under that host's public root (what the manifest records). */
export function publicForm(cfg: FetchConfig, url: string): string {
  const pairs: [string, string][] = [
    [cfg.archiveBase, CANONICAL.archive],
    [cfg.sfbosBase, CANONICAL.sfbos],
    [cfg.mediaBase, CANONICAL.media],
    [cfg.legistarBase, CANONICAL.legistar],
  ];
  for (const [base, canonical] of pairs) if (url.startsWith(base)) return publicUrl(url, base, canonical);
  return url;
}

/** Meetings of all listings merged by date: each kind's listed URLs in source order; the first source names it. */
export function candidatesOf(
  cfg: FetchConfig,
  listed: { source: SourceName; meeting: ListedMeeting }[],
  guessed: string[],
): Candidate[] {
  const byKey = new Map<string, Candidate>();
  const add = (meetingDate: string, kind: Kind, source: SourceName, urls: string[], optional: boolean) => {
    const key = `${meetingDate}-${kind}`;
    const prev = byKey.get(key);
    if (prev) {
      prev.urls = [...new Set([...prev.urls, ...urls])];
      prev.optional &&= optional;
      return;
    }
    const archive = archiveUrl(cfg, meetingDate, kind);
    byKey.set(key, {
      key,
      meetingDate,
      kind,
      file: `pdfs/${bagName(meetingDate, kind)}`,
      urls,
      source,
      optional,
      officialUrl: publicForm(cfg, urls[0] ?? archive),
      archiveUrl: meetingDate < '2025-07-01' ? publicForm(cfg, archive) : '',
    });
  };
  for (const { source, meeting } of listed) {
    if (meeting.meetingDate < cfg.since || meeting.meetingDate > cfg.until) continue;
    for (const kind of KINDS) {
      const urls = meeting.documents.filter((d) => d.kind === kind).map((d) => d.url);
      // A kind the listing does not link (minutes not out yet) is still tried by name, but may be absent.
      add(meeting.meetingDate, kind, source, urls, urls.length === 0);
    }
  }
  for (const day of guessed) for (const kind of KINDS) add(day, kind, 'guess', [], true);
  for (const c of byKey.values()) c.urls = [...new Set([...c.urls, ...patternUrls(cfg, c.meetingDate, c.kind)])];
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Years of the window that no listing covered: their weekdays, up to the window's end, are guessed by name. */
export function guessDays(cfg: FetchConfig, listedDates: Set<string>, coveredYears: Set<number>): string[] {
  const out: string[] = [];
  for (let y = Number(cfg.since.slice(0, 4)); y <= Number(cfg.until.slice(0, 4)); y++) {
    if (coveredYears.has(y)) continue;
    const from = `${y}-01-01` > cfg.since ? `${y}-01-01` : cfg.since;
    const until = `${y}-12-31` < cfg.until ? `${y}-12-31` : cfg.until;
    out.push(...weekdays(from, until).filter((d) => !listedDates.has(d)));
  }
  return out;
}

export async function runFetch(cfg: FetchConfig, report: Reporter = silentReporter): Promise<FetchReport> {
  const startedAt = new Date().toISOString();
  const pdfDir = join(cfg.dest, 'pdfs');
  await mkdir(pdfDir, { recursive: true });
  const unlock = await acquireLock(cfg.dest);
  try {
    const stale = (await removeStaleTemps(cfg.dest)) + (await removeStaleTemps(pdfDir));
    if (stale) report.stage(`resume: removed ${stale} temp file(s) left by an interrupted run`);
    const state = await loadState(cfg.dest);
    const manifest = await readManifest(cfg.dest);
    const onRetry = (url: string, reason: string, ms: number) => report.warn(`${url}: ${reason}; retrying in ${ms} ms`);
    // Robots reads robots.txt through the unguarded client; every other request, and each redirect hop, is guarded:
    // only the configured hosts, only what their robots.txt allows. Both share one limiter.
    const base = new HttpClient(cfg, onRetry);
    const robots = new Robots(base, cfg.userAgent, report.warn);
    const hosts = new Set(
      [cfg.archiveBase, cfg.sfbosBase, cfg.mediaBase, cfg.legistarBase].map((b) => new URL(b).host),
    );
    const http = base.guarded(hostGuard(hosts, robots));
    const ctx: SourceContext = { cfg, http, robots };

    const discoveries: Discovery[] = [];
    for (const name of cfg.sources) {
      const discover = LISTINGS[name];
      if (!discover) continue;
      let found: Discovery;
      try {
        found = await discover(ctx);
      } catch (err) {
        // An adapter that throws is a bug or a source gone strange: reported like any failure, the others go on.
        found = {
          source: name,
          meetings: [],
          meetingItems: [],
          failures: [{ source: name, url: '', expected: 'a readable listing', message: (err as Error).message }],
          note: 'failed',
        };
      }
      report.stage(`discover ${name}: ${found.note}`);
      discoveries.push(found);
    }
    const listed = discoveries.flatMap((d) => d.meetings.map((meeting) => ({ source: d.source, meeting })));
    const listedDates = new Set(listed.map((l) => l.meeting.meetingDate));
    const coveredYears = new Set([...listedDates].map((d) => Number(d.slice(0, 4))));
    const guessed = cfg.sources.includes('guess') ? guessDays(cfg, listedDates, coveredYears) : [];
    if (guessed.length)
      report.stage(`discover guess: ${guessed.length} weekdays in years no listing covers, tried by file name`);
    const candidates = candidatesOf(cfg, listed, guessed);

    const documents: DocumentResult[] = [];
    if (cfg.plan) {
      for (const c of candidates)
        documents.push({
          key: c.key,
          file: c.file,
          source: c.source,
          meetingDate: c.meetingDate,
          kind: c.kind,
          outcome: 'planned',
          url: c.urls[0],
        });
    } else {
      report.stage(`fetch: ${candidates.length} documents (${cfg.concurrency} at a time, ${cfg.delayMs} ms apart)`);
      report.start(candidates.length);
      const persist = serial(async () => {
        for (const e of Object.values(state.documents))
          manifest.rows.set(e.file, { ...manifest.rows.get(e.file), ...rowOf(e) });
        await saveState(cfg.dest, state);
        await writeManifest(cfg.dest, manifest);
      });
      const queue = [...candidates];
      const worker = async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          let result: DocumentResult;
          try {
            result = await fetchOne(c, ctx, state, manifest, persist);
          } catch (err) {
            result = { ...resultOf(c), outcome: 'failed', error: (err as Error).message };
          }
          documents.push(result);
          report.tick(`${result.outcome} ${c.file}`);
        }
      };
      await Promise.all(Array.from({ length: cfg.concurrency }, worker));
      await persist(); // also brings the manifest up to date after a crash between a rename and its record
      report.done();
      const items = discoveries.flatMap((d) => d.meetingItems);
      if (items.length) await writeMeetingItems(cfg.dest, mergeMeetingItems(await readMeetingItems(cfg.dest), items));
    }
    documents.sort((a, b) => a.key.localeCompare(b.key));
    const result = buildReport({
      cfg,
      startedAt,
      discoveries,
      listed,
      candidates,
      documents,
      held: Object.values(state.documents),
    });
    if (!cfg.plan) await writeFileAtomic(join(cfg.dest, 'fetch-report.json'), JSON.stringify(result, null, 1) + '\n');
    return result;
  } finally {
    await unlock();
  }
}

const resultOf = (c: Candidate) => ({
  key: c.key,
  file: c.file,
  source: c.source,
  meetingDate: c.meetingDate,
  kind: c.kind,
});

async function fetchOne(
  c: Candidate,
  { cfg, http, robots }: SourceContext,
  state: FetchState,
  manifest: Manifest,
  persist: () => Promise<void>,
): Promise<DocumentResult> {
  const target = join(cfg.dest, c.file);
  const prev: StateEntry | undefined = state.documents[c.key];
  const row = manifest.rows.get(c.file);
  const local = await stat(target).catch(() => null);
  const expectedBytes = prev?.bytes ?? (row ? Number(row.bytes) : NaN);
  // Only a file we still hold, intact in size, may be revalidated instead of downloaded.
  const held = local !== null && local.size === expectedBytes;
  const recordedSha = prev?.sha256 ?? row?.sha256;
  const missing: string[] = [];
  const blocked: string[] = [];
  // The URL that answered last time first, so its validators make the request conditional.
  const urls =
    prev && c.urls.includes(prev.source_url)
      ? [prev.source_url, ...c.urls.filter((u) => u !== prev.source_url)]
      : c.urls;

  for (const url of urls) {
    if (!(await robots.allowed(url))) {
      blocked.push(url);
      continue;
    }
    const conditional: Record<string, string> = {};
    if (held && prev?.source_url === url) {
      if (prev.etag) conditional['if-none-match'] = prev.etag;
      if (prev.last_modified) conditional['if-modified-since'] = prev.last_modified;
    }
    const tmp = tempPath(target);
    const res = await http.download(url, conditional, tmp);
    if (res.status === 404 || res.status === 410) {
      missing.push(url);
      continue;
    }
    if (res.status === 304) {
      if (!prev) throw new HttpError(`304 from ${url} without a conditional request`, false);
      return { ...resultOf(c), outcome: 'unchanged', url, sha256: prev.sha256 };
    }
    if (res.status !== 200) throw new HttpError(`${url}: HTTP ${res.status}, expected a PDF`, false);

    let pages: number;
    try {
      ({ pages } = await checkPdf(tmp));
    } catch (err) {
      await rm(tmp, { force: true });
      // A guessed address answered with a soft "not found" page (Legistar's status page for a document not yet
      // published): the document is not there. A listed one must be a PDF.
      if (err instanceof ContentError && (c.optional || !c.urls.slice(0, 1).includes(url))) {
        missing.push(url);
        continue;
      }
      throw new Error(`${url}: expected a PDF, got ${(err as Error).message}`);
    }
    if (held && recordedSha === res.sha256) await rm(tmp, { force: true });
    else await rename(tmp, target); // new, changed, or repairing a missing/damaged local copy
    const outcome = recordedSha === undefined ? 'added' : recordedSha === res.sha256 ? 'unchanged' : 'changed';
    state.documents[c.key] = {
      file: c.file,
      meeting_date: c.meetingDate,
      kind: c.kind,
      pages,
      bytes: res.bytes,
      sha256: res.sha256,
      official_url: publicForm(cfg, res.url || url),
      archive_url: c.archiveUrl,
      source: c.source,
      source_url: url,
      etag: res.headers.get('etag'),
      last_modified: res.headers.get('last-modified'),
      fetched_at: new Date().toISOString(),
    };
    await persist();
    return { ...resultOf(c), outcome, url, sha256: res.sha256 };
  }
  const why = [
    blocked.length ? `disallowed by robots.txt: ${blocked.join(' ')}` : '',
    missing.length ? `not found at: ${missing.join(' ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  // Guessed or unlisted: not finding it is no failure (what robots.txt kept us from trying is still said).
  if (c.optional) return { ...resultOf(c), outcome: 'absent', ...(blocked.length ? { error: why } : {}) };
  throw new Error(`expected a PDF; ${why}`);
}

function rowOf(e: StateEntry): Record<string, string> {
  return {
    file: e.file,
    meeting_date: e.meeting_date,
    kind: e.kind,
    pages: String(e.pages),
    bytes: String(e.bytes),
    sha256: e.sha256,
    official_url: e.official_url,
    archive_url: e.archive_url,
  };
}

/** Calls of `fn` run one after another, never overlapping (atomic writes of the same files). */
function serial(fn: () => Promise<void>): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return () => (last = last.catch(() => {}).then(fn));
}
