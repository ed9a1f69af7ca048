// HTTP conventions on a real server over the fixture release: content coding (gzip, br; streamed NDJSON coded as it
// streams), Accept: application/x-ndjson, Link rel="next" on paged answers, CORS preflight caching, validators on the
// page, the OpenAPI document and health, the HTML 404 for browsers, `.md` paths that have no Markdown, and problem
// type URIs that resolve.
import { request } from 'node:http';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';

import t from 'tap';

import { PROBLEM_TYPES } from '../src/http/errors.ts';
import { aftermath, connection } from './chaos/scenarios.ts';
import type { Json } from './fixture.ts';
import { get, schemaErrors, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const base = running.url;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  chunks: Buffer[];
}

/** A GET on a raw connection: the bytes as sent (no decoding), and the chunks as they arrived. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), chunks }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw) => {
  const coding = r.headers['content-encoding'];
  return coding === 'gzip' ? gunzipSync(r.body) : coding === 'br' ? brotliDecompressSync(r.body) : r.body;
};
const varies = (r: Raw, name: string) =>
  String(r.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes(name.toLowerCase());

/** A client that pipelines 16 NDJSON pages (cursor of the k-th from `cursor`) and never reads an answer. */
const stalledPages =
  (cursor: (k: number) => number, headers = '') =>
  (s: import('node:net').Socket) => {
    s.pause();
    s.write(
      Array.from(
        { length: 16 },
        (_, k) =>
          `GET /api/snapshots/legislative-files?format=ndjson&limit=1000&cursor=${cursor(k)} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`,
      ).join(''),
    );
  };

