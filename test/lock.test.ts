// Overlapping builds (cron plus a manual run): one lake, one build at a time. The second waits for `lake/.lock` or
// refuses clearly; the change feed never gives two changes one sequence number; `lake/current` names the newest
// publish and a build never moves it back.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { buildRelease, type BuildResult } from '../pipelines/build.ts';
import { processAlive, takeLock } from '../pipelines/lock.ts';
import { pointCurrent } from '../pipelines/publish/release.ts';
import { start } from '../src/server.ts';
import { build, makeCorpus, newLake } from './corpora.ts';
import type { Json } from './fixture.ts';
import { get, ROOT, testConfig } from './fixture.ts';

const cacheDir = join(ROOT, '.cache', 'extract');
const corpusA = await makeCorpus(['bag110116_agenda.pdf', 'bag110116_minutes.pdf']);
const corpusB = await makeCorpus(['bag110116_minutes.pdf', 'bag111516_agenda.pdf']);
const corpusC = await makeCorpus(['bag110116_minutes.pdf', 'bag112916_agenda.pdf']);
const buildIn = (corpus: string, lake: string, extra: Partial<Parameters<typeof buildRelease>[0]> = {}) =>
  buildRelease({ corpus, lake, cacheDir, keep: 10, quiet: true, ...extra });
const currentOf = async (lake: string) => (await readlink(join(lake, 'current'))).replace(/^releases\//, '');

/** Every kept release's change log: sequence → the change it names. */
async function logs(lake: string): Promise<Map<string, Map<number, string>>> {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  const out = new Map<string, Map<number, string>>();
  try {
    for (const id of await readdir(join(lake, 'releases'))) {
      const rows = (
        await db.runAndReadAll(`SELECT sequence::INTEGER AS s, concat_ws('|', entity, record_id, operation, record_hash) AS c
        FROM read_parquet('${join(lake, 'releases', id, 'changes.parquet')}') ORDER BY sequence`)
      ).getRowObjectsJson();
      const log = new Map<number, string>();
      for (const r of rows) {
        if (log.has(Number(r.s))) throw new Error(`release ${id}: sequence ${r.s} twice`);
        log.set(Number(r.s), String(r.c));
      }
      out.set(id, log);
    }
  } finally {
    db.closeSync();
    instance.closeSync();
  }
  return out;
}

t.test(
  'two builds of different corpora started at the same moment: one waits, the feed never reuses a sequence number',
  async (t) => {
    const lake = await newLake();
    const base = await build(corpusA, lake, '2026-01-01T00:00:00.000Z');
    const [b, c] = await Promise.all([buildIn(corpusB, lake), buildIn(corpusC, lake)]);
    t.ok(b.published && c.published, 'both publish, one after the other');
    const manifest = async (r: BuildResult) => JSON.parse(await readFile(join(r.dir, 'manifest.json'), 'utf8'));
    const [mb, mc] = [await manifest(b), await manifest(c)];
    const [first, second] = mb.previousRelease === base.releaseId ? [b, c] : [c, b];
    t.equal(
      (await manifest(first)).previousRelease,
      base.releaseId,
      'the first is diffed against the release current before both',
    );
    t.equal(
      (await manifest(second)).previousRelease,
      first.releaseId,
      'the second waited and is diffed against the first',
    );
    t.not(mb.previousRelease, mc.previousRelease, 'they did not both diff against the same release');
    t.equal(await currentOf(lake), second.releaseId, 'lake/current names the newest publish');

    // Every release's log extends the one before it: a sequence number means the same change in every release.
    const byRelease = await logs(lake);
    const meaning = new Map<number, string>();
    const clashes: string[] = [];
    for (const [id, log] of byRelease) {
      for (const [s, c] of log) {
        if (meaning.has(s) && meaning.get(s) !== c) clashes.push(`${id}: ${s}`);
        meaning.set(s, c);
      }
    }
    t.same(clashes, [], 'no sequence number names two different changes');

    const running = await start(testConfig({ lakeDir: lake }));
    t.teardown(() => running.close());
    const feed = await get(`${running.url}/api/changes?limit=1000`);
    t.equal(feed.status, 200);
    const sequences = feed.json.changes.map((ch: Json) => ch.sequence);
    t.equal(
      new Set(sequences).size,
      sequences.length,
      `the served feed repeats no sequence number (${sequences.length} changes)`,
    );
    t.same(
      sequences.filter((s: number, i: number) => i > 0 && s <= sequences[i - 1]),
      [],
      'and is in order',
    );
    t.same(
      new Set(feed.json.changes.map((ch: Json) => ch.release)),
      new Set([base.releaseId, first.releaseId, second.releaseId]),
      'it names all three releases',
    );
    t.notOk(existsSync(join(lake, '.lock')), 'the lock is gone once both are done');
  },
);

/** Calls `then` as soon as a build's staging directory appears in `lake` (the build is under way). */
async function whileBuilding(lake: string, then: () => Promise<void>): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if ((await readdir(lake)).some((f) => f.startsWith('.staging-'))) return then();
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('no build started');
}

