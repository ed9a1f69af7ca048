// `make bench [SCALES=1,3,10] [ARGS=...]`: builds (or reuses) synthetic lakes, measures the pipeline, the HTTP API, the
// BM25 engine against SQLite FTS5, snapshots against DuckDB's own JSON export, memory and a mixed load, then prints a
// table and writes bench/results.json. Every ratio is against a reference measured on the same machine in the same run.
//   node --import tsx bench/run.ts [--scales 1,3,10] [--rebuild] [--load-seconds 60] [--load-tool wrk|node|auto]
//                                  [--iterations N] [--profile] [--smoke --meetings 4] [--out FILE] [--build-only]
//                                  [--snapshot-seconds 120] [--append] [--only search,engine,endpoints,snapshots,load,front]
//                                  [--front-seconds 20] [--replicas 2] [--no-libraries]
// --only measures just those sections (the rest are left out of the results); `front` is the skewed mix against one
// process with and without its answer cache and against REPLICAS processes behind nginx with and without its cache.
// --append keeps the other scales already in the results file (SCALE=10 measured in a later run than 1 and 3).
// --build-only generates the corpora and builds the lakes (timed, as a full run would) and stops: a later run reuses them.
// BENCH_SERVER_ARGS: node options for the measured server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (written at its stop).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { NGINX, startCluster } from '../deploy/cluster.ts';
import { buildInputKey } from '../pipelines/input-key.ts';
import { Release } from '../src/lake/release.ts';
import { interpret } from '../src/queries/interpret.ts';
import { rankPages } from '../src/queries/pages.ts';
import { ENTITIES, lineStarts } from '../src/queries/snapshots.ts';
import { Params } from '../src/queries/sql.ts';
import { yearRange } from '../src/queries/years.ts';
import { bm25 } from '../test/sql-bm25.ts';
import { type ExtractionSets, formatExtraction, measureExtraction } from './extraction.ts';
import { buildFts, type Fts, ftsSearch, readPages } from './fts5.ts';
import { formatJudged, type JudgedResult, runJudged } from './judged.ts';
import type { LoadResult } from './load.ts';
import { distinctMix } from './mix.ts';
import {
  deriveQueries,
  type QuerySet,
  SEARCH_CLASSES,
  type SearchClass,
  searchPath,
  type SearchQuery,
} from './queries.ts';
import { formatQuestions, type QuestionRun, runQuestions } from './questions.ts';
import { buildMiniSearch, buildOrama, libQuery, type RefBuild, type Reference } from './references.ts';
import { type Latency, round, summarize } from './stats.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface BenchOptions {
  scales: number[];
  /** Keep the other scales already in `out` (a long scale measured in a later run), replacing those measured again. */
  append: boolean;
  /** Tiny corpus (`--meetings`), few iterations, a short load with the Node load generator; checks code paths, not speed. */
  smoke: boolean;
  meetings?: number;
  work: string;
  corpusRoot: string;
  out: string | null;
  rebuild: boolean;
  loadSeconds: number;
  loadTool: 'wrk' | 'node' | 'auto';
  loadConnections: number;
  iterations: number;
  perClass: number;
  profile: boolean;
  /** Stop paging one snapshot entity after this long (the rate is then over the pages read; marked partial). */
  snapshotCapSeconds: number;
  /** The sections measured (SECTIONS, all by default). */
  only: Set<Section>;
  /** Seconds of skewed load per front configuration; processes behind nginx. */
  frontSeconds: number;
  replicas: number;
  /** MiniSearch and Orama beside FTS5 in the engine section (references.ts); `--no-libraries` leaves them out. */
  libraries: boolean;
  log: (line: string) => void;
}

export const SECTIONS = ['search', 'engine', 'endpoints', 'snapshots', 'load', 'front'] as const;
export type Section = (typeof SECTIONS)[number];

