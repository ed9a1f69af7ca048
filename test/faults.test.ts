// Faults: a broken new release is refused while the old one keeps serving; a pipeline killed anywhere leaves the
// current release intact; an unwritable or full lake gives a clear error; SIGTERM drains requests in flight.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm, truncate, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildRelease } from '../pipelines/build.ts';
import { pointCurrent } from '../pipelines/publish/release.ts';
import { Release } from '../src/lake/release.ts';
import { start } from '../src/server.ts';
import { makeCorpus } from './corpora.ts';
import { get, ROOT, testConfig } from './fixture.ts';

const cacheDir = join(ROOT, '.cache', 'extract');
const settings = { poolSize: 1, queueLimit: 8, queryTimeoutMs: 10000 };

const small = await makeCorpus(['bag110116_minutes.pdf', 'bag111516_agenda.pdf']);
const other = await makeCorpus(['bag110116_minutes.pdf', 'bag112916_agenda.pdf']);

t.test('a new release with a broken file is refused; the previous one keeps serving and health says why', async (t) => {
  const breakages: [string, (file: string) => Promise<void>, RegExp][] = [
    ['missing', (f) => rm(f), /is missing/],
    ['truncated', (f) => truncate(f, 100), /has 100 bytes/],
    ['one byte changed', async (f) => {
      const bytes = await readFile(f);
      bytes[Math.floor(bytes.length / 2)] ^= 0xff;
      await writeFile(f, bytes);
    }, /does not match its sha256/],
  ];
  for (const [name, breakIt, reason] of breakages) {
    const lake = await mkdtemp(join(tmpdir(), 'lake-'));
    const first = await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
    const running = await start(testConfig({ lakeDir: lake }));
    const second = await buildRelease({ corpus: other, lake, cacheDir, quiet: true, makeCurrent: false });
    await breakIt(join(second.dir, 'pages', 'year=2016', 'data_0.parquet'));
    await pointCurrent(lake, second.releaseId);
    await running.lake.check();
    const health = await get(`${running.url}/api/health`);
    t.equal(health.json.release, first.releaseId, `${name}: still serving the previous release`);
    t.equal(health.json.status, 'degraded');
    t.match(health.json.refusedReleases[0].reason, reason, `${name}: ${health.json.refusedReleases[0].reason}`);
    const quality = await get(`${running.url}/api/quality`);
    t.equal(quality.json.release, first.releaseId);
    t.match(quality.json.refusedReleases[0], { release: second.releaseId, reason }, `${name}: the quality report says why`);
    const search = await get(`${running.url}/api/search?q=Cuomo`);
    t.equal(search.status, 200);
    t.equal(search.headers.get('x-release-id'), first.releaseId);
    await running.close();
    await t.rejects(Release.open(second.dir, settings), { message: reason }, `${name}: opening it directly refuses too`);
  }
});

t.test('a pipeline killed at any point leaves the current release intact, and the next run succeeds', async (t) => {
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  const first = await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
  const delays = [30, 300, 700, 1200, 1700, 2200, 2800, 3500];
  for (const ms of delays) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/build.ts'], { cwd: ROOT, env: { ...process.env, CORPUS: other, LAKE: lake }, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    setTimeout(() => child.kill('SIGKILL'), ms);
    await exited;
    const current = (await readlink(join(lake, 'current'))).replace('releases/', '');
    const release = await Release.open(join(lake, 'releases', current), settings); // verifies every file against the manifest
    release.retire();
    t.ok(current === first.releaseId || existsSync(join(lake, 'releases', current, 'manifest.json')), `killed after ${ms} ms: current release ${current} opens and verifies`);
  }
  const done = await buildRelease({ corpus: other, lake, cacheDir, quiet: true });
  t.equal((await readlink(join(lake, 'current'))), join('releases', done.releaseId), 'the next run publishes');
  t.same((await readdir(lake)).filter((f) => f.startsWith('.staging')), [], 'stale staging directories of killed runs are removed');
});

t.test('an unwritable or full lake directory gives a clear error and publishes nothing', async (t) => {
  const run = (lake: string) => {
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'pipelines/build.ts'], { cwd: ROOT, env: { ...process.env, CORPUS: small, LAKE: lake }, stdio: 'pipe', encoding: 'utf8' });
      return '';
    } catch (e) {
      return String((e as { stderr: string }).stderr);
    }
  };
  t.match(run('/dev/null/lake'), /LAKE: cannot write the release under \/dev\/null\/lake: a path component is not a directory/);
  const tiny = await mkdtemp(join(tmpdir(), 'tiny-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', tiny], { stdio: 'ignore' });
  } catch {
    t.comment('cannot mount a small tmpfs here: full-disk case skipped');
    return;
  }
  try {
    const out = run(join(tiny, 'lake'));
    t.match(out, /LAKE: cannot write the release under .*: the disk is full/);
    t.match(out, /nothing was published/);
    t.notOk(existsSync(join(tiny, 'lake', 'current')));
    t.same((await readdir(join(tiny, 'lake'))).filter((f) => f.startsWith('.staging')), [], 'no staging left behind');
  } finally {
    execFileSync('umount', [tiny]);
  }
});

t.test('SIGTERM drains the requests in flight before the server exits', async (t) => {
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: { ...process.env, LAKE: lake, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve) => child.stderr.on('data', (d) => {
    stderr += d;
    const m = /at (http:\/\/[^/]+)\//.exec(stderr);
    if (m) resolve(m[1]);
  }));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // In flight for sure: responses whose headers have arrived and whose bodies are still to be read.
  const responses = await Promise.all(Array.from({ length: 8 }, () => fetch(`${url}/api/snapshots/recorded-positions?format=ndjson&limit=1000`)));
  child.kill('SIGTERM');
  const bodies = await Promise.all(responses.map((r) => r.text().then((text) => ({ status: r.status, lines: text.trim().split('\n').length, total: Number(r.headers.get('x-total-count')) }), () => ({ status: 0, lines: 0, total: -1 }))));
  t.ok(bodies.every((b) => b.status === 200 && b.lines === b.total), `every stream in flight finished whole (${bodies.map((b) => `${b.lines}/${b.total}`).join(' ')})`);
  t.equal(await exited, 0, 'clean exit');
  t.match(stderr, /SIGTERM, draining requests in flight/);
});