t.test(
  'a no-op build never moves lake/current; a build refuses to publish when lake/current moved under it',
  async (t) => {
    const lake = await newLake();
    const a = await build(corpusA, lake);
    const b = await buildIn(corpusB, lake, { makeCurrent: false });
    await pointCurrent(lake, a.releaseId);

    // Someone else (an operator's rollback, another publisher) points lake/current at b while an unchanged build runs.
    const noop = buildIn(corpusA, lake);
    await whileBuilding(lake, () => pointCurrent(lake, b.releaseId));
    const done = await noop;
    t.equal(done.published, false, 'the corpus is unchanged: nothing published');
    t.equal(
      await currentOf(lake),
      b.releaseId,
      'lake/current still names what it was pointed at, not the release the build started from',
    );

    // A build that would publish, diffed against a release that is no longer current, publishes nothing.
    await pointCurrent(lake, a.releaseId);
    const moving = buildIn(corpusC, lake);
    await whileBuilding(lake, () => pointCurrent(lake, b.releaseId));
    await t.rejects(moving, {
      message: new RegExp(
        `lake/current moved from ${a.releaseId} to ${b.releaseId} during the build; nothing was published`,
      ),
    });
    t.equal(await currentOf(lake), b.releaseId, 'lake/current untouched');
    t.same(
      (await readdir(lake)).filter((f) => f.startsWith('.staging') || f === '.lock'),
      [],
      'no staging directory or lock left',
    );
  },
);

/** Runs `make lake`'s command line over `lake`; resolves with its exit code and stderr. `seen` resolves once its stderr matches. */
function cli(
  corpus: string,
  lake: string,
  env: Record<string, string> = {},
  seen?: { pattern: RegExp; then: () => void },
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/build.ts'], {
    cwd: ROOT,
    env: { ...process.env, CORPUS: corpus, LAKE: lake, EMBED: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    if (seen?.pattern.test(stderr)) seen.then();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

t.test('a build that finds the lock held refuses clearly, or waits LAKE_LOCK_WAIT_MS for it', async (t) => {
  const lake = await newLake();
  const unlock = await takeLock(join(lake, '.lock'), 'build');
  const refused = await cli(corpusA, lake, { LAKE_LOCK_WAIT_MS: '0' });
  t.equal(refused.code, 1, 'exits 1');
  t.match(
    refused.stderr,
    new RegExp(`another build \\(pid ${process.pid}, started \\d{4}-\\d\\d-\\d\\dT[^)]+\\) holds ${lake}/\\.lock`),
    refused.stderr.trim(),
  );
  t.match(refused.stderr, /nothing was published/);
  t.notOk(existsSync(join(lake, 'current')), 'nothing published');

  let saysWaiting = () => {};
  const said = new Promise<void>((resolve) => {
    saysWaiting = resolve;
  });
  const waiting = cli(
    corpusA,
    lake,
    { LAKE_LOCK_WAIT_MS: '120000' },
    { pattern: new RegExp(`waiting for another build \\(pid ${process.pid}, started `), then: () => saysWaiting() },
  );
  await said;
  await new Promise((r) => setTimeout(r, 500));
  t.notOk(existsSync(join(lake, 'current')), 'it says it is waiting, and builds nothing while the lock is held');
  await unlock();
  const waited = await waiting;
  t.equal(waited.code, 0, 'builds once the lock is let go');
  t.ok(existsSync(join(lake, 'current')), 'and publishes');
});

t.test('a lock left by a process that is gone is taken over; a live one is not', async (t) => {
  const lake = await newLake();
  const gone = spawn(process.execPath, ['-e', '0']);
  const pid = await new Promise<number>((resolve) => gone.once('exit', () => resolve(gone.pid!)));
  t.notOk(processAlive(pid), `pid ${pid} has exited`);
  t.ok(processAlive(process.pid), 'this process is alive');
  t.ok(processAlive(1), 'pid 1 is alive (EPERM would mean alive too)');
  await writeFile(join(lake, '.lock'), JSON.stringify({ pid, startedAt: '2026-01-01T00:00:00.000Z' }) + '\n');
  const r = await buildIn(corpusA, lake);
  t.ok(r.published, 'the stale lock did not stop the build');
  t.notOk(existsSync(join(lake, '.lock')), 'and the build let its own lock go');

  const unlock = await takeLock(join(lake, '.lock'), 'build');
  await t.rejects(
    buildIn(corpusB, lake, { lockWaitMs: 0 }),
    { message: /another build \(pid \d+, started .*\) holds .*\.lock/ },
    'in one process too',
  );
  await unlock();
});
