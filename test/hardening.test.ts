// Bounded work, injection and exposure: time limits and overload answer 503 with Retry-After, SQL stays data,
// no path leaves the release, security headers on every answer.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import t from 'tap';

import { sha256Of } from '../core/lake/format.ts';
import { listFiles } from '../pipelines/publish/release.ts';
import { createApp } from '../src/http/app.ts';
import { cancelledBy, QueryTimeout } from '../src/lake/pool.ts';
import { Release } from '../src/lake/release.ts';
import type { Json } from './fixture.ts';
import { FIXTURE_LAKE, fixtureRelease, get, schemaErrors, startFixtureServer, testConfig } from './fixture.ts';

t.test('a query past the time limit is interrupted, and the connection serves the next query', async (t) => {
  // A genuinely long query, interrupted while it executes (interrupting a query in its first millisecond, while DuckDB
  // still binds it, has been seen to leave it stuck: the pool then abandons and replaces that connection).
  await fixtureRelease(); // this test may be the first to need it
  const release = await Release.open(join(FIXTURE_LAKE, 'current'), {
    poolSize: 1,
    queueLimit: 1,
    queryTimeoutMs: 300,
  });
  const started = Date.now();
  await t.rejects(release.pool.rows('SELECT count(*) FROM range(100000000000) t(x) WHERE x % 7 = 3'), {
    message: /query exceeded 300 ms/,
  });
  t.ok(Date.now() - started < 5000, `interrupted after ${Date.now() - started} ms`);
  const [row] = await release.pool.rows('SELECT count(*)::INTEGER AS n FROM documents');
  t.equal(row.n, 38, 'the same connection answers the next query');
  release.retire();
});

t.test(
  'a cancelled scope interrupts its running query and refuses the next, and the connection serves others',
  async (t) => {
    await fixtureRelease();
    const release = await Release.open(join(FIXTURE_LAKE, 'current'), {
      poolSize: 1,
      queueLimit: 1,
      queryTimeoutMs: 60000,
    });
    const deadline = new AbortController();
    const started = Date.now();
    const running = cancelledBy(deadline.signal, () =>
      release.pool.rows('SELECT count(*) FROM range(100000000000) t(x) WHERE x % 7 = 3'),
    );
    setTimeout(() => deadline.abort(), 300);
    await t.rejects(running, { message: /query cancelled/ });
    t.ok(Date.now() - started < 5000, `interrupted after ${Date.now() - started} ms, not the 60 s limit`);
    await t.rejects(
      cancelledBy(deadline.signal, () => release.pool.rows('SELECT 1')),
      { message: /query cancelled/ },
      'nothing starts once cancelled',
    );
    const [row] = await release.pool.rows('SELECT count(*)::INTEGER AS n FROM documents');
    t.equal(row.n, 38, 'outside the scope, the same connection answers');
    const shared = await cancelledBy(deadline.signal, () =>
      release.memo('shared', () => release.pool.rows('SELECT 7::INTEGER AS n')),
    );
    t.same(shared, [{ n: 7 }], 'a per-release memo is made outside the cancelled scope: other requests share it');
    release.retire();
  },
);

t.test("shared work (a release's memo) runs under its own time limit, not the request's", async (t) => {
  await fixtureRelease();
  const release = await Release.open(join(FIXTURE_LAKE, 'current'), {
    poolSize: 1,
    queueLimit: 1,
    queryTimeoutMs: 20,
    duckdbThreads: 1,
  });
  const slow = 'SELECT sum(x % 7)::BIGINT::VARCHAR AS s FROM range(300000000) t(x)';
  await t.rejects(
    release.pool.rows(slow),
    { message: /query exceeded 20 ms/ },
    "a request's query past its limit fails",
  );
  const [row] = await release.memo('slow', () => release.pool.rows(slow));
  t.equal(row.s, '899999997', 'the same query as a memo finishes: every later request shares it');
  release.retire();
});

