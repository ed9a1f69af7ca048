// Releases: reproducible, content-addressed, all-or-nothing; sources checked; garbage text caught.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { sha256Of } from '../core/lake/format.ts';
import { buildRelease } from '../pipelines/build.ts';
import { readExports } from '../pipelines/exports/shapes.ts';
import { judge } from '../pipelines/extract/pages.ts';
import { loadLegislativeFiles } from '../pipelines/publish/legislative-files.ts';
import { loadLegistar } from '../pipelines/publish/legistar.ts';
import { currentReleaseId, listFiles, pointCurrent } from '../pipelines/publish/release.ts';
import { Release } from '../src/lake/release.ts';
import type { Json } from './fixture.ts';
import { CORPUS, FIXTURE_LAKE, fixtureRelease, ROOT } from './fixture.ts';

const cacheDir = join(ROOT, '.cache', 'extract');
const fixtureId = await fixtureRelease();

async function checksums(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listFiles(dir)) if (f.endsWith('.parquet')) out[f.slice(dir.length)] = await sha256Of(f);
  return out;
}

t.test(
  'two builds from the same corpus, one with under a third of the memory, are byte-identical and share one id',
  async (t) => {
    const lake = await mkdtemp(join(tmpdir(), 'lake-'));
    // 320 MB of DuckDB memory (the default is 1,024), the least the shared corpus builds with: below it a single
    // read_json buffer (128 MiB) no longer fits beside the rest. The budget is applied: 16 MB is refused.
    await t.rejects(
      buildRelease({ corpus: CORPUS, lake, cacheDir, quiet: true, memoryMb: 16 }),
      { message: /Out of Memory/ },
      'a 16 MB budget runs out',
    );
    const again = await buildRelease({ corpus: CORPUS, lake, cacheDir, quiet: true, memoryMb: 320 });
    t.equal(again.releaseId, fixtureId, 'same content, same release id');
    t.same(await checksums(again.dir), await checksums(join(FIXTURE_LAKE, 'releases', fixtureId)));
    const manifest = JSON.parse(await readFile(join(again.dir, 'manifest.json'), 'utf8'));
    t.equal(manifest.inputs.length, 38);
    for (const [name, table] of Object.entries<Json>(manifest.tables)) {
      for (const f of table.files)
        t.equal(await sha256Of(join(again.dir, f.path)), f.sha256, `${name}: ${f.path} sha256 as listed`);
    }
    const twice = await buildRelease({ corpus: CORPUS, lake, cacheDir, quiet: true });
    t.equal(twice.published, false, 'an unchanged corpus publishes nothing');
  },
);

t.test('a sha256 mismatch leaves that document out, names it, and publishes the rest', async (t) => {
  const corpus = await mkdtemp(join(tmpdir(), 'corpus-'));
  await cp(join(CORPUS, 'pdfs'), join(corpus, 'pdfs'), {
    recursive: true,
    filter: (src) => !src.endsWith('.pdf') || /bag11(01|15)16/.test(src),
  });
  const rows = (await readFile(join(CORPUS, 'MANIFEST.tsv'), 'utf8'))
    .split('\n')
    .filter((l, i) => i === 0 || /bag11(01|15)16/.test(l));
  const changed = rows.findIndex((r) => r.startsWith('pdfs/bag110116_agenda.pdf'));
  rows[changed] = rows[changed].replace(/\t[0-9a-f]{64}\t/, `\t${'0'.repeat(64)}\t`);
  await writeFile(join(corpus, 'MANIFEST.tsv'), rows.join('\n') + '\n');
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  const built = await buildRelease({ corpus, lake, cacheDir, quiet: true, embed: false });
  const manifest = JSON.parse(await readFile(join(built.dir, 'manifest.json'), 'utf8'));
  t.same(
    manifest.inputs.map((i: { documentId: string }) => i.documentId),
    ['2016-11-01-minutes', '2016-11-15-agenda'],
  );
  t.equal(manifest.excluded.length, 1);
  t.match(manifest.excluded[0], {
    file: 'pdfs/bag110116_agenda.pdf',
    documentId: '2016-11-01-agenda',
    kind: 'checksum-mismatch',
    detail: /bag110116_agenda\.pdf: sha256 [0-9a-f]+ does not match/,
  });
});

