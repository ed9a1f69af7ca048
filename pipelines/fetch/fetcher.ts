// One fetch run: discover candidates from each source, fetch each (conditionally when we hold it already),
// check and hash it, rename it into place, record it; failures are collected, never fatal to the others.
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTemps, tempPath } from './atomic.ts';
import type { Candidate } from './candidate.ts';
import type { FetchConfig, SourceName } from './config.ts';
import { HttpClient, HttpError } from './http.ts';
import { acquireLock } from './lock.ts';
import { readManifest, writeManifest, type Manifest } from './manifest.ts';
import { ContentError, checkPdf } from './pdf-check.ts';
import { silentReporter, type Reporter } from './progress.ts';
import { Robots } from './robots.ts';
import { discoverClerkArchive, type Discovery } from './sources/clerk-archive.ts';
import { discoverLegistar } from './sources/legistar.ts';
import { loadState, saveState, type FetchState, type StateEntry } from './state.ts';

export type Outcome = 'added' | 'changed' | 'unchanged' | 'failed' | 'absent';

export interface Result { key: string; file: string; outcome: Outcome; url?: string; error?: string }

export interface Summary {
  added: number;
  changed: number;
  unchanged: number;
  failed: number;
  /** Probed or derived documents that do not exist (yet): not failures. */
  absent: number;
  results: Result[];
}

const SOURCES: Record<SourceName, (cfg: FetchConfig, http: HttpClient, robots: Robots) => Promise<Discovery>> = {
  'clerk-archive': discoverClerkArchive,
  legistar: discoverLegistar,
};

export async function runFetch(cfg: FetchConfig, report: Reporter = silentReporter): Promise<Summary> {
  const pdfDir = join(cfg.dest, 'pdfs');
  await mkdir(pdfDir, { recursive: true });
  const unlock = await acquireLock(cfg.dest);
  try {
    const stale = (await removeStaleTemps(cfg.dest)) + (await removeStaleTemps(pdfDir));
    if (stale) report.stage(`resume: removed ${stale} temp file(s) left by an interrupted run`);
    const state = await loadState(cfg.dest);
    const manifest = await readManifest(cfg.dest);
    const http = new HttpClient(cfg, (url, reason, ms) => report.warn(`${url}: ${reason}; retrying in ${ms} ms`));
    const robots = new Robots(http, cfg.userAgent, report.warn);
    const results: Result[] = [];

    // Sources in configured order: for a meeting both list, the first source's document is kept.
    const candidates = new Map<string, Candidate>();
    for (const name of cfg.sources) {
      const found = await SOURCES[name](cfg, http, robots);
      report.stage(`discover ${name}: ${found.note}`);
      for (const error of found.errors) results.push({ key: `discover:${name}`, file: '', outcome: 'failed', error });
      for (const c of found.candidates) if (!candidates.has(c.key)) candidates.set(c.key, c);
    }

    const queue = [...candidates.values()].sort((a, b) => a.key.localeCompare(b.key));
    report.stage(`fetch: ${queue.length} documents (${cfg.concurrency} at a time, ${cfg.delayMs} ms apart)`);
    report.start(queue.length);
    const persist = serial(async () => {
      for (const e of Object.values(state.documents)) manifest.rows.set(e.file, { ...manifest.rows.get(e.file), ...rowOf(e) });
      await saveState(cfg.dest, state);
      await writeManifest(cfg.dest, manifest);
    });
    const worker = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        let result: Result;
        try {
          result = await fetchOne(c, cfg, http, robots, state, manifest, persist);
        } catch (err) {
          result = { key: c.key, file: c.file, outcome: 'failed', error: (err as Error).message };
        }
        results.push(result);
        report.tick(`${result.outcome} ${c.file}`);
      }
    };
    await Promise.all(Array.from({ length: cfg.concurrency }, worker));
    await persist(); // also brings the manifest up to date after a crash between a rename and its record
    report.done();
    const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
    results.sort((a, b) => a.key.localeCompare(b.key));
    return { added: count('added'), changed: count('changed'), unchanged: count('unchanged'), failed: count('failed'), absent: count('absent'), results };
  } finally {
    await unlock();
  }
}

