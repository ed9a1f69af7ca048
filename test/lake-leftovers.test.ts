// What the server leaves behind or repeats when the lake is odd: a release folder whose manifest names another id is
// refused once (not re-verified on every check) and health says so; a release opened while the server shuts down is
// closed with its spill folder; a process that exits with releases open leaves no spill folder, nor does a start that
// fails after a release's DuckDB was made; pins rotating over every kept release keep them all open.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import t from 'tap';

import { pointCurrent } from '../pipelines/publish/release.ts';
import { Release } from '../src/lake/release.ts';
import { start } from '../src/server.ts';
import { FIXTURE_LAKE, fixtureRelease, get, ROOT, testConfig } from './fixture.ts';

const realId = await fixtureRelease();
const realDir = join(FIXTURE_LAKE, 'releases', realId);

/** A lake holding the fixture release (hard links) as current, as release `id` when another is given. */
async function lakeWithFixture(id = realId): Promise<string> {
  const lake = await mkdtemp(join(tmpdir(), 'lake-odd-'));
  await mkdir(join(lake, 'releases'));
  if (id === realId) execFileSync('cp', ['-al', realDir, join(lake, 'releases', realId)]);
  else await copyAs(lake, id, id);
  await pointCurrent(lake, id);
  return lake;
}

/** The fixture release's files under folder `folder`, its manifest saying release `manifestId` (a file of its own, not a link). */
async function copyAs(lake: string, folder: string, manifestId: string): Promise<void> {
  const dir = join(lake, 'releases', folder);
  execFileSync('cp', ['-al', realDir, dir]);
  const manifest = JSON.parse(await readFile(join(realDir, 'manifest.json'), 'utf8'));
  await rm(join(dir, 'manifest.json'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, releaseId: manifestId }, null, 2));
}

const spillsOf = (id: string) => readdirSync(tmpdir()).filter((e) => e.startsWith(`board-records-${id}-`));

t.test('a folder whose manifest names another release is refused once, and health says so', async (t) => {
  const lake = await lakeWithFixture();
  const odd = 'aaaaaaaaaaaaaaaa';
  await copyAs(lake, odd, realId);
  const running = await start(testConfig({ lakeDir: lake }));
  t.teardown(() => running.close());
  await pointCurrent(lake, odd);
  const hashed = Release.filesHashed;
  const opened = Release.opened;
  for (let i = 0; i < 3; i++) await running.lake.check();
  t.equal(Release.filesHashed - hashed, 0, 'no file hashed again');
  t.equal(Release.opened - opened, 0, 'not opened');
  const health = (await get(`${running.url}/api/health`)).json;
  t.equal(health.status, 'degraded');
  t.equal(health.release, realId, 'the release it served goes on');
  t.match(
    health.fallback.reason,
    /aaaaaaaaaaaaaaaa.*its folder is named aaaaaaaaaaaaaaaa but its manifest\.json says release/,
  );
  t.equal(health.refusedReleases.filter((r: { release: string }) => r.release === odd).length, 1, 'refused once');
});

t.test('a release opened while the lake closes is closed too, with its spill folder', async (t) => {
  const lake = await lakeWithFixture();
  const next = 'bbbbbbbbbbbbbbbb';
  await copyAs(lake, next, next);
  const running = await start(testConfig({ lakeDir: lake }));
  await pointCurrent(lake, next);
  // A check under way (a SIGHUP, the watch timer) when the server shuts down: the new release opens after the close.
  const checking = running.lake.check();
  await running.close();
  await checking;
  t.same(spillsOf(next), [], 'no spill folder of the release opened during shutdown');
});