t.test('a one-thread replica with a tight request limit still loads its vectors and answers hybrid', async (t) => {
  // deploy/cluster.ts gives each replica one DuckDB thread; at SCALE=10 its warm-up's statements queued behind one
  // another past the request limit, the vectors never loaded, and every hybrid search fell back or timed out.
  const [tight, usual] = [
    await startFixtureServer({ duckdbThreads: 1, queryTimeoutMs: 1 }),
    await startFixtureServer(),
  ];
  t.teardown(() => Promise.all([tight.close(), usual.close()]));
  const path = '/api/search?q=affordable+housing&mode=hybrid&limit=5';
  const [r, expected] = [await get(tight.url + path), await get(usual.url + path)];
  t.equal(r.status, 200);
  t.match(r.json.retrieval, { used: 'hybrid', fallbackReason: null }, 'the vectors were loaded by the warm-up');
  t.match(r.json.results[0].id, /^\d{4}-\d{2}-\d{2}-(agenda|minutes)-p\d+$/, `a page: ${r.json.results[0].id}`);
  t.same(
    r.json.results.map((p: Json) => p.id),
    expected.json.results.map((p: Json) => p.id),
    'the pages a usual server answers',
  );
});

t.test(
  'a prepared statement answers each call with its own values, also after a failure, an interrupt or eviction',
  async (t) => {
    await fixtureRelease();
    const release = await Release.open(join(FIXTURE_LAKE, 'current'), {
      poolSize: 1,
      queueLimit: 1,
      queryTimeoutMs: 300,
    });
    const byKind = 'SELECT count(*)::INTEGER AS n FROM documents WHERE kind = ?';
    t.same(await release.pool.rows(byKind, ['minutes']), [{ n: 1 }]);
    t.same(await release.pool.rows(byKind, ['agenda']), [{ n: 37 }], 'the same SQL with another value');
    await t.rejects(release.pool.rows('SELECT ?::INTEGER AS n', ['seven']), /Could not convert|Conversion Error/i);
    t.same(await release.pool.rows('SELECT ?::INTEGER AS n', ['7']), [{ n: 7 }], 'a failed call leaves nothing behind');
    const counting = 'SELECT count(*)::INTEGER AS n FROM range(?) t(x) WHERE x % 7 = 3';
    await t.rejects(release.pool.rows(counting, [100_000_000_000]), { message: /query exceeded 300 ms/ });
    t.same(await release.pool.rows(counting, [10]), [{ n: 1 }], 'an interrupted statement is prepared afresh');
    for (let i = 0; i < 70; i++) t.same(await release.pool.rows(`SELECT ?::INTEGER + ${i} AS n`, [1]), [{ n: 1 + i }]);
    t.same(await release.pool.rows(byKind, ['agenda']), [{ n: 37 }], 'after more statements than the connection keeps');
    release.retire();
  },
);

t.test('a timed-out query is a 503 with Retry-After and a problem document', async (t) => {
  const app = createApp(testConfig(), {
    acquire: () => ({
      id: 'r',
      drop() {},
      hold() {
        return this;
      },
      manifest: {},
    }),
  } as never);
  app.use(async () => {
    throw new QueryTimeout('query exceeded 1 ms');
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const r = await get(`http://127.0.0.1:${(server.address() as { port: number }).port}/anything`);
  t.equal(r.status, 503);
  t.equal(r.headers.get('retry-after'), '1');
  t.equal(schemaErrors('problem.json', r.json), '');
  t.match(r.json.detail, /took too long and was stopped/);
  server.close();
});

t.test('beyond the pool and its short queue, requests get 503 instead of piling up', async (t) => {
  const running = await startFixtureServer({ poolSize: 1, queueLimit: 1 });
  const rs = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      get(`${running.url}/api/items?q=${['housing', 'Cuomo', 'roof', 'budget', 'transit'][i % 5]}&limit=50`),
    ),
  );
  const statuses = rs.map((r) => r.status);
  t.ok(
    statuses.every((s) => s === 200 || s === 503),
    statuses.join(' '),
  );
  t.ok(statuses.includes(503), 'some were turned away');
  t.ok(statuses.includes(200), 'the rest were answered');
  for (const r of rs.filter((x) => x.status === 503)) t.equal(r.headers.get('retry-after'), '1');
  t.equal((await get(`${running.url}/api/search?q=roof`)).status, 200, 'and the server recovers');
  await running.close();
});

