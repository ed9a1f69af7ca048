// `make soak`: the service held under load from a separate process. Phase 1: LOAD_SECONDS (60) of mixed endpoints at
// 32 connections with a release switch in the middle (zero failed requests allowed). Phase 2: SOAK_SECONDS (600) at
// 8 connections while the server's resident memory is sampled every 5 s; drift = the last minute's mean RSS against
// the second minute's (must stay under 10%). Writes bench/soak-results.json, with every sample.
//
// The samples start after a warm-up: WARM_SECONDS (180) of the same load on the release being soaked. Phase 1 serves
// the new release for only its last half and then the old release closes, so without it the baseline minute caught
// RSS still climbing to its plateau (the 12.2% once measured, 308 → 346 MiB). It is warm-up, not a leak: 25 minutes
// at 8 connections on one release held RSS at 328–341 MiB (2.5-minute means; single samples swing ±20 MiB), the JS
// heap at 42–45 MiB and DuckDB's buffer manager at 9–14 MiB throughout; and a soak warmed by only three sequential
// passes over PATHS rose 322 → 348 MiB over its first four minutes, then stayed at 340–351 MiB for the last six
// (per-minute means). The plateau needs concurrent load to reach, hence a warm-up under the soak's own load.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { buildRelease } from '../pipelines/build.ts';
import { currentReleaseId, pointCurrent } from '../pipelines/publish/release.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CORPUS = resolve(process.env.CORPUS || join(ROOT, '..', 'shared', 'corpus'));
const loadSeconds = Number(process.env.LOAD_SECONDS || 60);
const soakSeconds = Number(process.env.SOAK_SECONDS || 600);
const warmSeconds = Number(process.env.WARM_SECONDS || 180);

const PATHS = [
  '/api/search?q=housing',
  '/api/search?q=Better%20Roof%20Requirements&kind=minutes',
  '/api/search?q=%22living%20roofs%22',
  '/api/search?q=160965',
  '/api/search?q=budget&year=2017&kind=agenda',
  '/api/items?q=Transbay%20Block%208&groupBy=file',
  '/api/items?q=resolution&voter=Wiener&position=no',
  '/api/comments?q=Falun%20Gong',
  '/api/aggregates/votes?voter=Peskin',
  '/api/aggregates/housing?voter=Kim',
  '/api/query?q=How%20did%20Wiener%20vote%20on%20housing%20in%202016',
  '/api/pages/2016-11-01-minutes-p4',
  '/api/items/2016-11-01-minutes-161169',
  '/api/snapshots/supervisors?format=ndjson',
  '/api/changes?limit=50',
  '/api/health',
  '/?q=Cuomo&supervisor=Wiener',
];

/** A lake of its own with two releases: the served one, and one from a changed corpus to switch to under load. */
async function twoReleases(): Promise<{ lake: string; first: string; second: string }> {
  const lake = await mkdtemp(join(tmpdir(), 'soak-lake-'));
  const cacheDir = join(ROOT, '.cache', 'extract');
  const first = await buildRelease({ corpus: CORPUS, lake, cacheDir, quiet: true });
  const changed = await mkdtemp(join(tmpdir(), 'soak-corpus-'));
  await cp(CORPUS, changed, { recursive: true });
  const manifest = (await readFile(join(changed, 'MANIFEST.tsv'), 'utf8')).trim().split('\n');
  await writeFile(join(changed, 'MANIFEST.tsv'), manifest.slice(0, -1).join('\n') + '\n'); // one document fewer
  const second = await buildRelease({ corpus: changed, lake, cacheDir, quiet: true, makeCurrent: false });
  await pointCurrent(lake, first.releaseId);
  return { lake, first: first.releaseId, second: second.releaseId };
}

function startServer(lake: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, LAKE: lake, PORT: '0', WATCH_MS: '500' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  return new Promise((ok) =>
    child.stderr.on('data', (d) => {
      err += d;
      const m = /at (http:\/\/[^/]+)\//.exec(err);
      if (m) ok({ url: m[1], pid: child.pid!, stop: () => child.kill('SIGTERM') });
    }),
  );
}