t.test('gzip and br for every compressible answer, chosen by Accept-Encoding, with Vary', async (t) => {
  const id = running.lake.releaseId;
  const paths: [string, RegExp][] = [
    ['/api/snapshots/legislative-files?limit=1000', /^application\/json/],
    ['/api/meetings.md', /^text\/markdown/],
    ['/api/openapi.json', /^application\/json/],
    ['/?q=housing', /^text\/html/],
    ['/assets/app.css', /^text\/css/],
    ['/assets/app.js', /^text\/javascript/],
    ['/api/search?q=housing&limit=-1', /^application\/problem\+json/],
    ['/feeds/search?q=housing', /^application\/atom\+xml/],
  ];
  for (const [path, type] of paths) {
    const plain = await raw(`${base}${path}`);
    t.match(plain.headers['content-type'], type, `${path}: ${plain.headers['content-type']}`);
    t.equal(plain.headers['content-encoding'], undefined, `${path}: no Accept-Encoding, no coding`);
    t.ok(varies(plain, 'Accept-Encoding'), `${path}: Vary: Accept-Encoding even uncoded`);
    for (const coding of ['gzip', 'br']) {
      const coded = await raw(`${base}${path}`, { 'Accept-Encoding': coding });
      t.equal(coded.status, plain.status);
      t.ok(varies(coded, 'Accept-Encoding'), `${path} ${coding}: Vary`);
      if (plain.body.length < 1024) {
        t.equal(
          coded.headers['content-encoding'],
          undefined,
          `${path}: ${plain.body.length} bytes are sent as they are`,
        );
        continue;
      }
      t.equal(coded.headers['content-encoding'], coding, `${path}: ${coding}`);
      t.equal(
        Number(coded.headers['content-length']),
        coded.body.length,
        `${path} ${coding}: Content-Length is the coded size`,
      );
      t.ok(
        coded.body.length < plain.body.length,
        `${path} ${coding}: ${plain.body.length} → ${coded.body.length} bytes`,
      );
      t.ok(decode(coded).equals(plain.body), `${path} ${coding}: decodes to the uncoded answer`);
    }
  }
  const big = await raw(`${base}/api/snapshots/legislative-files?limit=1000`, { 'Accept-Encoding': 'gzip' });
  t.match(big.headers.etag, /^W\/"/, 'a coded answer has a weak ETag');
  const again = await raw(`${base}/api/snapshots/legislative-files?limit=1000`, {
    'Accept-Encoding': 'gzip',
    'If-None-Match': String(big.headers.etag),
  });
  t.equal(again.status, 304, 'which If-None-Match answers with 304');

  // Preferences: q-values, `*`, refusals.
  const url = `${base}/api/snapshots/legislative-files?limit=100`;
  const cases: [string, string | undefined][] = [
    ['gzip, deflate, br', 'br'],
    ['deflate, gzip, br, zstd', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['deflate', undefined],
  ];
  for (const [accept, expected] of cases)
    t.equal(
      (await raw(url, { 'Accept-Encoding': accept })).headers['content-encoding'],
      expected,
      `Accept-Encoding: ${accept}`,
    );

  // Release files are sent as stored: Parquet, and the manifest too.
  const manifest = JSON.parse((await raw(`${base}/api/snapshots`)).body.toString());
  const file = manifest.entities[0].parquet[0];
  const parquet = await raw(file.url, { 'Accept-Encoding': 'gzip, br' });
  t.equal(parquet.status, 200);
  t.equal(parquet.headers['content-encoding'], undefined, 'a Parquet file is never coded');
  t.equal(parquet.body.length, file.bytes);
  const m = await raw(`${base}/api/releases/${id}/files/manifest.json`, { 'Accept-Encoding': 'gzip, br' });
  t.equal(m.headers['content-encoding'], undefined, 'nor is a release manifest');
});

t.test(
  'a streamed NDJSON page is coded as it streams: curl --compressed reads it, a slow reader gets records early',
  async (t) => {
    const path = '/api/snapshots/recorded-positions?format=ndjson&limit=1000';
    const plain = await raw(`${base}${path}`);
    t.equal(plain.status, 200);
    for (const coding of ['gzip', 'br']) {
      // What curl --compressed sends.
      const coded = await raw(`${base}${path}`, {
        'Accept-Encoding': 'deflate, gzip, br, zstd'.replace(coding === 'gzip' ? ', br' : 'gzip, ', ''),
      });
      t.equal(coded.headers['content-encoding'], coding);
      t.match(coded.headers['content-type'], /^application\/x-ndjson/);
      t.equal(coded.headers['content-length'], undefined, 'streamed: no Content-Length');
      t.equal(coded.headers['x-total-count'], plain.headers['x-total-count']);
      t.ok(
        decode(coded).equals(plain.body),
        `${coding}: decodes to the uncoded page (${plain.body.length} → ${coded.body.length} bytes)`,
      );
    }
    // Flushed per slice: the first bytes to arrive decode, by themselves, to whole records.
    const big = '/api/snapshots/legislative-files?format=ndjson&limit=1000';
    const first = await new Promise<Buffer>((resolve, reject) => {
      const req = request(`${base}${big}`, { headers: { 'Accept-Encoding': 'gzip' }, agent: false }, (res) => {
        res.once('data', (c: Buffer) => {
          resolve(c);
          res.destroy();
        });
      });
      req.on('error', reject);
      req.end();
    });
    const early = gunzipSync(first, { finishFlush: constants.Z_SYNC_FLUSH }).toString();
    const lines = early.split('\n');
    t.ok(lines.length > 2, `the first chunk (${first.length} bytes) holds ${lines.length - 1} records`);
    t.type(JSON.parse(lines[0]), 'object', 'a whole record');
    const after = await aftermath({ url: base, admitted: running.admitted });
    t.equal(after.admitted, 0, 'the client that left holds no admission slot');
  },
);

t.test(
  'coded streams keep the hostile-client guarantees: aborted and cut-off clients give their slots back',
  async (t) => {
    const small = await startFixtureServer({ poolSize: 1, queueLimit: 4, limits: { sendTimeoutMs: 1500 } });
    t.teardown(() => small.close());
    const target = { url: small.url, admitted: () => small.admitted() };
    const aborted = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        connection(
          target,
          async (s, leave) => {
            s.write(
              `GET /api/snapshots/legislative-files?format=ndjson&limit=1000&cursor=${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: ${i % 2 ? 'br' : 'gzip'}\r\n\r\n`,
            );
            await new Promise((r) => setTimeout(r, i % 3));
            leave();
          },
          2000,
        ),
      ),
    );
    t.ok(
      aborted.every((a) => a === 'aborted' || /^\d+$/.test(a)),
      `every client left or was answered (${aborted.join(',')})`,
    );
    // Readers that never read, pipelining many coded pages: the send timeout cuts them off.
    const stalled = Array.from({ length: 3 }, (_, i) =>
      connection(
        target,
        stalledPages((k) => i * 16 + k, 'Accept-Encoding: gzip\r\n'),
        4000,
      ),
    );
    await Promise.all(stalled);
    const after = await aftermath(target);
    t.equal(after.health, 200);
    t.equal(after.admitted, 0, `nothing left admitted (settled in ${after.settledMs} ms)`);
    t.equal((await get(`${small.url}/api/search?q=roof`)).status, 200, 'an ordinary request is served afterwards');
  },
);

