// Switching releases under load: a steady stream of requests sees zero failures while a new release is published and
// picked up; requests in flight finish on the release they started on; a pinned release keeps paging stable.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import t from 'tap';

import { buildRelease, type BuildResult } from '../pipelines/build.ts';
import { Release } from '../src/lake/release.ts';
import { start } from '../src/server.ts';
import { build, makeCorpus, newLake } from './corpora.ts';
import type { Json } from './fixture.ts';
import { get, ROOT, testConfig } from './fixture.ts';

const lake = await newLake();
const a = await build(
  await makeCorpus(['bag110116_agenda.pdf', 'bag110116_minutes.pdf', 'bag111516_agenda.pdf']),
  lake,
);
const corpusB = await makeCorpus({
  'bag110116_agenda.pdf': 'revised:bag110116_agenda.pdf',
  'bag110116_minutes.pdf': 'bag110116_minutes.pdf',
  'bag112916_agenda.pdf': 'bag112916_agenda.pdf',
});
const running = await start(testConfig({ lakeDir: lake }));
t.teardown(() => running.close());
/** The release the first test switches to; retired by the second. */
let b: BuildResult;

const PATHS = [
  '/api/search?q=housing',
  '/api/items?q=ordinance&limit=5',
  '/api/snapshots',
  '/api/snapshots/documents',
  '/api/snapshots/recorded-positions?format=ndjson',
  '/api/snapshots/legislative-files?limit=50',
  '/api/changes?limit=100',
  '/api/quality',
  '/api/health',
];

/** `at`: when the request was sent. */
interface Outcome {
  path: string;
  status: number;
  release: string | null;
  error?: string;
  at: number;
}

t.test('a steady stream of requests sees zero failures across a switch', async (t) => {
  const outcomes: Outcome[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let i = w; !stop; i++) {
      const path = PATHS[i % PATHS.length];
      const at = Date.now();
      try {
        const res = await fetch(`${running.url}${path}`);
        const text = await res.text();
        if (path.includes('ndjson'))
          text
            .split('\n')
            .filter(Boolean)
            .forEach((l) => JSON.parse(l));
        else JSON.parse(text);
        outcomes.push({ path, status: res.status, release: res.headers.get('x-release-id'), at });
      } catch (e) {
        outcomes.push({ path, status: 0, release: null, error: (e as Error).message, at });
      }
    }
  };
  const workers = [0, 1, 2, 3, 4, 5].map(worker);

  // An NDJSON response started on the old release and read only after the switch.
  const inFlight = await fetch(`${running.url}/api/snapshots/recorded-positions?format=ndjson&limit=1000`);
  await new Promise((r) => setTimeout(r, 300));
  b = await build(corpusB, lake);
  await running.lake.check();
  const switchedAt = Date.now();
  await new Promise((r) => setTimeout(r, 700));
  stop = true;
  await Promise.all(workers);

  const failed = outcomes.filter((o) => o.status !== 200);
  t.same(failed.slice(0, 5), [], `zero failed requests (${outcomes.length} made)`);
  t.ok(outcomes.length > 50, `a steady stream (${outcomes.length} requests)`);
  const before = outcomes.filter((o) => o.release === a.releaseId).length;
  const after = outcomes.filter((o) => o.release === b.releaseId).length;
  t.ok(before > 0 && after > 0, `answers from both releases (${before} before, ${after} after)`);
  const late = outcomes.filter((o) => o.at > switchedAt);
  t.ok(
    late.length > 0 && late.every((o) => o.release === b.releaseId),
    `once switched, every new request is answered from the new release (${late.length})`,
  );

  t.equal(inFlight.headers.get('x-release-id'), a.releaseId, 'the in-flight response started on the old release');
  const lines = (await inFlight.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  t.equal(lines.length, Number(inFlight.headers.get('x-total-count')), '...and finished on it, complete');
});

t.test('a pinned release keeps paging stable after a switch', async (t) => {
  // The server now serves the second release; page the first one with release=.
  const pages: Json[] = [];
  for (let cursor: number | null = 0; cursor !== null;) {
    const res = await fetch(
      `${running.url}/api/snapshots/legislative-files?limit=25&cursor=${cursor}&release=${a.releaseId}`,
    );
    t.equal(res.headers.get('x-release-id'), a.releaseId);
    const page: Json = await res.json();
    pages.push(...page.records);
    cursor = page.nextCursor;
    if (cursor === 50) {
      // Another release is published mid-way (the first corpus again): the pinned pages do not move.
      const c = await build(await makeCorpus(['bag110116_minutes.pdf']), lake);
      await running.lake.check();
      t.equal(running.lake.releaseId, c.releaseId);
    }
  }
  const whole: Json = await (
    await fetch(`${running.url}/api/snapshots/legislative-files?release=${a.releaseId}`)
  ).json();
  t.same(pages, whole.records, 'pages read across two switches equal the pinned release read at once');
  t.equal(new Set(pages.map((r) => r.file_number)).size, whole.total);
});

t.test('a retired release closes once its requests are done: no DuckDB instance or spill directory left', async (t) => {
  // b served the previous test's requests (every request holds the current release) and was retired at its switch.
  t.not(running.lake.releaseId, b.releaseId);
  t.same(
    readdirSync(tmpdir()).filter((n) => n.startsWith(`board-records-${b.releaseId}-`)),
    [],
    'its spill directory is gone',
  );
});

t.test('pinning a kept release that is not open verifies it once, however many requests pin it', async (t) => {
  // Built beside the served release, never opened by this server.
  const d = await buildRelease({
    corpus: await makeCorpus(['bag111516_agenda.pdf', 'bag112916_agenda.pdf']),
    lake,
    cacheDir: join(ROOT, '.cache', 'extract'),
    quiet: true,
    keep: 5,
    makeCurrent: false,
  });
  const manifest = JSON.parse(await readFile(join(d.dir, 'manifest.json'), 'utf8'));
  const files = Object.values<Json>(manifest.tables).flatMap((table) => table.files).length;
  const pin = (id: string, n: number) =>
    Promise.all(Array.from({ length: n }, () => get(`${running.url}/api/snapshots/documents?release=${id}`)));
  const before = Release.filesHashed;
  const first = await pin(d.releaseId, 4);
  t.same(
    first.map((r) => [r.status, r.headers.get('x-release-id')]),
    Array(4).fill([200, d.releaseId]),
    'four requests at once, answered from the pin',
  );
  t.equal(Release.filesHashed - before, files, `its ${files} files were hashed once, not once per request`);
  for (let i = 0; i < 3; i++) t.equal((await pin(d.releaseId, 1))[0].status, 200);
  const download = await get(`${running.url}/api/releases/${d.releaseId}/files/supervisors.parquet`);
  t.equal(download.status, 200, `its files are served: it verified (${download.json?.detail ?? ''})`);
  t.equal(Release.filesHashed - before, files, 'later pins and downloads hash nothing again');
  // b verified when it became current, then was retired: pinned now, it opens again without hashing.
  t.equal((await pin(b.releaseId, 2))[0].status, 200);
  t.equal(Release.filesHashed - before, files, 'a release verified earlier by this server is not hashed again');
});