export function defaultOptions(over: Partial<BenchOptions> = {}): BenchOptions {
  return {
    only: new Set(SECTIONS),
    frontSeconds: 20,
    replicas: 2,
    libraries: true,
    scales: [1],
    append: false,
    smoke: false,
    work: join(ROOT, 'bench', 'work'),
    corpusRoot: join(ROOT, 'bench', 'corpus'),
    out: join(ROOT, 'bench', 'results.json'),
    rebuild: false,
    loadSeconds: 60,
    loadTool: 'auto',
    loadConnections: 32,
    iterations: 20,
    perClass: 5,
    profile: false,
    snapshotCapSeconds: 120,
    log: (l) => process.stderr.write(l + '\n'),
    ...over,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Corpus, reference extraction, release build

interface BuildRecord {
  key: string;
  releaseId: string;
  measuredAt: string;
  documents: number;
  pages: number;
  buildMs: number;
  buildPeakRssMb: number;
  pagesPerSec: number;
  pdftotext: { ms: number; pagesPerSec: number; processes: number };
  /** pipeline pages/s ÷ pdftotext pages/s (the build on its extraction threads, pdftotext one process at a time). */
  ratio: number;
}

function run(cmd: string, args: string[], opts: { cwd?: string } = {}): { ms: number; stdout: string } {
  const t = performance.now();
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr?.slice(-2000)}`);
  return { ms: performance.now() - t, stdout: r.stdout };
}

function ensureCorpus(o: BenchOptions, scale: number): { dir: string; generatedMs: number | null } {
  const dir = o.smoke ? join(o.work, 'smoke', 'corpus') : join(o.corpusRoot, `scale-${scale}`);
  if (existsSync(join(dir, 'MANIFEST.tsv')) && !o.smoke) return { dir, generatedMs: null };
  o.log(`corpus: generating SCALE=${scale}${o.meetings ? ` --meetings ${o.meetings}` : ''} into ${dir}`);
  const args = ['--import', 'tsx', 'pipelines/synthetic/cli.ts', '--scale', String(scale), '--dest', dir];
  if (o.meetings) args.push('--meetings', String(o.meetings));
  return { dir, generatedMs: run(process.execPath, args).ms };
}

function manifestPdfs(corpus: string): { file: string; pages: number }[] {
  const [head, ...lines] = readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const cols = head.split('\t');
  return lines.map((l) => {
    const f = l.split('\t');
    return { file: join(corpus, f[cols.indexOf('file')]), pages: Number(f[cols.indexOf('pages')]) };
  });
}

/** `pdftotext -layout` over every PDF of the corpus, one process at a time: the reference the build is held to. */
function pdftotext(corpus: string): { ms: number; pages: number } {
  const pdfs = manifestPdfs(corpus);
  const t = performance.now();
  for (const p of pdfs) {
    const r = spawnSync('pdftotext', ['-layout', p.file, '/dev/null'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`pdftotext failed on ${p.file}`);
  }
  return { ms: performance.now() - t, pages: pdfs.reduce((n, p) => n + p.pages, 0) };
}

async function ensureRelease(
  o: BenchOptions,
  scale: number,
  corpus: string,
): Promise<{ dir: string; build: BuildRecord; reused: boolean }> {
  const lake = o.smoke ? join(o.work, 'smoke', 'lake') : join(o.work, `lake-scale-${scale}`);
  const recordFile = join(lake, 'bench-build.json');
  const key = buildInputKey(corpus);
  if (!o.rebuild && !o.smoke && existsSync(recordFile)) {
    const rec = JSON.parse(readFileSync(recordFile, 'utf8')) as BuildRecord;
    const dir = join(lake, 'releases', rec.releaseId);
    if (rec.key === key && existsSync(join(dir, 'manifest.json'))) {
      o.log(`release: reusing ${rec.releaseId} (built ${rec.measuredAt}; --rebuild to measure again)`);
      return { dir, build: rec, reused: true };
    }
  }
  o.log(`pdftotext: extracting ${corpus} as the reference`);
  const ref = pdftotext(corpus);
  o.log(
    `pdftotext: ${ref.pages} pages in ${(ref.ms / 1000).toFixed(1)} s; building the release (pipeline, cold, no extract cache)`,
  );
  // A fresh lake: with an earlier release beside it the build also diffs against it (change log, vector reuse), which
  // is an incremental build's cost, not a cold one's (it raised the build's peak RSS from 1.7 to 2.6 GB at SCALE=1).
  rmSync(lake, { recursive: true, force: true });
  mkdirSync(lake, { recursive: true });
  const t = performance.now();
  const out = run(process.execPath, ['--import', 'tsx', 'bench/build-child.ts', corpus, lake]);
  const ms = performance.now() - t;
  const child = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as {
    releaseId: string;
    documents: number;
    pages: number;
    maxRssKb: number;
  };
  const pagesPerSec = child.pages / (ms / 1000);
  const refRate = ref.pages / (ref.ms / 1000);
  const build: BuildRecord = {
    key,
    releaseId: child.releaseId,
    measuredAt: new Date().toISOString(),
    documents: child.documents,
    pages: child.pages,
    buildMs: Math.round(ms),
    buildPeakRssMb: Math.round(child.maxRssKb / 1024),
    pagesPerSec: round(pagesPerSec, 1),
    pdftotext: { ms: Math.round(ref.ms), pagesPerSec: round(refRate, 1), processes: 1 },
    ratio: round(pagesPerSec / refRate, 3),
  };
  writeFileSync(recordFile, JSON.stringify(build, null, 2) + '\n');
  o.log(
    `release: ${child.releaseId}, ${child.pages} pages in ${(ms / 1000).toFixed(1)} s (${build.pagesPerSec} pages/s)`,
  );
  return { dir: join(lake, 'releases', child.releaseId), build, reused: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Server and HTTP client

interface Server {
  proc: ChildProcess;
  url: string;
  pid: number;
  lake: string;
}

/** A server process over `lake`; `answerCacheMb` 0 (the default): every request answered afresh. */
async function startServer(lake: string, contractChecks: boolean, answerCacheMb = 0): Promise<Server> {
  const proc = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', 'src/main.ts'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        LAKE: lake,
        PORT: '0',
        HOST: '127.0.0.1',
        WATCH_MS: '0',
        CONTRACT_CHECKS: contractChecks ? '1' : '0',
        ANSWER_CACHE_MB: String(answerCacheMb),
      },
    },
  );
  let err = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 600_000);
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = err.match(/at (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${err}`));
    });
  });
  return { proc, url, pid: proc.pid!, lake };
}

function procStatus(pid: number): { rssMb: number; peakRssMb: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(s.match(new RegExp(`${k}:\\s+(\\d+)`))?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

async function stopServer(s: Server): Promise<void> {
  if (s.proc.exitCode !== null) return;
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGTERM');
  const timer = setTimeout(() => s.proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

class Client {
  private agent: Agent;
  private u: URL;
  constructor(base: string, sockets: number) {
    this.u = new URL(base);
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }
  /** The whole body as bytes: decoding it is the caller's choice (the snapshot sweep only counts record ends). */
  get(
    path: string,
  ): Promise<{ status: number; ms: number; bytes: Buffer; headers: Record<string, string | string[] | undefined> }> {
    const t = performance.now();
    return new Promise((res, rej) => {
      const req = request({ host: this.u.hostname, port: this.u.port, path, agent: this.agent }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () =>
          res({
            status: r.statusCode ?? 0,
            ms: performance.now() - t,
            bytes: Buffer.concat(chunks),
            headers: r.headers,
          }),
        );
        r.on('error', rej);
      });
      req.on('error', rej);
      req.end();
    });
  }
  close() {
    this.agent.destroy();
  }
}

interface HttpLatency extends Latency {
  non2xx: number;
}

/** Runs every path `iterations` times (after one warm-up pass) with `concurrency` requests in flight. */
async function measure(
  client: Client,
  paths: string[],
  iterations: number,
  concurrency: number,
  failures: string[],
): Promise<HttpLatency> {
  for (const p of paths) await client.get(p);
  const queue = Array.from({ length: iterations }, () => paths).flat();
  const samples: number[] = [];
  let non2xx = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queue.length) {
        const path = queue[next++];
        const r = await client.get(path);
        samples.push(r.ms);
        if (r.status < 200 || r.status > 299) {
          non2xx++;
          if (failures.length < 20) failures.push(`${r.status} ${path}: ${r.bytes.toString('utf8', 0, 200)}`);
        }
      }
    }),
  );
  return { ...summarize(samples), non2xx };
}