t.test('Accept: application/x-ndjson selects NDJSON on snapshot pages, as format=ndjson does', async (t) => {
  const byParam = await raw(`${base}/api/snapshots/documents?format=ndjson&limit=10`);
  const byAccept = await raw(`${base}/api/snapshots/documents?limit=10`, { Accept: 'application/x-ndjson' });
  t.match(byAccept.headers['content-type'], /^application\/x-ndjson/);
  t.ok(byAccept.body.equals(byParam.body), 'the same lines');
  t.equal(byAccept.headers['x-next-cursor'], '10');
  t.ok(varies(byAccept, 'Accept'), 'Vary: Accept');
  t.not(byAccept.headers.etag, (await raw(`${base}/api/snapshots/documents?limit=10`)).headers.etag, 'its own ETag');
  const prefers = await raw(`${base}/api/snapshots/documents?limit=10`, {
    Accept: 'application/json;q=0.5, application/x-ndjson',
  });
  t.match(prefers.headers['content-type'], /^application\/x-ndjson/, 'by preference');
  const json = await raw(`${base}/api/snapshots/documents?limit=10`, {
    Accept: 'application/x-ndjson;q=0.5, application/json',
  });
  t.match(json.headers['content-type'], /^application\/json/, 'JSON when preferred');
  const explicit = await raw(`${base}/api/snapshots/documents?limit=10&format=json`, {
    Accept: 'application/x-ndjson',
  });
  t.match(explicit.headers['content-type'], /^application\/json/, 'format=json wins over Accept');
  const star = await raw(`${base}/api/snapshots/documents?limit=10`, { Accept: '*/*' });
  t.match(star.headers['content-type'], /^application\/json/, '*/* is JSON');
});

/** The rel="next" target of a Link header. */
const nextOf = (link: string | string[] | undefined) => /<([^>]+)>;\s*rel="next"/.exec(String(link ?? ''))?.[1];

t.test('Link rel="next" on every paged answer, beside the cursor in the body', async (t) => {
  // Snapshot pages: JSON and NDJSON, followed to the end.
  let url: string | undefined = `${base}/api/snapshots/documents?limit=15`;
  const seen: string[] = [];
  while (url) {
    const r = await get(url);
    t.equal(r.status, 200);
    const next = nextOf(r.headers.get('link') ?? undefined);
    if (r.json.nextCursor === null) t.equal(next, undefined, 'the last page has no next link');
    else
      t.equal(
        next,
        `${base}/api/snapshots/documents?limit=15&release=${r.json.release}&cursor=${r.json.nextCursor}`,
        `next: cursor ${r.json.nextCursor}, of the same release`,
      );
    seen.push(...r.json.records.map((d: Json) => d.document_id));
    url = next;
  }
  t.equal(seen.length, 38, 'following Link yields every record');
  t.equal(new Set(seen).size, 38, 'once each');
  const nd = await raw(`${base}/api/snapshots/legislative-files?format=ndjson&limit=500&cursor=500`);
  t.equal(
    nextOf(nd.headers.link),
    `${base}/api/snapshots/legislative-files?format=ndjson&limit=500&cursor=1000&release=${nd.headers['x-release-id']}`,
    'NDJSON: beside X-Next-Cursor',
  );
  t.equal(nd.headers['x-next-cursor'], '1000');
  const md = await raw(`${base}/api/snapshots/documents?limit=5`, { Accept: 'application/x-ndjson' });
  t.equal(
    nextOf(md.headers.link),
    `${base}/api/snapshots/documents?limit=5&release=${md.headers['x-release-id']}&cursor=5`,
    'Accept-chosen NDJSON too',
  );

  // The change feed: next while hasMore.
  const changes = await get(`${base}/api/changes?limit=3`);
  t.equal(changes.status, 200);
  if (changes.json.hasMore)
    t.equal(
      nextOf(changes.headers.get('link') ?? undefined),
      `${base}/api/changes?limit=3&cursor=${changes.json.nextCursor}`,
    );
  else t.equal(changes.headers.get('link'), null);
  const end = await get(`${base}/api/changes?cursor=${Number.MAX_SAFE_INTEGER}`);
  t.equal(end.json.hasMore, false);
  t.equal(end.headers.get('link'), null, 'no next link at the end of the feed (poll with the same cursor)');

  // Meetings, by `after`, JSON and Markdown.
  const meetings = await get(`${base}/api/meetings?limit=5`);
  t.ok(meetings.json.nextAfter, 'more than 5 meetings');
  t.equal(
    nextOf(meetings.headers.get('link') ?? undefined),
    `${base}/api/meetings?limit=5&after=${meetings.json.nextAfter}`,
  );
  const mdMeetings = await raw(`${base}/api/meetings.md?limit=5`);
  t.equal(
    nextOf(mdMeetings.headers.link),
    `${base}/api/meetings.md?limit=5&after=${meetings.json.nextAfter}`,
    'the Markdown page links the next Markdown page',
  );
  const last = await get(`${base}/api/meetings?limit=100`);
  t.equal(last.headers.get('link'), null);

  // Links come from the public base, never the Host header.
  const pub = await startFixtureServer({ publicBaseUrl: 'https://records.example.org' });
  t.teardown(() => pub.close());
  const forged = await raw(`${pub.url}/api/snapshots/documents?limit=5`, { Host: 'evil.example' });
  t.equal(
    nextOf(forged.headers.link),
    `https://records.example.org/api/snapshots/documents?limit=5&release=${forged.headers['x-release-id']}&cursor=5`,
  );
  const cors = await raw(`${base}/api/snapshots/documents?limit=5`, { Origin: 'https://app.example' });
  t.match(String(cors.headers['access-control-expose-headers']), /\bLink\b/, 'CORS exposes Link');
});