t.test('an unreadable PDF is left out, named, and the rest publishes', async (t) => {
  const corpus = await mkdtemp(join(tmpdir(), 'corpus-'));
  await cp(join(CORPUS, 'pdfs', 'bag110116_minutes.pdf'), join(corpus, 'bag110116_minutes.pdf'));
  await writeFile(join(corpus, 'bag111516_agenda.pdf'), '%PDF-1.4 <html>not a pdf</html>');
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  const built = await buildRelease({ corpus, lake, cacheDir: null, quiet: true, embed: false });
  const manifest = JSON.parse(await readFile(join(built.dir, 'manifest.json'), 'utf8'));
  t.same(
    manifest.inputs.map((i: { documentId: string }) => i.documentId),
    ['2016-11-01-minutes'],
  );
  t.match(manifest.excluded, [
    { file: 'bag111516_agenda.pdf', kind: 'unreadable-pdf', detail: /bag111516_agenda\.pdf: unreadable PDF/ },
  ]);
  t.ok(existsSync(join(lake, 'current')));
});

t.test('a missing corpus names CORPUS', async (t) => {
  await t.rejects(
    buildRelease({ corpus: '/nonexistent/corpus', lake: await mkdtemp(join(tmpdir(), 'lake-')), quiet: true }),
    { name: 'SourceError', message: /^CORPUS: / },
  );
  const out = (() => {
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'pipelines/build.ts'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...process.env, CORPUS: '/nonexistent/corpus', LAKE: join(tmpdir(), 'nolake') },
      });
      return '';
    } catch (e) {
      return String((e as { stderr: string }).stderr);
    }
  })();
  t.match(out, /CORPUS: no corpus folder at \/nonexistent\/corpus/);
});

t.test('garbage text from a font without a Unicode map is caught and repaired', async (t) => {
  // pdftotext (poppler) reads page 1 of the 2019-11-12 agenda as a constant code shift: `%2$5'` for `BOARD`.
  const raw = execFileSync(
    'pdftotext',
    ['-layout', '-f', '1', '-l', '1', join(CORPUS, 'pdfs', 'bag111219_agenda.pdf'), '-'],
    { encoding: 'utf8' },
  );
  t.match(raw, /%2\$5'\x032\)\x03683\(59,6256/, 'the raw text is garbage');
  const judged = judge(raw.split('\n'));
  t.equal(judged.quality, 'repaired');
  t.match(judged.lines.join('\n'), /BOARD OF SUPERVISORS/);
  t.equal(judge(['xq zvk qqpl wmmt '.repeat(30)]).quality, 'garbage');
  t.equal(
    judge(['The Board of Supervisors of the City and County of San Francisco met in regular session']).quality,
    'ok',
  );
});

t.test('page 1 of the 2019-11-12 agenda is readable in the lake', async (t) => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const [row] = (
    await db.runAndReadAll(
      `SELECT quality, indexed, text FROM read_parquet('${FIXTURE_LAKE}/current/pages/*/*.parquet', hive_partitioning = true) WHERE page_id = '2019-11-12-agenda-p1'`,
    )
  ).getRowObjectsJson();
  t.equal(row.quality, 'ok', 'pdf.js decodes the font through its glyph names');
  t.match(String(row.text), /Tuesday, November 12, 2019/);
  t.equal(row.indexed, true);
});