// ---------------------------------------------------------------------------------------------------------------
// Engine: the server's own ranking function (rankPages: top 20 and the total, ranked in JavaScript from the postings
// store) against SQLite FTS5; `oursNoTotal` times bm25.ts's SQL top 20 alone, which the rest of the server still composes

/** A JavaScript library's measurement in one class (references.ts), against FTS5's top 20 for context. */
interface LibClass {
  latency: Latency;
  /** ours p50 ÷ this library's p50 (same machine, same run). */
  ratioP50: number;
  /** Mean over the class's queries of |top-20 library ∩ top-20 FTS5| ÷ the longer list. */
  overlapFts5: number;
}

interface EngineClass {
  ours: Latency;
  oursNoTotal: Latency;
  fts5: Latency;
  /** ours p50 ÷ FTS5 p50 (engine time, same machine, same run). */
  ratioP50: number;
  /** Mean over the class's queries of |top-20 ours ∩ top-20 FTS5| ÷ max(|ours|, |FTS5|). */
  overlap: number;
  /** MiniSearch and Orama (references.ts), timed in the same loop as ours and FTS5. */
  libraries?: Partial<Record<Reference['name'], LibClass>>;
  /** The fastest reference's p50 (FTS5, MiniSearch, Orama) and ours ÷ it. */
  fastest?: { name: string; p50: number; ratioP50: number };
  perQuery: {
    q: string;
    year?: number;
    kind?: string;
    oursHits: number;
    fts5Hits: number;
    overlap: number;
    libraries?: Record<string, { hits: number; overlapFts5: number }>;
  }[];
}

const overlapOf = (a: string[], b: string[]) =>
  a.length === 0 && b.length === 0 ? 1 : a.filter((id) => b.includes(id)).length / Math.max(a.length, b.length);

async function engineClass(
  release: Release,
  fts: Fts,
  qs: SearchQuery[],
  iterations: number,
  libs: Reference[] = [],
): Promise<EngineClass> {
  const ours: number[] = [];
  const oursNoTotal: number[] = [];
  const ftsT: number[] = [];
  const libT = libs.map(() => [] as number[]);
  const libOverlap = libs.map(() => [] as number[]);
  const perQuery: EngineClass['perQuery'] = [];
  for (const s of qs) {
    const range = yearRange({ year: s.year });
    const args = { q: s.q, kind: s.kind, limit: 20, ...range };
    const q = new Params();
    const m = await bm25(release, q, 'page', s.q, range, s.kind);
    const topSql = `SELECT doc_id AS id, score FROM (${m.sql}) ORDER BY score DESC, doc_id LIMIT 20`;
    // warm up both engines once, and take the lists for the overlap
    const a = (await rankPages(release, args)).ids.map((r) => r.id);
    await release.pool.rows(topSql, q);
    const b = ftsSearch(fts, s);
    const overlap = overlapOf(a, b);
    const lq = libQuery(s);
    const libraries: Record<string, { hits: number; overlapFts5: number }> = {};
    for (const [i, lib] of libs.entries()) {
      const l = await lib.search(lq);
      libOverlap[i].push(overlapOf(l, b));
      libraries[lib.name] = { hits: l.length, overlapFts5: round(overlapOf(l, b), 2) };
    }
    perQuery.push({
      q: s.q,
      ...(s.year ? { year: s.year, kind: s.kind } : {}),
      oursHits: a.length,
      fts5Hits: b.length,
      overlap: round(overlap, 2),
      ...(libs.length ? { libraries } : {}),
    });
    for (let i = 0; i < iterations; i++) {
      let t = performance.now();
      await rankPages(release, args);
      ours.push(performance.now() - t);
      t = performance.now();
      await release.pool.rows(topSql, q);
      oursNoTotal.push(performance.now() - t);
      t = performance.now();
      ftsSearch(fts, s);
      ftsT.push(performance.now() - t);
      for (const [j, lib] of libs.entries()) {
        t = performance.now();
        await lib.search(lq);
        libT[j].push(performance.now() - t);
      }
    }
  }
  const o = summarize(ours);
  const f = summarize(ftsT);
  const mean = (xs: number[]) => round(xs.reduce((n, x) => n + x, 0) / Math.max(1, xs.length), 2);
  const libraries: EngineClass['libraries'] = {};
  for (const [i, lib] of libs.entries()) {
    const latency = summarize(libT[i]);
    libraries[lib.name] = {
      latency,
      ratioP50: round(o.p50 / Math.max(latency.p50, 0.001), 2),
      overlapFts5: mean(libOverlap[i]),
    };
  }
  const refs = [
    { name: 'FTS5', p50: f.p50 },
    ...libs.map((l) => ({ name: l.name, p50: libraries[l.name]!.latency.p50 })),
  ];
  const best = refs.reduce((a, b) => (b.p50 < a.p50 ? b : a));
  return {
    ours: o,
    oursNoTotal: summarize(oursNoTotal),
    fts5: f,
    ratioP50: round(o.p50 / Math.max(f.p50, 0.001), 2),
    overlap: round(perQuery.reduce((n, q) => n + q.overlap, 0) / Math.max(1, perQuery.length), 2),
    ...(libs.length ? { libraries, fastest: { ...best, ratioP50: round(o.p50 / Math.max(best.p50, 0.001), 2) } } : {}),
    perQuery,
  };
}

