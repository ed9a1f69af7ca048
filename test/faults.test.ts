// Faults: a broken new release is refused while the old one keeps serving; a pipeline killed anywhere leaves the
// current release intact; an unwritable or full lake gives a clear error; SIGTERM drains requests in flight.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import t from 'tap';

import { sha256Of } from '../core/lake/format.ts';
import { buildRelease } from '../pipelines/build.ts';
import { pointCurrent } from '../pipelines/publish/release.ts';
import { Release } from '../src/lake/release.ts';
import { start } from '../src/server.ts';
import { makeCorpus } from './corpora.ts';
import type { Json } from './fixture.ts';
import { get, ROOT, serveProcess, testConfig } from './fixture.ts';

const cacheDir = join(ROOT, '.cache', 'extract');
const settings = { poolSize: 1, queueLimit: 8, queryTimeoutMs: 10000 };

const small = await makeCorpus(['bag110116_minutes.pdf', 'bag111516_agenda.pdf']);
const other = await makeCorpus(['bag110116_minutes.pdf', 'bag112916_agenda.pdf']);

/** Edits a release's manifest.json in place. */
async function editManifest(dir: string, edit: (m: Json) => void): Promise<void> {
  const m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  edit(m);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(m, null, 2));
}

/** The manifest entry of a release file. */
const entryOf = (m: Json, path: string) =>
  Object.values<Json>(m.tables)
    .flatMap((t) => t.files)
    .find((f: Json) => f.path === path);

const PAGES = 'pages/year=2016/data_0.parquet';

/** What a refusal reason must never show: a server path or SQL. */
const LEAKS = /\/tmp\/|\/work\/|lake-\w{6}|SELECT|read_parquet|parquet_file_metadata|LINE \d/;

t.test(
  "a new release with a broken file is refused; the previous one keeps serving and health says why, in the lake's terms",
  async (t) => {
    const breakages: [string, (file: string, dir: string) => Promise<void>, RegExp][] = [
      ['missing', (f) => rm(f), /^table pages: pages\/year=2016\/data_0\.parquet is missing$/],
      [
        'truncated',
        (f) => truncate(f, 100),
        /^table pages: pages\/year=2016\/data_0\.parquet has 100 bytes vs manifest \d+$/,
      ],
      [
        'one byte changed',
        async (f) => {
          const bytes = await readFile(f);
          bytes[Math.floor(bytes.length / 2)] ^= 0xff;
          await writeFile(f, bytes);
        },
        /^table pages: pages\/year=2016\/data_0\.parquet sha256 mismatch$/,
      ],
      [
        'a row count the files do not hold',
        (_, dir) =>
          editManifest(dir, (m) => {
            m.tables.pages.rows += 1;
          }),
        /^table pages: row count (\d+) vs manifest \d+$/,
      ],
      // Files that match the manifest but are not Parquet: DuckDB's own message names server paths and SQL.
      [
        'not Parquet, listed as it is',
        async (f, dir) => {
          await writeFile(f, 'not parquet at all');
          const [sha256, bytes] = [await sha256Of(f), 18];
          await editManifest(dir, (m) => Object.assign(entryOf(m, PAGES), { sha256, bytes }));
        },
        /^table pages: pages\/year=2016\/data_0\.parquet cannot be read as Parquet$/,
      ],
      // A release of an older build: no postings stores to rank from.
      [
        'built before the postings stores',
        (_, dir) =>
          editManifest(dir, (m) => {
            delete m.tables.page_postings_store;
            m.schemaVersion = '2.2.0';
          }),
        /^built without page_postings_store \(schema 2\.2\.0\); rebuild it with `make lake`$/,
      ],
    ];
    for (const [name, breakIt, reason] of breakages) {
      const lake = await mkdtemp(join(tmpdir(), 'lake-'));
      const first = await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
      const running = await start(testConfig({ lakeDir: lake }));
      const second = await buildRelease({ corpus: other, lake, cacheDir, quiet: true, makeCurrent: false });
      await breakIt(join(second.dir, PAGES), second.dir);
      await pointCurrent(lake, second.releaseId);
      await running.lake.check();
      const health = await get(`${running.url}/api/health`);
      t.equal(health.json.release, first.releaseId, `${name}: still serving the previous release`);
      t.equal(health.json.status, 'degraded');
      t.match(
        health.json.refusedReleases[0],
        { release: second.releaseId, reason },
        `${name}: ${health.json.refusedReleases[0].reason}`,
      );
      t.same(
        health.json.fallback,
        {
          release: first.releaseId,
          reason: `lake/current names release ${second.releaseId}, which was refused: ${health.json.refusedReleases[0].reason}`,
        },
        `${name}: says what it serves instead and why`,
      );
      t.notMatch(health.text, LEAKS, `${name}: no server path or SQL in health`);
      const quality = await get(`${running.url}/api/quality`);
      t.equal(quality.json.release, first.releaseId);
      t.match(
        quality.json.refusedReleases[0],
        { release: second.releaseId, reason },
        `${name}: the quality report says why`,
      );
      t.notMatch(
        JSON.stringify(quality.json.refusedReleases),
        LEAKS,
        `${name}: no server path or SQL in the quality report`,
      );
      const search = await get(`${running.url}/api/search?q=Cuomo`);
      t.equal(search.status, 200);
      t.equal(search.headers.get('x-release-id'), first.releaseId);

      // Its files are not served: their bodies would not match their ETags.
      for (const file of [PAGES, 'manifest.json', 'documents.parquet']) {
        const r = await get(`${running.url}/api/releases/${second.releaseId}/files/${file}`);
        t.equal(r.status, 404, `${name}: ${file} of the refused release is not served`);
        t.match(r.json?.detail, new RegExp(`release ${second.releaseId} is kept but not served`));
      }
      t.equal(
        (await get(`${running.url}/api/releases/${first.releaseId}/files/${PAGES}`)).status,
        200,
        `${name}: the served release's files are`,
      );

      // Once lake/current names a release that serves (here the previous one again), health is ok; the refusal stays listed.
      await pointCurrent(lake, first.releaseId);
      await running.lake.check();
      const after = await get(`${running.url}/api/health`);
      t.equal(after.json.status, 'ok', `${name}: ok again once lake/current names what is served`);
      t.equal(after.json.fallback, null);
      t.equal(after.json.refusedReleases[0].release, second.releaseId, 'the refusal is still listed');
      await running.close();
      await t.rejects(
        Release.open(second.dir, settings),
        { message: `release ${second.releaseId} refused: ${health.json.refusedReleases[0].reason}` },
        `${name}: opening it directly refuses too`,
      );
    }
  },
);