t.test('legislative files built in many batches of file numbers equal the release built in one', async (t) => {
  const dir = join(FIXTURE_LAKE, 'releases', fixtureId);
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  const table = (name: string) => `read_parquet('${join(dir, name)}/**/*.parquet', hive_partitioning = true)`;
  await db.run(
    `CREATE TABLE items AS SELECT * FROM ${table('items')}; CREATE TABLE roll_calls AS SELECT * FROM ${table('roll_calls')}`,
  );
  t.teardown(() => {
    db.closeSync();
    instance.closeSync();
  });
  await loadLegistar(db, await readExports(CORPUS));
  await loadLegislativeFiles(db, 500);
  const count = async (sql: string) =>
    Number((await db.runAndReadAll(`SELECT count(*)::INTEGER FROM (${sql})`)).getRows()[0][0]);
  const released = `SELECT * FROM read_parquet('${join(dir, 'legislative_files.parquet')}')`;
  const files = await count(released);
  t.ok(files > 100, `${files} legislative files in the release`);
  t.equal(await count('SELECT * FROM legislative_files'), files, 'as many files from the batches');
  t.equal(await count(`SELECT * FROM legislative_files EXCEPT ${released}`), 0, 'no row differs');
  t.equal(await count(`${released} EXCEPT SELECT * FROM legislative_files`), 0, 'no row is missing');
  t.equal(
    await count(`SELECT * FROM legislative_files WHERE file_number = '161169' AND len(actions) > 0`),
    1,
    'file 161169 and its recorded actions',
  );
});

t.test(
  'a served release spills to its own temporary directory, not the working directory, removed when it closes',
  async (t) => {
    const release = await Release.open(join(FIXTURE_LAKE, 'releases', fixtureId), {
      poolSize: 1,
      queueLimit: 8,
      queryTimeoutMs: 60_000,
    });
    t.teardown(() => release.retire()); // closing twice is a no-op; this covers a failed assertion before the retire below
    t.ok(release.spillDir.startsWith(tmpdir()), `under ${tmpdir()}: ${release.spillDir}`);
    const [setting] = await release.pool.rows(`SELECT current_setting('temp_directory') AS dir`);
    t.equal(setting.dir, release.spillDir, 'DuckDB spills there');
    // A table larger than a small memory limit is offloaded to the temporary directory while it exists.
    await release.pool.rows(`SET memory_limit = '100MB'`);
    await release.pool.rows(`CREATE TEMP TABLE spilled AS SELECT r, md5(r::VARCHAR) AS h FROM range(4000000) t(r)`);
    const [spilled] = await release.pool.rows(`SELECT count(*)::INTEGER AS n FROM spilled`);
    t.equal(spilled.n, 4000000);
    t.ok(
      readdirSync(release.spillDir).length > 0,
      `DuckDB offloaded it there: ${readdirSync(release.spillDir).join(', ')}`,
    );
    t.notOk(existsSync(join(ROOT, '.tmp')), 'nothing in the working directory');
    release.retire();
    t.notOk(existsSync(release.spillDir), 'removed when the release closes');
  },
);