const rssMiB = async (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

function load(url: string, connections: number, seconds: number): Promise<Record<string, number>> {
  return new Promise((ok) => {
    const pathsFile = join(tmpdir(), `soak-paths-${process.pid}.json`);
    void writeFile(pathsFile, JSON.stringify(PATHS)).then(() => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'bench/load.ts', url, pathsFile, String(connections), String(seconds)],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('close', () => ok(JSON.parse(out.trim().split('\n').pop()!)));
    });
  });
}

const { lake, first, second } = await twoReleases();
const server = await startServer(lake);
console.error(`soak: server ${server.url} (pid ${server.pid}) on release ${first}; switching to ${second} mid-load`);

// Phase 1: the 60-second load with a switch in the middle.
const loading = load(server.url, 32, loadSeconds);
await new Promise((r) => setTimeout(r, (loadSeconds * 1000) / 2));
await pointCurrent(lake, second);
process.kill(server.pid, 'SIGHUP');
const switchLoad = await loading;
const switched = (await (await fetch(`${server.url}/api/health`)).json()) as { release: string };

// Phase 2: warm-up, then the soak, sampling resident memory.
const warmLoad = await load(server.url, 8, warmSeconds);
const samples: { t: number; rss: number }[] = [];
const started = Date.now();
const sampler = setInterval(
  () => void rssMiB(server.pid).then((rss) => samples.push({ t: (Date.now() - started) / 1000, rss })),
  5000,
);
const soakLoad = await load(server.url, 8, soakSeconds);
clearInterval(sampler);
server.stop();

const window = Math.min(60, soakSeconds / 4);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const early = mean(samples.filter((s) => s.t >= window && s.t < 2 * window).map((s) => s.rss));
const late = mean(samples.filter((s) => s.t >= soakSeconds - window).map((s) => s.rss));
const drift = early ? (late - early) / early : 0;
const results = {
  machine: { cores: (await import('node:os')).cpus().length, node: process.version },
  load: {
    ...switchLoad,
    releaseSwitch: { from: first, to: second, servedAfter: switched.release, ok: switched.release === second },
  },
  soak: {
    ...soakLoad,
    warmUp: {
      seconds: warmLoad.seconds,
      requests: warmLoad.requests,
      non2xx: warmLoad.non2xx,
      errors: warmLoad.errors,
    },
    rssMiB: {
      early: Math.round(early),
      late: Math.round(late),
      peak: Math.round(Math.max(...samples.map((s) => s.rss))),
    },
    drift: Math.round(drift * 1000) / 1000,
    samples: samples.map((s) => [Math.round(s.t), Math.round(s.rss)]),
  },
  currentAtEnd: await currentReleaseId(lake),
};
await writeFile(join(ROOT, 'bench', 'soak-results.json'), JSON.stringify(results, null, 2) + '\n');
console.log(
  `load: ${switchLoad.rps} req/s at 32 connections for ${switchLoad.seconds} s, p99 ${switchLoad.p99} ms, non-2xx ${switchLoad.non2xx}, errors ${switchLoad.errors}; release switch ${first} → ${switched.release} ${results.load.releaseSwitch.ok ? 'ok' : 'FAILED'}`,
);
console.log(
  `soak: ${soakLoad.rps} req/s at 8 connections for ${soakLoad.seconds} s, p99 ${soakLoad.p99} ms, non-2xx ${soakLoad.non2xx}, errors ${soakLoad.errors}; RSS ${results.soak.rssMiB.early} → ${results.soak.rssMiB.late} MiB (drift ${(drift * 100).toFixed(1)}%, peak ${results.soak.rssMiB.peak} MiB)`,
);
const failed =
  switchLoad.non2xx + switchLoad.errors + warmLoad.non2xx + warmLoad.errors + soakLoad.non2xx + soakLoad.errors > 0 ||
  !results.load.releaseSwitch.ok ||
  drift >= 0.1;
process.exit(failed ? 1 : 0);