t.test(
  'CORS preflights are cached; the page, the OpenAPI document and health carry ETag and Cache-Control',
  async (t) => {
    const pre = await raw(
      `${base}/api/search?q=x`,
      { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
      'OPTIONS',
    );
    t.equal(pre.status, 204);
    t.equal(pre.headers['access-control-max-age'], '86400');
    t.equal(pre.headers['access-control-allow-origin'], '*');

    for (const [path, cache] of [
      ['/', /max-age=\d+/],
      ['/?q=roof', /max-age=\d+/],
      ['/api/openapi.json', /max-age=\d+/],
      ['/api/health', /no-cache/],
    ] as const) {
      const first = await raw(`${base}${path}`);
      t.equal(first.status, 200, path);
      t.match(
        String(first.headers['cache-control']),
        cache,
        `${path}: Cache-Control ${first.headers['cache-control']}`,
      );
      t.match(first.headers.etag, /^(W\/)?"[^"]+"$/, `${path}: ETag`);
      const again = await raw(`${base}${path}`, { 'If-None-Match': String(first.headers.etag) });
      t.equal(again.status, 304, `${path}: If-None-Match → 304`);
      t.equal(again.body.length, 0);
      const coded = await raw(`${base}${path}`, { 'Accept-Encoding': 'gzip' });
      t.equal(
        (await raw(`${base}${path}`, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(coded.headers.etag) }))
          .status,
        304,
        `${path}: the coded ETag too`,
      );
      t.equal((await raw(`${base}${path}`, { 'If-None-Match': '"other"' })).status, 200, `${path}: another ETag → 200`);
    }
    const partial = await raw(`${base}/?q=roof`, { 'X-Partial': 'results' });
    t.not(partial.headers.etag, (await raw(`${base}/?q=roof`)).headers.etag, 'the partial results have their own ETag');
    const health = await get(`${base}/api/health`);
    t.equal(schemaErrors('health.json', health.json), '');
    t.equal(health.json.admitted, 0, 'health still says how much is admitted');
  },
);

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

