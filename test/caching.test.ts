// Answers as functions of (release, request): Cache-Control and ETags any HTTP cache can use, the in-process answer
// cache (on, and off), and a server failure that no cache may keep.
import t from 'tap';

import { get, startFixtureServer } from './fixture.ts';

// Filtered by action type, an item search asks DuckDB for the items with such a roll call (the ranking itself is in
// memory), so a DuckDB query tells an answer computed from one served from the cache.
const PATH = '/api/items?q=housing&limit=5&actionType=adoption';

t.test('with the answer cache on, a repeated request is answered from memory, byte for byte', async (t) => {
  const running = await startFixtureServer({ answerCacheBytes: 8 << 20 });
  t.teardown(() => running.close());
  const release = running.lake.acquire();
  t.teardown(() => release.drop());
  const computed = release.pool.leased;
  const first = await get(`${running.url}${PATH}`);
  t.equal(first.status, 200);
  t.ok(first.json.results.length > 0, `${first.json.results.length} items found for housing`);
  t.ok(release.pool.leased > computed, 'the first request is computed in DuckDB');
  const before = release.pool.leased;
  const again = await get(`${running.url}${PATH}`);
  t.equal(release.pool.leased, before, 'no DuckDB query for the repeated request');
  t.equal(again.text, first.text, 'the same answer');
  t.equal(again.headers.get('etag'), first.headers.get('etag'));
  const md = await get(`${running.url}${PATH}&format=md`);
  t.match(md.headers.get('content-type'), /text\/markdown/, 'Markdown is cached apart from JSON');
  t.match(md.text, /housing/i);
  const other = await get(`${running.url}/api/items?q=housing&limit=6&actionType=adoption`);
  t.equal(other.json.results.length, Math.min(6, first.json.total), 'another request is its own answer');
});

t.test('with the answer cache off, every request is answered afresh', async (t) => {
  const running = await startFixtureServer({ answerCacheBytes: 0 });
  t.teardown(() => running.close());
  const release = running.lake.acquire();
  t.teardown(() => release.drop());
  await get(`${running.url}${PATH}`);
  const before = release.pool.leased;
  const again = await get(`${running.url}${PATH}`);
  t.equal(again.status, 200);
  t.ok(release.pool.leased > before, `${release.pool.leased - before} DuckDB queries for the repeated request`);
});

t.test('HTTP caches: max-age on the current release, immutable when pinned, 304 on If-None-Match', async (t) => {
  const running = await startFixtureServer({ answerCacheBytes: 8 << 20 });
  t.teardown(() => running.close());
  const current = await get(`${running.url}${PATH}`);
  t.equal(current.headers.get('cache-control'), 'public, max-age=60');
  const id = current.headers.get('x-release-id')!;
  const pinned = await get(`${running.url}/api/snapshots/documents?limit=3&release=${id}`);
  t.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable', 'a pinned release never changes');
  t.equal(pinned.json.records.length, 3);
  const revalidated = await fetch(`${running.url}${PATH}`, {
    headers: { 'If-None-Match': current.headers.get('etag')! },
  });
  t.equal(revalidated.status, 304);
  const bad = await get(`${running.url}/api/items?q=housing&limit=0`);
  t.equal(bad.status, 400, 'a refused parameter');
  t.equal(bad.json.errors[0].parameter, 'limit');
  t.notOk(bad.headers.get('cache-control')?.includes('immutable'));
});
