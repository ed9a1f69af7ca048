// Conditional GET through the real server: every answer with an ETag also names when it last changed (Last-Modified:
// the release's publication time for release data), If-Modified-Since is answered by that date, and a 304 carries the
// same Vary as its 200, so a cache keys the stored answer as it keyed the first one.
import t from 'tap';

import { startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const id = running.lake.releaseId;
const manifest = await (await fetch(`${running.url}/api/releases/${id}/files/manifest.json`)).json();
const published = new Date(Math.floor(Date.parse(manifest.createdAt) / 1000) * 1000).toUTCString();

/** The Vary header as a set of lower-case names, in order of name. */
const vary = (h: Headers) =>
  (h.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
    .sort()
    .join(', ');

async function head(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(running.url + url, { headers: { 'Accept-Encoding': 'gzip, br', ...headers } });
  await res.arrayBuffer();
  return res;
}

// Release data of every kind: JSON, Markdown, NDJSON, Arrow, a pinned page, the page, a record page, a feed, a file.
const RELEASE_DATA = [
  '/api/coverage',
  '/api/coverage.md',
  '/api/search?q=housing&limit=3',
  '/api/snapshots/documents?format=ndjson&limit=3',
  '/api/snapshots/supervisors?format=arrow',
  `/api/snapshots/legislative-files?limit=2&release=${id}`,
  '/?q=housing',
  '/supervisors',
  '/feeds/search?q=housing',
  `/api/releases/${id}/files/manifest.json`,
  `/api/releases/${id}/files/${encodeURIComponent(manifest.tables.documents.files[0].path)}`,
];

t.test("release data: Last-Modified is the release's publication time; a 304 keeps the 200's Vary", async (t) => {
  for (const url of RELEASE_DATA) {
    const ok = await head(url);
    t.equal(ok.status, 200, `${url}: 200`);
    const etag = ok.headers.get('etag')!;
    t.ok(etag, `${url}: an ETag`);
    t.equal(ok.headers.get('last-modified'), published, `${url}: Last-Modified ${published}`);
    const again = await head(url, { 'If-None-Match': etag });
    t.equal(again.status, 304, `${url} If-None-Match: 304`);
    t.equal(vary(again.headers), vary(ok.headers), `${url}: the 304 varies on ${vary(ok.headers)}, as its 200`);
    t.equal(again.headers.get('last-modified'), published, `${url}: the 304 names the same time`);
    t.equal((await head(url, { 'If-Modified-Since': published })).status, 304, `${url} If-Modified-Since: 304`);
    const before = new Date(Date.parse(published) - 1000).toUTCString();
    t.equal((await head(url, { 'If-Modified-Since': before })).status, 200, `${url} modified since ${before}: 200`);
    const stale = await head(url, { 'If-None-Match': '"other"', 'If-Modified-Since': published });
    t.equal(stale.status, 200, `${url}: If-None-Match wins over If-Modified-Since`);
  }
});

t.test(
  'what is coded varies on Accept-Encoding in its 304 too; release files and Arrow are sent as stored',
  async (t) => {
    const coded = await head('/api/coverage');
    t.equal(coded.headers.get('content-encoding'), 'br');
    t.equal(
      vary((await head('/api/coverage', { 'If-None-Match': coded.headers.get('etag')! })).headers),
      vary(coded.headers),
    );
    t.match(vary(coded.headers), /accept-encoding/);
    for (const url of ['/api/snapshots/supervisors?format=arrow', `/api/releases/${id}/files/manifest.json`]) {
      const ok = await head(url);
      t.notMatch(vary(ok.headers), /accept-encoding/, `${url}: sent as stored, no Vary: Accept-Encoding`);
      const again = await head(url, { 'If-None-Match': ok.headers.get('etag')! });
      t.equal(vary(again.headers), vary(ok.headers), `${url}: nor in its 304`);
    }
  },
);

t.test('the OpenAPI document dates itself; health, which changes without a date, has only its ETag', async (t) => {
  const doc = await head('/api/openapi.json');
  const modified = Date.parse(doc.headers.get('last-modified') ?? '');
  t.ok(
    modified >= Date.parse(published) && modified <= Date.now(),
    'the document: made by this server, after the release',
  );
  const again = await head('/api/openapi.json', { 'If-None-Match': doc.headers.get('etag')! });
  t.equal(again.status, 304);
  t.equal(vary(again.headers), vary(doc.headers), `the document's 304 varies on ${vary(doc.headers)}`);
  const health = await head('/api/health');
  t.ok(health.headers.get('etag'), 'health: an ETag');
  t.equal(health.headers.get('last-modified'), null, 'health: no Last-Modified');
  const fresh = await head('/api/health', { 'If-None-Match': health.headers.get('etag')! });
  t.equal(vary(fresh.headers), vary(health.headers), "health's 304 varies as its 200");
});