t.test(
  'a corrupt lake/current at start: the newest kept release that verifies serves, and health says so',
  async (t) => {
    const lake = await mkdtemp(join(tmpdir(), 'lake-'));
    const first = await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
    await new Promise((r) => setTimeout(r, 20)); // a later modification time: the newer release
    const second = await buildRelease({ corpus: other, lake, cacheDir, quiet: true });
    const current = join(lake, 'current');
    const cases: [string, () => Promise<void>, string, RegExp][] = [
      [
        'dangling',
        async () => {
          await rm(current);
          await symlink('releases/0123456789abcdef', current);
        },
        second.releaseId,
        /^lake\/current points at releases\/0123456789abcdef, which does not exist$/,
      ],
      [
        'not a symlink',
        async () => {
          await rm(current);
          await writeFile(current, 'releases/nothing\n');
        },
        second.releaseId,
        /^lake\/current is not a symlink to a release$/,
      ],
      ['missing', () => rm(current), second.releaseId, /^lake\/current is missing$/],
      [
        'names a release that fails verification',
        async () => {
          await rm(current, { force: true });
          await pointCurrent(lake, second.releaseId);
          await truncate(join(second.dir, PAGES), 10);
        },
        first.releaseId,
        new RegExp(
          `^lake/current names release ${second.releaseId}, which was refused: table pages: pages/year=2016/data_0\\.parquet has 10 bytes vs manifest \\d+$`,
        ),
      ],
    ];
    for (const [name, corrupt, serves, reason] of cases) {
      await corrupt();
      const running = await start(testConfig({ lakeDir: lake }));
      const health = await get(`${running.url}/api/health`);
      t.equal(health.json.release, serves, `${name}: serves ${serves}`);
      t.equal(health.json.status, 'degraded', `${name}: degraded`);
      t.match(health.json.fallback, { release: serves, reason }, `${name}: ${health.json.fallback?.reason}`);
      t.notMatch(health.text, LEAKS, `${name}: no server path in health`);
      t.equal((await get(`${running.url}/api/search?q=Cuomo`)).status, 200, `${name}: answers`);
      await running.close();
    }

    // A server started on a fallback switches to what lake/current names as soon as it can be served.
    const running = await start(testConfig({ lakeDir: lake }));
    t.teardown(() => running.close());
    const third = await buildRelease({
      corpus: await makeCorpus(['bag110116_minutes.pdf']),
      lake,
      cacheDir,
      quiet: true,
    });
    t.not(third.releaseId, first.releaseId, 'a new release');
    await running.lake.check();
    const health = await get(`${running.url}/api/health`);
    t.match(health.json, { release: third.releaseId, status: 'ok', fallback: null }, 'a good release published: ok');
    t.equal(
      health.json.refusedReleases[0].release,
      second.releaseId,
      'the refusal that made it fall back stays listed',
    );

    // Nothing to fall back to: the server says so and what it found.
    const empty = await mkdtemp(join(tmpdir(), 'lake-'));
    await t.rejects(start(testConfig({ lakeDir: empty })), {
      message: /^lake\/current is missing, and no kept release verifies: run `make lake` first$/,
    });
  },
);