async function explain(release: Release, set: QuerySet, file: string): Promise<void> {
  const out: string[] = [];
  for (const cls of SEARCH_CLASSES) {
    const s = set.search[cls][0];
    if (!s) continue;
    const range = yearRange({ year: s.year });
    const q = new Params();
    const m = await bm25(release, q, 'page', s.q, range, s.kind);
    const sql = `SELECT doc_id AS id, score, (count(*) OVER ())::INTEGER AS total FROM (${m.sql}) ORDER BY score DESC, doc_id LIMIT 20`;
    await release.pool.rows(sql, q);
    const rows = await release.pool.rows(`EXPLAIN ANALYZE ${sql}`, q);
    out.push(`-- ${cls}: ${JSON.stringify(s)}\n${rows.map((r) => String(r.explain_value)).join('\n')}\n`);
  }
  writeFileSync(file, out.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------------
// Snapshots: NDJSON over HTTP against DuckDB's COPY ... (FORMAT json) of the same rows

interface SnapshotResult {
  entity: string;
  records: number;
  ms: number;
  recordsPerSec: number;
  pages: number;
  partial: boolean;
  copyRows: number;
  copyMs: number;
  copyRowsPerSec: number;
  ratio: number;
  firstPageMs: number;
  lastPageMs: number;
}

/** One entity paged over HTTP, then the reference: COPY of exactly the rows and columns the endpoint serves (its ENTITIES). */
async function snapshot(
  client: Client,
  release: Release,
  e: (typeof ENTITIES)[number],
  work: string,
  capMs: number,
): Promise<SnapshotResult> {
  let cursor: string | null = '0';
  let records = 0;
  let pages = 0;
  const pageMs: number[] = [];
  const t = performance.now();
  while (cursor !== null && performance.now() - t < capMs) {
    const r = await client.get(
      `/api/snapshots/${e.name}?format=ndjson&limit=1000&cursor=${encodeURIComponent(cursor)}`,
    );
    if (r.status !== 200)
      throw new Error(`snapshot ${e.name} cursor ${cursor}: ${r.status} ${r.bytes.toString('utf8', 0, 200)}`);
    pageMs.push(r.ms);
    // Counted on the bytes, not split into strings: COPY, the reference, pays nothing to consume its output, and the
    // client shares the server's two cores.
    records += lineStarts(r.bytes).length - 1;
    pages++;
    const next = r.headers['x-next-cursor'];
    cursor = typeof next === 'string' && next !== '' ? next : null;
  }
  const ms = performance.now() - t;
  const select = `SELECT ${e.columns(release)} FROM "${e.table}" t ${e.joins?.(release) ?? ''} ORDER BY t."${e.key}"`;
  const out = join(work, `copy-${e.name}.json`);
  const { copyMs, copyRows } = await release.pool.with(async (c) => {
    await c.run(`SELECT count(*) FROM "${e.table}"`); // the same warm file cache the server had
    const tc = performance.now();
    const res = await c.run(`COPY (${select}) TO '${out.replace(/'/g, "''")}' (FORMAT json)`);
    return { copyMs: performance.now() - tc, copyRows: Number(res.rowsChanged) };
  });
  const rps = records / (ms / 1000);
  const cps = copyRows / (copyMs / 1000);
  return {
    entity: e.name,
    records,
    ms: Math.round(ms),
    recordsPerSec: Math.round(rps),
    pages,
    partial: cursor !== null,
    copyRows,
    copyMs: Math.round(copyMs),
    copyRowsPerSec: Math.round(cps),
    ratio: round(rps / cps, 3),
    firstPageMs: round(pageMs[0] ?? NaN),
    lastPageMs: round(pageMs.at(-1) ?? NaN),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Load: a separate process (wrk, or bench/load.ts) against the loopback server

function haveWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

function load(o: BenchOptions, url: string, paths: string[], work: string): LoadResult & { note?: string } {
  const pathsJson = join(work, 'load-paths.json');
  const pathsTxt = join(work, 'load-paths.txt');
  writeFileSync(pathsJson, JSON.stringify(paths));
  writeFileSync(pathsTxt, paths.join('\n') + '\n');
  const tool = o.loadTool === 'auto' ? (haveWrk() ? 'wrk' : 'node') : o.loadTool;
  if (tool === 'wrk') {
    const threads = Math.min(2, cpus().length);
    const r = spawnSync(
      'wrk',
      [
        '-t',
        String(threads),
        '-c',
        String(o.loadConnections),
        '-d',
        `${o.loadSeconds}s`,
        '--timeout',
        '10s',
        '-s',
        join(ROOT, 'bench', 'wrk.lua'),
        url,
      ],
      { encoding: 'utf8', env: { ...process.env, WRK_PATHS: pathsTxt }, maxBuffer: 1 << 24 },
    );
    if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
    const j = JSON.parse(
      r.stdout
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1)!,
    );
    const seconds = j.durationUs / 1e6;
    const errors = j.errConnect + j.errRead + j.errWrite + j.errTimeout;
    return {
      tool: `wrk -t${threads}`,
      connections: o.loadConnections,
      seconds: round(seconds, 1),
      requests: j.requests,
      rps: Math.round(j.requests / seconds),
      p50: round(j.p50us / 1000),
      p99: round(j.p99us / 1000),
      max: round(j.maxUs / 1000),
      non2xx: j.errStatus,
      errors,
      statuses: {},
      note: 'wrk counts responses with status >= 400 as non-2xx (no 3xx is expected: no conditional requests are sent)',
    };
  }
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/load.ts', url, pathsJson, String(o.loadConnections), String(o.loadSeconds)],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`bench/load.ts failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as LoadResult;
}

/**
 * A skewed mix over the mixed load's distinct paths: the path of rank k (in a fixed shuffled order) is asked about
 * 1/(k+1) as often as the first, as a real audience asks a few questions often and most rarely (Zipf, s = 1).
 */
export function skewedMix(paths: string[], copies = 64): string[] {
  let seed = 1;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const ranked = [...paths].sort(() => random() - 0.5);
  const mix = ranked.flatMap((p, k) => Array<string>(Math.max(1, Math.round(copies / (k + 1)))).fill(p));
  return mix.sort(() => random() - 0.5);
}

/**
 * A freshly started server or cluster, asked the paths for a few seconds unmeasured first. Its per-release tables
 * (positions, vectors) were read before it listened; this warms the rest (compiled code, file pages, memos).
 */
function warmed(o: BenchOptions, url: string, paths: string[], work: string): string {
  load({ ...o, loadSeconds: o.smoke ? 1 : 5 }, url, paths, work);
  return url;
}

/** The skewed mix against one process (answer cache off, then on) and against replicas behind nginx (its cache off, then on). */
async function measureFront(
  o: BenchOptions,
  server: Server,
  paths: string[],
  work: string,
): Promise<Record<string, LoadResult>> {
  const mix = skewedMix(paths);
  const run = (url: string) => load({ ...o, loadSeconds: o.frontSeconds }, url, mix, work);
  const out: Record<string, LoadResult> = {};
  o.log(`front: ${o.frontSeconds} s each over a skewed mix of ${paths.length} paths (${mix.length} requests a round)`);
  out['1 process, answer cache off'] = run(server.url);
  const cached = await startServer(server.lake, false, 64);
  try {
    out['1 process, answer cache on'] = run(warmed(o, cached.url, paths, work));
  } finally {
    await stopServer(cached);
  }
  if (!existsSync(NGINX)) return out;
  for (const cache of [false, true]) {
    const cluster = await startCluster({
      lake: server.lake,
      replicas: o.replicas,
      host: '127.0.0.1',
      port: 0,
      cache,
      answerCacheMb: cache ? 64 : 0,
      nginxWorkers: 1,
      logsTo: join(work, 'cluster-logs', `front-caches-${cache ? 'on' : 'off'}`),
    });
    try {
      out[`${o.replicas} processes behind nginx, caches ${cache ? 'on' : 'off'}`] = run(
        warmed(o, cluster.url, paths, work),
      );
    } finally {
      await cluster.close();
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// One scale

export interface ScaleResult {
  scale: number;
  meetings: number | null;
  corpus: { dir: string; documents: number; pages: number; generatedMs: number | null };
  release: { id: string; dir: string; reused: boolean; bytes: number };
  pipeline: BuildRecord;
  queries: QuerySet;
  search: Record<SearchClass, { c1: HttpLatency; c8: HttpLatency }>;
  engine: Record<SearchClass, EngineClass>;
  fts5Build: { pages: number; ms: number };
  /** MiniSearch and Orama over the same pages, built in this process: build ms (the Parquet read apart) and heap retained. */
  libraryBuilds?: Partial<Record<Reference['name'], RefBuild>>;
  endpoints: Record<string, HttpLatency & { path: string }>;
  snapshots: SnapshotResult[];
  load: (LoadResult & { note?: string }) | null;
  /** The mixed load with no path asked twice (bench/mix.ts), caching off: one process, then replicas behind nginx. */
  spread: ({ paths: number } & Record<string, number | (LoadResult & { note?: string })>) | null;
  /** The skewed mix per front configuration (one process, answer cache off/on; replicas behind nginx, cache off/on). */
  front: Record<string, LoadResult & { note?: string }> | null;
  server: { rssAfterStartMb: number; peakRssMb: number };
  missing: string[];
  failures: string[];
  /** 1-minute load average when the scale started and ended: other work on the machine skews every number. */
  loadavg: { start: number; end: number };
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    n += s.isDirectory() ? dirBytes(p) : s.size;
  }
  return n;
}

async function benchScale(o: BenchOptions, scale: number): Promise<ScaleResult> {
  const loadStart = round(loadavg()[0]);
  const work = o.smoke ? join(o.work, 'smoke') : join(o.work, `scale-${scale}`);
  mkdirSync(work, { recursive: true });
  const corpus = ensureCorpus(o, scale);
  const rel = await ensureRelease(o, scale, corpus.dir);
  const lakeDir = dirname(dirname(rel.dir));
  const failures: string[] = [];
  const missing: string[] = [];

  // The smoke run validates every response against its schema (a violation is a 500, so a failure); timed runs do not.
  const server = await startServer(lakeDir, o.smoke);
  const rssAfterStartMb = procStatus(server.pid).rssMb;
  const client = new Client(server.url, 8);
  const release = await Release.open(realpathSync(rel.dir), { poolSize: 1, queueLimit: 8, queryTimeoutMs: 60_000 });
  try {
    o.log(`server: ${server.url} (pid ${server.pid}); deriving queries`);
    const set = await deriveQueries(release, o.perClass);
    if (o.profile) await explain(release, set, join(work, 'explain.txt'));
    const search = {} as ScaleResult['search'];
    for (const cls of o.only.has('search') ? SEARCH_CLASSES : []) {
      const paths = set.search[cls].map(searchPath);
      if (paths.length === 0) {
        missing.push(`search class '${cls}': no queries derived from this corpus`);
        continue;
      }
      search[cls] = {
        c1: await measure(client, paths, o.iterations, 1, failures),
        c8: await measure(client, paths, o.iterations, 8, failures),
      };
    }
    const engine = {} as ScaleResult['engine'];
    let fts5Build = { pages: 0, ms: 0 };
    let libraryBuilds: ScaleResult['libraryBuilds'];
    if (o.only.has('engine')) {
      const fts = await buildFts(rel.dir, join(work, 'fts5.sqlite'));
      fts5Build = { pages: fts.pages, ms: Math.round(fts.ms) };
      o.log(`fts5: ${fts.pages} pages indexed in ${(fts.ms / 1000).toFixed(1)} s`);
      const libs: Reference[] = [];
      if (o.libraries) {
        const pages = await readPages(rel.dir); // let go once the two indexes hold them
        libs.push(buildMiniSearch(pages));
        o.log(
          `minisearch: ${libs[0].build.pages} pages indexed in ${(libs[0].build.ms / 1000).toFixed(1)} s, heap ${libs[0].build.heapMb} MB`,
        );
        libs.push(await buildOrama(pages));
        o.log(
          `orama: ${libs[1].build.pages} pages indexed in ${(libs[1].build.ms / 1000).toFixed(1)} s, heap ${libs[1].build.heapMb} MB`,
        );
        libraryBuilds = Object.fromEntries(libs.map((l) => [l.name, l.build]));
      }
      o.log(`engine: our BM25 against SQLite FTS5${libs.length ? ', MiniSearch and Orama' : ''}`);
      for (const cls of SEARCH_CLASSES)
        if (set.search[cls].length)
          engine[cls] = await engineClass(release, fts.db, set.search[cls], o.iterations, libs);
      fts.db.close();
    }

    // Other endpoints: whatever the running server lists in its OpenAPI document.
    const openapi = JSON.parse((await client.get('/api/openapi.json')).bytes.toString('utf8')) as {
      paths: Record<string, unknown>;
    };
    const has = (p: string) => p in (openapi.paths ?? {});
    const voter = set.voters[0] ?? 'Peskin';
    const multi = set.search['common multi-term'][0]?.q ?? 'housing';
    const word = set.search['common term'][0]?.q ?? 'housing';
    // The topic question's subject: a common word the question parser keeps as its search words (it drops framing
    // words such as `board`, which would leave the question with no search at all).
    const topicOf = (w: string) => `What did the board decide about ${w}?`;
    const topic =
      set.search['common term']
        .map((s) => s.q)
        .find((w) => interpret(topicOf(w), []).interpretation.searchQuery.includes(w)) ?? 'housing';
    const year = set.years[0] ?? 2016;
    const cases: [string, string, string][] = [
      ['/api/pages/{id}', 'pages/{id}', `/api/pages/${set.pageIds[0]}`],
      ['/api/items', 'items', `/api/items?${new URLSearchParams({ q: multi })}`],
      ['/api/items', 'items groupBy=file', `/api/items?${new URLSearchParams({ q: multi, groupBy: 'file' })}`],
      ['/api/items', 'items voter+final', `/api/items?${new URLSearchParams({ q: word, voter, final: 'true' })}`],
      ['/api/comments', 'comments', `/api/comments?${new URLSearchParams({ q: word })}`],
      ['/api/aggregates/votes', 'aggregates/votes', `/api/aggregates/votes?${new URLSearchParams({ voter })}`],
      [
        '/api/aggregates/votes',
        'aggregates/votes final roll-call',
        `/api/aggregates/votes?${new URLSearchParams({ voter, final: 'true', groupBy: 'roll-call', from: String(year), to: String(year) })}`,
      ],
      ['/api/aggregates/housing', 'aggregates/housing', `/api/aggregates/housing?${new URLSearchParams({ voter })}`],
      [
        '/api/query',
        'query',
        `/api/query?${new URLSearchParams({ q: `How did ${voter} vote on housing in ${year}?` })}`,
      ],
      ['/api/query', 'query (topic)', `/api/query?${new URLSearchParams({ q: topicOf(topic) })}`],
    ];
    const endpoints: ScaleResult['endpoints'] = {};
    const served = cases.filter(([route]) => has(route));
    for (const [route] of cases) if (!has(route) && !missing.includes(route)) missing.push(route);
    for (const [, name, path] of o.only.has('endpoints') ? served : [])
      endpoints[name] = { path, ...(await measure(client, [path], o.iterations * 2, 1, failures)) };

    const snapshots: SnapshotResult[] = [];
    if (!o.only.has('snapshots')) {
      /* not measured */
    } else if (has('/api/snapshots/{entity}')) {
      o.log('snapshots: NDJSON vs DuckDB COPY (FORMAT json)');
      for (const e of ENTITIES) {
        try {
          snapshots.push(await snapshot(client, release, e, work, o.snapshotCapSeconds * 1000));
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    } else missing.push('/api/snapshots/{entity}');

    // The mixed load: half page search (every class), then records, items, comments and whatever else exists.
    const mix: string[] = [];
    for (const cls of SEARCH_CLASSES) for (const s of set.search[cls]) mix.push(searchPath(s));
    for (const id of set.pageIds.slice(0, 10)) mix.push(`/api/pages/${id}`);
    for (const [, , path] of served) if (!path.startsWith('/api/pages/')) mix.push(path, path);
    let loadResult: ScaleResult['load'] = null;
    let spread: ScaleResult['spread'] = null;
    if (o.only.has('load') && o.loadSeconds > 0) {
      o.log(`load: ${o.loadSeconds} s at ${o.loadConnections} connections over ${mix.length} paths`);
      loadResult = load(o, server.url, mix, work);
      // The same proportions, no path asked twice (as many paths as the fastest plausible run asks for).
      const distinct = await distinctMix(
        release,
        await deriveQueries(release, 60),
        has,
        Math.max(2000, o.loadSeconds * 1000),
      );
      o.log(
        `load: ${o.loadSeconds} s over ${distinct.length} distinct paths, one process, then ${o.replicas} behind nginx (caches off)`,
      );
      spread = { paths: distinct.length, '1 process': load(o, server.url, distinct, work) };
      if (existsSync(NGINX)) {
        const cluster = await startCluster({
          lake: server.lake,
          replicas: o.replicas,
          host: '127.0.0.1',
          port: 0,
          cache: false,
          answerCacheMb: 0,
          nginxWorkers: 1,
          logsTo: join(work, 'cluster-logs', 'distinct'),
        });
        // Warmed on the repeated mix: the measured paths stay unasked.
        try {
          spread[`${o.replicas} processes behind nginx`] = load(o, warmed(o, cluster.url, mix, work), distinct, work);
        } finally {
          await cluster.close();
        }
      }
    }
    const { peakRssMb } = procStatus(server.pid);
    const front = o.only.has('front') ? await measureFront(o, server, [...new Set(mix)], work) : null;

    const pdfs = manifestPdfs(corpus.dir);
    return {
      scale,
      meetings: o.meetings ?? null,
      corpus: {
        dir: corpus.dir,
        documents: pdfs.length,
        pages: pdfs.reduce((n, p) => n + p.pages, 0),
        generatedMs: corpus.generatedMs,
      },
      release: { id: release.id, dir: rel.dir, reused: rel.reused, bytes: dirBytes(rel.dir) },
      pipeline: rel.build,
      queries: set,
      search,
      engine,
      fts5Build,
      ...(libraryBuilds ? { libraryBuilds } : {}),
      endpoints,
      snapshots,
      load: loadResult,
      spread,
      front,
      server: { rssAfterStartMb, peakRssMb },
      missing,
      failures,
      loadavg: { start: loadStart, end: round(loadavg()[0]) },
    };
  } finally {
    release.retire();
    client.close();
    await stopServer(server);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

export interface BenchResults {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memGb: number; node: string };
  options: {
    scales: number[];
    smoke: boolean;
    meetings: number | null;
    iterations: number;
    loadSeconds: number;
    loadConnections: number;
  };
  scales: ScaleResult[];
  /** Retrieval quality on the real corpus (lexical against hybrid), not in smoke runs. */
  judged?: JudgedResult;
  /** The question set (bench/questions/) through /api/query and MCP ask over the real corpus, not in smoke runs. */
  questions?: QuestionRun;
  /** Entity extraction on the labelled titles (bench/extraction/), not in smoke runs. */
  extraction?: ExtractionSets;
  /** With `--append`: every run whose scales the file holds (the latest run's scales replace earlier ones). */
  runs?: { startedAt: string; scales: number[] }[];
}

const f = (x: number | undefined, d = 1) => (x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));

export function table(r: BenchResults): string {
  const out: string[] = [];
  const line = (...cells: string[]) => out.push(`| ${cells.join(' | ')} |`);
  for (const s of r.scales) {
    const p = s.pipeline;
    out.push(
      `\n## SCALE=${s.scale}${s.meetings ? ` (--meetings ${s.meetings})` : ''}: ${s.corpus.documents} PDFs, ${s.corpus.pages} pages, release ${s.release.id}${s.release.reused ? ` (reused; built ${p.measuredAt})` : ''}\n`,
    );
    line('pipeline', 'value', 'reference', 'ratio');
    line('---', '---:', '---:', '---:');
    line(
      'pages/s end to end (build time)',
      `${f(p.pagesPerSec)} (${f(p.buildMs / 1000)} s, peak RSS ${p.buildPeakRssMb} MB)`,
      `pdftotext -layout: ${f(p.pdftotext.pagesPerSec)} (${f(p.pdftotext.ms / 1000)} s)`,
      f(p.ratio, 3),
    );
    out.push('');
    line(
      '/api/search class',
      'c1 p50',
      'c1 p95',
      'c8 p50',
      'c8 p95',
      'engine ours p50',
      'FTS5 p50',
      'ours/FTS5',
      'SQL top-20 p50',
      'top-20 overlap',
    );
    line('---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:');
    for (const cls of SEARCH_CLASSES) {
      const h = s.search[cls];
      const e = s.engine[cls];
      if (!h && !e) continue; // a section left out by --only prints as —
      line(
        cls,
        f(h?.c1.p50),
        f(h?.c1.p95),
        f(h?.c8.p50),
        f(h?.c8.p95),
        f(e?.ours.p50, 2),
        f(e?.fts5.p50, 2),
        f(e?.ratioP50, 2),
        f(e?.oursNoTotal.p50, 2),
        f(e?.overlap, 2),
      );
    }
    if (Object.values(s.engine).some((e) => e?.libraries)) {
      out.push('');
      const lib = (e: EngineClass | undefined, n: Reference['name']) => e?.libraries?.[n];
      line(
        'engine p50 (ms)',
        'service',
        'FTS5',
        'MiniSearch',
        'Orama',
        'fastest reference',
        'service ÷ fastest',
        'overlap with FTS5: service · MiniSearch · Orama',
      );
      line('---', '---:', '---:', '---:', '---:', '---', '---:', '---:');
      for (const cls of SEARCH_CLASSES) {
        const e = s.engine[cls];
        if (!e?.libraries) continue;
        line(
          cls,
          f(e.ours.p50, 2),
          f(e.fts5.p50, 2),
          f(lib(e, 'MiniSearch')?.latency.p50, 2),
          f(lib(e, 'Orama')?.latency.p50, 2),
          e.fastest?.name ?? '—',
          f(e.fastest?.ratioP50, 2),
          `${f(e.overlap, 2)} · ${f(lib(e, 'MiniSearch')?.overlapFts5, 2)} · ${f(lib(e, 'Orama')?.overlapFts5, 2)}`,
        );
      }
      for (const [name, b] of Object.entries(s.libraryBuilds ?? {}))
        out.push(`${name}: ${b.pages} pages indexed in ${f(b.ms / 1000)} s in process, heap retained ${b.heapMb} MB`);
    }
    out.push('');
    line('endpoint (c1, ms)', 'p50', 'p95', 'non-2xx');
    line('---', '---:', '---:', '---:');
    for (const [name, e] of Object.entries(s.endpoints)) line(name, f(e.p50), f(e.p95), String(e.non2xx));
    if (s.snapshots.length) {
      out.push('');
      line(
        'snapshot (NDJSON, limit=1000 pages)',
        'records',
        'records/s',
        'DuckDB COPY json rows/s',
        'ratio',
        'first → last page ms',
      );
      line('---', '---:', '---:', '---:', '---:', '---:');
      for (const n of s.snapshots)
        line(
          n.entity,
          `${n.records}${n.partial ? ` of ${n.copyRows} (stopped after ${f(n.ms / 1000)} s)` : ''}`,
          String(n.recordsPerSec),
          String(n.copyRowsPerSec),
          f(n.ratio, 3),
          `${f(n.firstPageMs)} → ${f(n.lastPageMs)}`,
        );
    }
    out.push('');
    for (const [name, l] of Object.entries(s.front ?? {}))
      out.push(
        `front, skewed mix (${l.connections} connections, ${l.seconds} s), ${name}: ${l.rps} req/s, p50 ${f(l.p50)} ms, p99 ${f(l.p99)} ms, non-2xx ${l.non2xx}, errors ${l.errors}`,
      );
    for (const [name, l] of Object.entries(s.spread ?? {}))
      if (typeof l === 'object')
        out.push(
          `load, mixed, no path twice (${s.spread!.paths} paths, ${l.connections} connections, ${l.seconds} s), ${name}, caching off: ${l.rps} req/s, p50 ${f(l.p50)} ms, p99 ${f(l.p99)} ms, non-2xx ${l.non2xx}, errors ${l.errors}`,
        );
    if (s.load)
      out.push(
        `load (${s.load.tool}, ${s.load.connections} connections, ${s.load.seconds} s, mixed): ${s.load.rps} req/s, p50 ${f(s.load.p50)} ms, p99 ${f(s.load.p99)} ms, non-2xx ${s.load.non2xx}, errors ${s.load.errors}`,
      );
    out.push(
      `server RSS: ${s.server.rssAfterStartMb} MB after start, peak ${s.server.peakRssMb} MB; release ${(s.release.bytes / 2 ** 20).toFixed(1)} MB on disk; FTS5 index built in ${f(s.fts5Build.ms / 1000)} s`,
    );
    out.push(
      `machine load average (1 min): ${s.loadavg.start} at start, ${s.loadavg.end} at end (${r.machine.cpus} CPUs)`,
    );
    if (s.missing.length) out.push(`not measured (not in this build): ${s.missing.join(', ')}`);
    if (s.failures.length) out.push(`FAILURES:\n  ${s.failures.join('\n  ')}`);
  }
  if (r.scales.length > 1) {
    out.push('\n## growth\n');
    line(
      'SCALE',
      'pages',
      'build s',
      'pages/s',
      'build peak RSS MB',
      'server peak RSS MB',
      'search c1 p50 (common multi-term)',
      'load req/s',
    );
    line('---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:');
    for (const s of r.scales)
      line(
        String(s.scale),
        String(s.corpus.pages),
        f(s.pipeline.buildMs / 1000),
        f(s.pipeline.pagesPerSec),
        String(s.pipeline.buildPeakRssMb),
        String(s.server.peakRssMb),
        f(s.search['common multi-term']?.c1.p50),
        String(s.load?.rps ?? '—'),
      );
  }
  if (r.extraction) out.push(`\n## entity extraction (labelled titles)\n\n${formatExtraction(r.extraction)}`);
  if (r.judged) out.push(`\n## judged relevance (real corpus)\n\n${formatJudged(r.judged)}`);
  if (r.questions) out.push(`\n## questions (real corpus)\n\n${formatQuestions(r.questions)}`);
  return out.join('\n');
}

export async function runBench(o: BenchOptions): Promise<BenchResults> {
  const results: BenchResults = {
    startedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? '',
      memGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    options: {
      scales: o.scales,
      smoke: o.smoke,
      meetings: o.meetings ?? null,
      iterations: o.iterations,
      loadSeconds: o.loadSeconds,
      loadConnections: o.loadConnections,
    },
    scales: [],
  };
  const earlier =
    o.append && o.out && existsSync(o.out) ? (JSON.parse(readFileSync(o.out, 'utf8')) as BenchResults) : null;
  if (earlier) {
    results.scales = earlier.scales.filter((s) => !o.scales.includes(s.scale));
    const before = (earlier.runs ?? [{ startedAt: earlier.startedAt, scales: earlier.options.scales }])
      .map((r) => ({ ...r, scales: r.scales.filter((s) => !o.scales.includes(s)) }))
      .filter((r) => r.scales.length > 0);
    results.runs = [...before, { startedAt: results.startedAt, scales: o.scales }];
  }
  for (const scale of o.scales) {
    results.scales.push(await benchScale(o, scale));
    results.scales.sort((a, b) => a.scale - b.scale);
    if (o.out) writeFileSync(o.out, JSON.stringify(results, null, 2) + '\n');
  }
  if (!o.smoke) {
    results.extraction = measureExtraction();
    // Retrieval quality on the real corpus: the judged set per kind, lexical and hybrid through a real server, and FTS5.
    results.judged = await runJudged();
    results.questions = await runQuestions();
    if (o.out) writeFileSync(o.out, JSON.stringify(results, null, 2) + '\n');
  }
  return results;
}

if (process.argv[1]?.endsWith('bench/run.ts')) {
  const { values } = parseArgs({
    options: {
      scales: { type: 'string', default: process.env.SCALES || '1' },
      smoke: { type: 'boolean', default: false },
      meetings: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      'load-seconds': { type: 'string' },
      'load-tool': { type: 'string', default: 'auto' },
      iterations: { type: 'string' },
      profile: { type: 'boolean', default: false },
      out: { type: 'string' },
      'build-only': { type: 'boolean', default: false },
      append: { type: 'boolean', default: false },
      'snapshot-seconds': { type: 'string' },
      only: { type: 'string' },
      'front-seconds': { type: 'string' },
      replicas: { type: 'string' },
      'no-libraries': { type: 'boolean', default: false },
    },
  });
  const smoke = values.smoke;
  const o = defaultOptions({
    scales: values.scales.split(',').map(Number),
    append: values.append,
    smoke,
    meetings: values.meetings ? Number(values.meetings) : smoke ? 4 : undefined,
    rebuild: values.rebuild,
    loadSeconds: Number(values['load-seconds'] ?? (smoke ? 2 : 60)),
    loadTool: values['load-tool'] as BenchOptions['loadTool'],
    iterations: Number(values.iterations ?? (smoke ? 2 : 20)),
    profile: values.profile,
    ...(values['snapshot-seconds'] ? { snapshotCapSeconds: Number(values['snapshot-seconds']) } : {}),
    ...(values.only ? { only: new Set(values.only.split(',') as Section[]) } : {}),
    frontSeconds: Number(values['front-seconds'] ?? (smoke ? 2 : 20)),
    replicas: Number(values.replicas ?? 2),
    libraries: !values['no-libraries'],
    out:
      values.out ??
      (smoke ? join(ROOT, 'bench', 'work', 'smoke', 'results.json') : join(ROOT, 'bench', 'results.json')),
  });
  if (o.scales.some((s) => !(s > 0))) throw new Error(`--scales: positive numbers, got '${values.scales}'`);
  if (smoke) o.scales = [1];
  if (values['build-only']) {
    for (const scale of o.scales) await ensureRelease(o, scale, ensureCorpus(o, scale).dir);
    process.exit(0);
  }
  const results = await runBench(o);
  process.stdout.write(table(results) + '\n');
  const bad = results.scales.some((s) => s.failures.length || (s.load && (s.load.non2xx || s.load.errors)));
  process.exit(bad ? 1 : 0);
}