t.test('SQL metacharacters are only ever data', async (t) => {
  const running = await startFixtureServer();
  const before = await Promise.all((await listFiles(join(FIXTURE_LAKE, 'current'))).map(sha256Of));
  const payloads = [
    "' OR 1=1 --",
    "'; DROP TABLE pages; --",
    '1); DELETE FROM items; --',
    "Robert'); DROP TABLE supervisors;--",
    '%',
    '_%',
    "\\'",
    '" OR ""="',
  ];
  const endpoints = [
    (p: string) => `/api/search?q=${p}`,
    (p: string) => `/api/items?q=${p}`,
    (p: string) => `/api/items?q=housing&voter=${p}`,
    (p: string) => `/api/comments?q=${p}`,
    (p: string) => `/api/comments?q=library&speaker=${p}`,
    (p: string) => `/api/query?q=${p}`,
    (p: string) => `/api/aggregates/votes?voter=${p}`,
    (p: string) => `/api/pages/${p}`,
    (p: string) => `/api/items/${p}`,
    (p: string) => `/api/snapshots/${p}`,
    (p: string) => `/?q=${p}&supervisor=${p}`,
  ];
  for (const payload of payloads) {
    for (const make of endpoints) {
      const r = await get(`${running.url}${make(encodeURIComponent(payload))}`);
      t.ok([200, 400, 404].includes(r.status), `${make(payload)} → ${r.status}`);
    }
  }
  const injected = await get(`${running.url}/api/search?q=${encodeURIComponent("' OR 1=1 --")}`);
  const plain = await get(`${running.url}/api/search?q=or%201%201`);
  t.equal(injected.json.total, plain.json.total, 'the payload is searched as the words it holds');
  const speaker = await get(`${running.url}/api/comments?q=library&speaker=%25`);
  t.equal(speaker.json.total, 0, "'%' is a literal character, not a wildcard");
  const after = await Promise.all((await listFiles(join(FIXTURE_LAKE, 'current'))).map(sha256Of));
  t.same(after, before, 'every lake file unchanged');
  const health = await get(`${running.url}/api/health`);
  t.equal(health.json.documents, 38);
  await running.close();
});

t.test('no path leaves the release; security headers everywhere', async (t) => {
  const running = await startFixtureServer();
  const id = running.lake.releaseId;
  const attempts = [
    `/api/releases/${id}/files/../../../../etc/passwd`,
    `/api/releases/${id}/files/..%2F..%2F..%2Fpackage.json`,
    `/api/releases/${id}/files/%2e%2e/%2e%2e/manifest.json`,
    `/api/releases/..%2F..%2Fsrc/files/manifest.json`,
    // An escaped slash is a slash (src/http/paths.ts): this climbs out of the files, and names nothing.
    `/api/releases/${id}/files/pages%2Fyear%3D2016%2F..%2F..%2F..%2Fmanifest.json`,
    '/api/pages/..%2F..%2Fmanifest.json',
    '/api/items/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/api/snapshots/..%2Fpages',
    '/assets/..%2F..%2Fpackage.json',
    '/assets/%2e%2e/app.ts',
    '/api/pages/2016-11-01-minutes-p4%00.md',
    '/api/comments/%00',
  ];
  const secret = await readFile('/etc/passwd', 'utf8');
  for (const path of attempts) {
    const r = await get(`${running.url}${path}`);
    t.ok(r.status === 404 || r.status === 400, `${path} → ${r.status}`);
    t.notOk(
      r.text.includes(secret.slice(0, 20)) || r.text.includes('"dependencies"'),
      `${path}: nothing outside the release`,
    );
  }
  const manifest = await get(`${running.url}/api/releases/${id}/files/manifest.json`);
  t.equal(manifest.status, 200, 'the release manifest itself is downloadable');
  for (const path of ['/api/search?q=roof', '/api/nothing', '/', '/api/items/x']) {
    const r = await get(`${running.url}${path}`);
    t.equal(r.headers.get('x-content-type-options'), 'nosniff', `${path}: nosniff`);
    t.equal(r.headers.get('referrer-policy'), 'no-referrer', `${path}: referrer policy`);
  }
  t.match(
    (await get(`${running.url}/`)).headers.get('content-security-policy'),
    /default-src 'self'.*frame-ancestors 'none'/,
  );
  await running.close();
});