t.test(
  'publishing flushes every file and directory to disk before the rename, and lake/current after repointing it',
  async (t) => {
    const corpus = await mkdtemp(join(tmpdir(), 'corpus-'));
    await cp(join(CORPUS, 'pdfs', 'bag110116_minutes.pdf'), join(corpus, 'bag110116_minutes.pdf'));
    const lake = await mkdtemp(join(tmpdir(), 'lake-'));
    const trace = join(lake, '..', `${lake.split('/').pop()}.strace`);
    t.teardown(() => rm(trace, { force: true }));
    try {
      // The build's own system calls, seen by strace: fsync and rename with the paths they act on (-y).
      execFileSync(
        'strace',
        [
          '-f',
          '-qq',
          '-y',
          '-e',
          'trace=fsync,fdatasync,rename,renameat,renameat2',
          '-o',
          trace,
          process.execPath,
          '--import',
          'tsx',
          'pipelines/build.ts',
        ],
        { cwd: ROOT, env: { ...process.env, CORPUS: corpus, LAKE: lake, EMBED: '0' }, stdio: 'ignore' },
      );
    } catch (e) {
      if (!existsSync(trace)) {
        t.comment(`strace cannot trace here (${(e as Error).message.split('\n')[0]}): skipped`);
        return;
      }
      throw e;
    }
    const lines = (await readFile(trace, 'utf8')).split('\n');
    const id = (await readFile(join(lake, 'current', 'manifest.json'), 'utf8')).match(/"releaseId": "(\w+)"/)![1];
    const renamed = lines.findIndex((l) => /rename/.test(l) && l.includes(`"${join(lake, 'releases', id)}"`));
    t.ok(renamed >= 0, `the staging directory is renamed to releases/${id}`);
    const staged = /"([^"]+\.staging-[^"/]+)"/.exec(lines[renamed])![1];
    const synced = new Set(
      lines
        .slice(0, renamed)
        .map((l) => /^\d+\s+f(?:data)?sync\(\d+<([^>]+)>\)\s+= 0/.exec(l)?.[1])
        .filter(Boolean),
    );
    const files = (await listFiles(join(lake, 'releases', id))).map((f) => f.slice(join(lake, 'releases', id).length));
    t.ok(files.length > 10, `${files.length} files`);
    t.same(
      files.filter((f) => !synced.has(staged + f)),
      [],
      'every file of the release was flushed before the rename',
    );
    const dirs = [...new Set(files.map((f) => f.split('/').slice(0, -1).join('/')))];
    t.same(
      dirs.filter((d) => !synced.has(staged + d)),
      [],
      'and every directory, the release directory itself included',
    );
    const after = lines.slice(renamed + 1);
    const syncs = (path: string) =>
      after.findIndex((l) =>
        new RegExp(`^\\d+\\s+fsync\\(\\d+<${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}>\\)\\s+= 0`).test(l),
      );
    t.ok(syncs(join(lake, 'releases')) >= 0, 'releases/ is flushed after the rename');
    const current = after.findIndex((l) => /rename/.test(l) && l.includes(`"${join(lake, 'current')}"`));
    t.ok(current >= 0, 'lake/current is repointed by a rename');
    t.ok(syncs(lake) > current, 'and the lake directory flushed after it');
  },
);

t.test(
  'a release closes exactly once, when it is retired and its last hold is let go; a second drop cannot close it early',
  async (t) => {
    const release = await Release.open(join(FIXTURE_LAKE, 'releases', fixtureId), {
      poolSize: 1,
      queueLimit: 8,
      queryTimeoutMs: 60_000,
    });
    t.teardown(() => release.retire());
    release.hold();
    release.drop();
    release.drop(); // one hold let go twice (a response that both finished and closed)
    release.hold(); // a request in flight
    release.retire();
    t.ok(release.open, 'retired with a request in flight: still open');
    t.ok(existsSync(release.spillDir));
    const [row] = await release.pool.rows('SELECT 42 AS n');
    t.equal(row.n, 42, 'and answering');
    release.drop();
    t.notOk(release.open, 'closed when that request lets go');
    t.notOk(existsSync(release.spillDir), 'its spill directory removed');
    release.drop();
    release.retire();
    t.notOk(release.open, 'further drops and retires do nothing');
  },
);

t.test('lake/current repointed twice at once by one process: neither call fails, one of them stands', async (t) => {
  const lake = await mkdtemp(join(tmpdir(), 'lake-'));
  for (const id of ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb']) mkdirSync(join(lake, 'releases', id), { recursive: true });
  await Promise.all([pointCurrent(lake, 'aaaaaaaaaaaaaaaa'), pointCurrent(lake, 'bbbbbbbbbbbbbbbb')]);
  t.match(await currentReleaseId(lake), /^(a{16}|b{16})$/);
  t.same(readdirSync(lake).sort(), ['current', 'releases'], 'no temporary link left');
  await rm(lake, { recursive: true, force: true });
});