t.test("`make serve`'s command comes up on a lake whose current is dangling, degraded, and says so", async (t) => {
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  const built = await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
  await rm(join(lake, 'current'));
  await symlink('releases/fedcba9876543210', join(lake, 'current'));
  const { child, url, stderr, exited } = await serveProcess({ LAKE: lake });
  t.ok(url, `the server came up: ${stderr().trim()}`);
  if (!url) return;
  t.match(
    stderr(),
    /lake\/current points at releases\/fedcba9876543210, which does not exist; serving/,
    'its log says it serves a fallback',
  );
  const health = await get(`${url}/api/health`);
  t.match(health.json, { status: 'degraded', release: built.releaseId, fallback: { release: built.releaseId } });
  child.kill('SIGTERM');
  t.equal(await exited, 0);
});

t.test('a pipeline killed at any point leaves the current release intact, and the next run succeeds', async (t) => {
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  const first = await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
  const delays = [30, 300, 700, 1200, 1700, 2200, 2800, 3500];
  for (const ms of delays) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/build.ts'], {
      cwd: ROOT,
      env: { ...process.env, CORPUS: other, LAKE: lake },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    setTimeout(() => child.kill('SIGKILL'), ms);
    await exited;
    const current = (await readlink(join(lake, 'current'))).replace('releases/', '');
    const release = await Release.open(join(lake, 'releases', current), settings); // verifies every file against the manifest
    release.retire();
    t.ok(
      current === first.releaseId || existsSync(join(lake, 'releases', current, 'manifest.json')),
      `killed after ${ms} ms: current release ${current} opens and verifies`,
    );
  }
  const done = await buildRelease({ corpus: other, lake, cacheDir, quiet: true });
  t.equal(await readlink(join(lake, 'current')), join('releases', done.releaseId), 'the next run publishes');
  t.same(
    (await readdir(lake)).filter((f) => f.startsWith('.staging')),
    [],
    'stale staging directories of killed runs are removed',
  );
});

t.test('an unwritable or full lake directory gives a clear error and publishes nothing', async (t) => {
  const run = (lake: string) => {
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'pipelines/build.ts'], {
        cwd: ROOT,
        env: { ...process.env, CORPUS: small, LAKE: lake },
        stdio: 'pipe',
        encoding: 'utf8',
      });
      return '';
    } catch (e) {
      return String((e as { stderr: string }).stderr);
    }
  };
  t.match(
    run('/dev/null/lake'),
    /LAKE: cannot write the release under \/dev\/null\/lake: a path component is not a directory/,
  );
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
    t.same(
      (await readdir(join(tiny, 'lake'))).filter((f) => f.startsWith('.staging')),
      [],
      'no staging left behind',
    );
  } finally {
    execFileSync('umount', [tiny]);
  }
});

t.test('SIGTERM drains the requests in flight before the server exits', async (t) => {
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  await buildRelease({ corpus: small, lake, cacheDir, quiet: true });
  const { child, url, stderr, exited } = await serveProcess({ LAKE: lake });
  // In flight for sure: responses whose headers have arrived and whose bodies are still to be read.
  const responses = await Promise.all(
    Array.from({ length: 8 }, () => fetch(`${url}/api/snapshots/recorded-positions?format=ndjson&limit=1000`)),
  );
  child.kill('SIGTERM');
  const bodies = await Promise.all(
    responses.map((r) =>
      r.text().then(
        (text) => ({
          status: r.status,
          lines: text.trim().split('\n').length,
          total: Number(r.headers.get('x-total-count')),
        }),
        () => ({ status: 0, lines: 0, total: -1 }),
      ),
    ),
  );
  t.ok(
    bodies.every((b) => b.status === 200 && b.lines === b.total),
    `every stream in flight finished whole (${bodies.map((b) => `${b.lines}/${b.total}`).join(' ')})`,
  );
  t.equal(await exited, 0, 'clean exit');
  t.match(stderr(), /SIGTERM, draining requests in flight/);
});