async function fetchOne(
  c: Candidate, cfg: FetchConfig, http: HttpClient, robots: Robots, state: FetchState, manifest: Manifest, persist: () => Promise<void>,
): Promise<Result> {
  const target = join(cfg.dest, c.file);
  const prev: StateEntry | undefined = state.documents[c.key];
  const row = manifest.rows.get(c.file);
  const local = await stat(target).catch(() => null);
  const expectedBytes = prev?.bytes ?? (row ? Number(row.bytes) : NaN);
  // Only a file we still hold, intact in size, may be revalidated instead of downloaded.
  const held = local !== null && local.size === expectedBytes;
  const recordedSha = prev?.sha256 ?? row?.sha256;
  const blocked: string[] = [];
  const missing: string[] = [];

  for (const url of c.urls) {
    if (!(await robots.allowed(url))) { blocked.push(url); continue; }
    const conditional: Record<string, string> = {};
    if (held && prev?.source_url === url) {
      if (prev.etag) conditional['if-none-match'] = prev.etag;
      if (prev.last_modified) conditional['if-modified-since'] = prev.last_modified;
    }
    const tmp = tempPath(target);
    const res = await http.download(url, conditional, tmp);
    if (res.status === 404 || res.status === 410) { missing.push(url); continue; }
    if (res.status === 304) {
      if (!prev) throw new HttpError(`304 from ${url} without a conditional request`, false);
      return { key: c.key, file: c.file, outcome: 'unchanged', url };
    }
    if (res.status !== 200) throw new HttpError(`HTTP ${res.status} from ${url}`, false);

    let pages: number;
    try {
      ({ pages } = await checkPdf(tmp));
    } catch (err) {
      await rm(tmp, { force: true });
      // A guessed address answered with a soft "not found" page: the document is not there.
      if (c.optional && err instanceof ContentError) { missing.push(url); continue; }
      throw new Error(`${url}: ${(err as Error).message}`);
    }
    if (held && recordedSha === res.sha256) await rm(tmp, { force: true });
    else await rename(tmp, target); // new, changed, or repairing a missing/damaged local copy
    const outcome: Outcome = recordedSha === undefined ? 'added' : recordedSha === res.sha256 ? 'unchanged' : 'changed';
    state.documents[c.key] = {
      file: c.file,
      meeting_date: c.meetingDate,
      kind: c.kind,
      pages,
      bytes: res.bytes,
      sha256: res.sha256,
      official_url: c.officialUrl,
      archive_url: c.archiveUrl,
      source: c.source,
      source_url: url,
      etag: res.headers.get('etag'),
      last_modified: res.headers.get('last-modified'),
      fetched_at: new Date().toISOString(),
    };
    await persist();
    return { key: c.key, file: c.file, outcome, url };
  }
  if (c.optional && blocked.length === 0) return { key: c.key, file: c.file, outcome: 'absent' };
  const why = [blocked.length ? `disallowed by robots.txt: ${blocked.join(' ')}` : '', missing.length ? `not found: ${missing.join(' ')}` : ''];
  throw new Error(why.filter(Boolean).join('; '));
}

function rowOf(e: StateEntry): Record<string, string> {
  return {
    file: e.file, meeting_date: e.meeting_date, kind: e.kind, pages: String(e.pages), bytes: String(e.bytes),
    sha256: e.sha256, official_url: e.official_url, archive_url: e.archive_url,
  };
}

/** Calls of `fn` run one after another, never overlapping (atomic writes of the same files). */
function serial(fn: () => Promise<void>): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return () => (last = last.catch(() => {}).then(fn));
}