t.test('an HTML 404 page for browsers off the API; problem+json on API paths and for other clients', async (t) => {
  for (const path of ['/nowhere', '/assets/missing.css', '/search/thing']) {
    const html = await raw(`${base}${path}`, { Accept: BROWSER });
    t.equal(html.status, 404, path);
    t.match(html.headers['content-type'], /^text\/html/);
    t.match(html.body.toString(), /<h1>Page not found<\/h1>/);
    t.match(html.body.toString(), /href="\/"/, 'links back to the search page');
    t.ok(varies(html, 'Accept'), 'Vary: Accept');
    const json = await get(`${base}${path}`);
    t.equal(json.status, 404);
    t.match(json.headers.get('content-type'), /^application\/problem\+json/, `${path}: */* gets a problem document`);
  }
  const hostile = await raw(`${base}/%3Cscript%3Ealert(1)%3C/script%3E`, { Accept: BROWSER });
  t.notMatch(hostile.body.toString(), /<script>/, 'the path is escaped');
  for (const path of ['/api/nowhere', '/api/items/nothing-here']) {
    const api = await raw(`${base}${path}`, { Accept: BROWSER });
    t.equal(api.status, 404);
    t.match(api.headers['content-type'], /^application\/problem\+json/, `${path}: API paths keep problem+json`);
  }
});

t.test('.md paths without a Markdown rendering answer 404, never JSON', async (t) => {
  const doc = (await get(`${base}/api/snapshots/documents?limit=1`)).json.records[0];
  const id = doc.document_id;
  for (const path of [
    '/api/quality.md',
    '/api/snapshots/documents.md',
    `/api/snapshots/documents/${id}.md`,
    '/api/snapshots.md',
    '/api/changes.md',
  ]) {
    const r = await get(`${base}${path}`);
    t.equal(r.status, 404, path);
    t.match(r.headers.get('content-type'), /^application\/problem\+json/);
    t.equal(schemaErrors('problem.json', r.json), '');
  }
  t.equal((await get(`${base}/api/snapshots/documents/${id}`)).status, 200, 'the record itself is there');
  const markdown = await get(`${base}/api/quality`, { headers: { Accept: 'text/markdown' } });
  t.equal(markdown.status, 406, 'Accept: text/markdown on the quality report is a 406, not JSON');
});

t.test('every problem type URI resolves to a page describing it (HTML, or JSON when asked)', async (t) => {
  const emitted = new Map<string, number>();
  const collect = async (url: string, init: RequestInit = {}) => {
    const r = await get(url, init);
    t.equal(schemaErrors('problem.json', r.json), '', `${url}: a problem document`);
    emitted.set(r.json.type, r.json.status);
    return r;
  };
  await collect(`${base}/api/search?q=x&limit=0`);
  await collect(`${base}/api/nowhere`);
  await collect(`${base}/api/snapshots/documents?release=0000000000000000`);
  await collect(`${base}/api/search?q=x`, { method: 'DELETE' });
  await collect(`${base}/api/search?q=roof`, { headers: { Accept: 'image/png' } });
  const busy = await startFixtureServer({ poolSize: 1, queueLimit: 0, limits: { sendTimeoutMs: 60_000 } });
  t.teardown(() => busy.close());
  const held = connection(
    { url: busy.url, admitted: busy.admitted },
    stalledPages((k) => k * 7),
    1500,
  );
  for (let i = 0; i < 100 && busy.admitted() < 1; i++) await new Promise((r) => setTimeout(r, 20));
  await collect(`${busy.url}/api/search?q=roof`);
  await held;
  t.same([...emitted.values()].sort(), [400, 404, 404, 405, 406, 503], 'six kinds of problem emitted');
  for (const [type, status] of emitted) {
    t.ok(
      type.startsWith(`${base}/problems/`) || type.startsWith(`${busy.url}/problems/`),
      `${type}: a URL on this server`,
    );
    const html = await raw(type, { Accept: BROWSER });
    t.equal(html.status, 200, `${type} resolves`);
    t.match(html.headers['content-type'], /^text\/html/);
    const json = await get(type, { headers: { Accept: 'application/json' } });
    t.equal(json.status, 200);
    t.equal(json.json.type, type, 'names itself');
    t.equal(json.json.status, status, `${type}: describes status ${status}`);
  }
  for (const [key, p] of Object.entries(PROBLEM_TYPES)) {
    const r = await raw(`${base}/problems/${key}`);
    t.equal(r.status, 200, `/problems/${key}`);
    t.match(r.body.toString(), new RegExp(`<h1>${p.title}</h1>`));
  }
  t.equal((await get(`${base}/problems/no-such-problem`)).status, 404);
  t.equal((await get(`${base}/problems/__proto__`)).status, 404);
});