t.test('a process that exits with a release open leaves no spill folder', async (t) => {
  const lake = await lakeWithFixture();
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('./src/lake/release.ts').then(async (m) => { const r = await m.Release.open(${JSON.stringify(join(lake, 'releases', realId))}, { poolSize: 1, queueLimit: 1, queryTimeoutMs: 10000 }); process.stdout.write(r.spillDir); process.exit(0); })`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  t.match(out, /board-records-/);
  t.notOk(existsSync(out), `${out} removed on exit`);
});

t.test('a start that fails after the DuckDB of a release is made leaves no spill folder', async (t) => {
  // A table file that is not Parquet, listed with its own size and sha256: it passes the file checks, so the release's
  // DuckDB (and its spill folder) is made before reading its tables refuses it.
  const broken = 'dddddddddddddddd';
  const lake = await lakeWithFixture(broken);
  t.teardown(() => rm(lake, { recursive: true, force: true }));
  const dir = join(lake, 'releases', broken);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  const [name, table] = Object.entries(
    manifest.tables as Record<string, { files: { path: string; sha256: string; bytes: number }[] }>,
  ).find(([, table]) => table.files[0].path.endsWith('.parquet'))!;
  const file = table.files[0];
  const garbage = Buffer.from('not a parquet file\n');
  await rm(join(dir, file.path));
  await writeFile(join(dir, file.path), garbage);
  Object.assign(file, { bytes: garbage.length, sha256: createHash('sha256').update(garbage).digest('hex') });
  await rm(join(dir, 'manifest.json'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await t.rejects(
    start(testConfig({ lakeDir: lake })),
    new RegExp(`table ${name}: ${file.path} cannot be read as Parquet`),
  );
  t.same(spillsOf(broken), [], 'no spill folder of the refused release');
});

t.test('a start that fails to listen closes the release it opened, with its spill folder', async (t) => {
  const id = 'eeeeeeeeeeeeeeee';
  const lake = await lakeWithFixture(id);
  t.teardown(() => rm(lake, { recursive: true, force: true }));
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const port = (taken.address() as { port: number }).port;
  await t.rejects(start(testConfig({ lakeDir: lake, port })), { code: 'EADDRINUSE' });
  t.same(spillsOf(id), [], 'no spill folder of the release it opened');
});

t.test('pins rotating over every kept release open each once', async (t) => {
  const lake = await lakeWithFixture();
  const ids = ['c000000000000001', 'c000000000000002', 'c000000000000003', 'c000000000000004'];
  for (const id of ids) await copyAs(lake, id, id);
  const running = await start(testConfig({ lakeDir: lake }));
  t.teardown(() => running.close());
  const opened = Release.opened;
  for (let round = 0; round < 3; round++) {
    for (const id of ids) {
      const r = await running.lake.acquireById(id);
      t.equal(r?.id, id);
      r?.drop();
    }
  }
  t.equal(Release.opened - opened, ids.length, 'each kept release opened once over three rounds');
});

t.test('answers about the lake follow it: releases and quality are not kept past a refusal', async (t) => {
  const lake = await lakeWithFixture();
  const running = await start(testConfig({ lakeDir: lake, answerCacheBytes: 8 * 1024 * 1024 }));
  t.teardown(() => running.close());
  const before = await get(`${running.url}/api/quality`);
  const releases = await get(`${running.url}/api/releases`);
  t.same(before.json.refusedReleases, [], 'nothing refused yet');
  t.same(
    releases.json.releases.map((r: { release: string }) => r.release),
    [realId],
  );
  // A second release appears, and a folder whose manifest names another id is refused.
  const odd = 'cccccccccccccccc';
  await copyAs(lake, odd, realId);
  await pointCurrent(lake, odd);
  await running.lake.check();
  const after = await get(`${running.url}/api/quality`, { headers: { 'If-None-Match': before.headers.get('etag')! } });
  t.equal(after.status, 200, 'the old ETag no longer matches');
  t.same(
    after.json.refusedReleases.map((r: { release: string }) => r.release),
    [odd],
    'the refusal is reported',
  );
  const unchanged = await get(`${running.url}/api/quality`, {
    headers: { 'If-None-Match': after.headers.get('etag')! },
  });
  t.equal(unchanged.status, 304, 'revalidated while nothing changes');
  const releasesAfter = await get(`${running.url}/api/releases`);
  t.not(releasesAfter.text, releases.text, 'the release list is read again');
});
