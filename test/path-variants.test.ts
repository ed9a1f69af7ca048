// Every route of the route list, written other ways (literal segments in capitals, a trailing slash, an encoded
// slash, dot segments, encoded dots, doubled slashes), answers as its canonical path does: the same status and body,
// the same CORS grant, the same method rule, the same admission (a server whose admission is full refuses the same
// paths), and on /api/mcp the same Host check, body limit and batch limit. Requests go out raw, so no client
// normalises the path first.
import { request } from 'node:http';

import t from 'tap';

import { isEndpoint } from '../src/http/endpoints.ts';
import { routes } from '../src/http/routes/index.ts';
import { MAX_BODY_BYTES } from '../src/mcp/http.ts';
import type { Json } from './fixture.ts';
import { get, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
// Admission always full: every admitted path answers 503 at once, the unadmitted ones as usual.
const full = await startFixtureServer({ poolSize: 1, queueLimit: -1 });
t.teardown(async () => {
  await running.close();
  await full.close();
});
const release: string = (await get(`${running.url}/api/health`)).json.release;

/** A sample of each route on the fixture release: its path (parameters filled) and a query it needs. */
const SAMPLES: Record<string, string> = {
  '/api/search': '/api/search?q=roof',
  '/api/items': '/api/items?q=housing',
  '/api/items/:id': '/api/items/2016-11-01-minutes-160965',
  '/api/comments': '/api/comments?q=library',
  '/api/comments/:id': '/api/comments/2016-11-01-minutes-c004',
  '/api/pages/:id': '/api/pages/2016-11-01-minutes-p4',
  '/api/meetings': '/api/meetings?limit=2',
  '/api/meetings/:date': '/api/meetings/2016-11-01',
  '/api/query': '/api/query?q=How%20did%20Avalos%20vote%20on%20administrative%20code%20in%202016%3F',
  '/api/aggregates/votes': '/api/aggregates/votes?voter=Avalos',
  '/api/aggregates/housing': '/api/aggregates/housing?voter=Avalos',
  '/api/snapshots': '/api/snapshots',
  '/api/snapshots/:entity': '/api/snapshots/legislative-files?limit=2',
  '/api/snapshots/:entity/:id': '/api/snapshots/legislative-files/140877',
  '/api/changes': '/api/changes?limit=2',
  '/api/coverage': '/api/coverage',
  '/api/quality': '/api/quality',
  '/api/releases': '/api/releases',
  '/api/releases/:id/files/{*path}': `/api/releases/${release}/files/manifest.json`,
  '/api/health': '/api/health',
  '/api/openapi.json': '/api/openapi.json',
  '/api/mcp': '/api/mcp',
  '/': '/',
  '/assets/:file': '/assets/app.css',
  '/favicon.ico': '/favicon.ico',
  '/problems/:type': '/problems/not-found',
  '/supervisors': '/supervisors',
  '/supervisors/:id': '/supervisors/aaron-peskin',
  '/items/:id': '/items/2016-12-06-agenda-161230',
  '/pages/:id': '/pages/2016-11-01-minutes-p4',
  '/comments/:id': '/comments/2016-11-01-minutes-c012',
  '/meetings': '/meetings',
  '/meetings/:id': '/meetings/2016-11-01',
  '/feeds/search': '/feeds/search?q=housing',
  '/feeds/supervisors/:id': '/feeds/supervisors/aaron-peskin',
};

interface Case {
  template: string;
  /** The canonical path and query. */
  url: string;
}

const cases: Case[] = [];
for (const route of routes) {
  const url = SAMPLES[route.path];
  if (!url) {
    t.fail(`no sample for ${route.path}: add one to SAMPLES`);
    continue;
  }
  cases.push({ template: route.path, url });
  // The `.md` twin the router adds for a Markdown endpoint without path parameters.
  if (isEndpoint(route) && route.markdown && !route.path.includes(':')) {
    const [path, query] = url.split('?');
    cases.push({ template: `${route.path}.md`, url: `${path}.md${query ? `?${query}` : ''}` });
  }
}

/** The variants of a canonical path: each spelling the router would match, or a client might send. */
function variants({ template, url }: Case): Record<string, string> {
  const [path, query] = url.split('?');
  const q = query ? `?${query}` : '';
  const segments = path.split('/').slice(1);
  const literal = template.split('/').slice(1);
  const upper = segments.map((s, i) => (/[:*{]/.test(literal[i] ?? ':') ? s : s.toUpperCase()));
  const [first, ...rest] = segments;
  const tail = rest.length ? `/${rest.join('/')}` : '';
  return {
    capitals: `/${upper.join('/')}${q}`,
    'trailing slash': `${path === '/' ? '' : path}/${q}`,
    'encoded slash': rest.length ? `/${first}%2F${rest.join('/')}${q}` : `/%2F${first}${q}`,
    'lower-case encoded slash': rest.length ? `/${first}%2f${rest.join('/')}${q}` : `/%2f${first}${q}`,
    'dot segment': `/${first}/.${tail}${q}`,
    'dot-dot segment': `/${first}/x/..${tail}${q}`,
    'encoded dots': `/${first}/%2E%2E/${first}${tail}${q}`,
    'double slashes': `${path.replace(/\//g, '//')}${q}`,
  };
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request sent with its path exactly as written (fetch would resolve dot segments first). */
function raw(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path, method: init.method ?? 'GET', headers: init.headers, setHost: !init.headers?.Host },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const ORIGIN = { Origin: 'https://civic-app.example' };
const MCP = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...ORIGIN };
const rpc = (id: number, method: string) => ({ jsonrpc: '2.0', id, method });
const toolNames = (body: string): string[] => {
  const data = body.split('\n').find((l) => l.startsWith('data: '));
  return data ? (JSON.parse(data.slice(6)) as Json).result.tools.map((x: Json) => x.name) : [];
};

for (const c of cases.filter((x) => x.template !== '/api/mcp')) {
  t.test(`GET ${c.template}: every spelling answers as ${c.url}`, async (t) => {
    const canonical = await raw(running.url, c.url, { headers: ORIGIN });
    t.equal(Math.floor(canonical.status / 100), 2, `${c.url} → ${canonical.status}: the sample is served`);
    const post = await raw(running.url, c.url, { method: 'POST', headers: ORIGIN });
    const busy = await raw(full.url, c.url);
    for (const [kind, url] of Object.entries(variants(c))) {
      const v = await raw(running.url, url, { headers: ORIGIN });
      t.equal(v.status, canonical.status, `${kind} ${url} → ${v.status}`);
      t.equal(v.headers['content-type'], canonical.headers['content-type'], `${kind}: same media type`);
      t.equal(v.body, canonical.body, `${kind}: the same answer`);
      t.equal(v.headers['access-control-allow-origin'], '*', `${kind}: the CORS grant`);
      t.equal((await raw(running.url, url, { method: 'POST', headers: ORIGIN })).status, post.status, `${kind}: POST`);
      t.equal((await raw(full.url, url)).status, busy.status, `${kind}: admission (${busy.status} when full)`);
    }
  });
}

t.test('POST /api/mcp: the Host check, the body limit and the batch limit hold on every spelling', async (t) => {
  const list = JSON.stringify(rpc(1, 'tools/list'));
  const batch = JSON.stringify(Array.from({ length: 9 }, (_, i) => rpc(i + 1, 'ping')));
  const big = JSON.stringify({ ...rpc(1, 'ping'), params: { pad: 'x'.repeat(MAX_BODY_BYTES) } });
  const { port } = new URL(running.url);
  const mcp = cases.find((x) => x.template === '/api/mcp')!;
  for (const [kind, path] of Object.entries({ canonical: '/api/mcp', ...variants(mcp) })) {
    const ok = await raw(running.url, path, { method: 'POST', headers: MCP, body: list });
    t.equal(ok.status, 200, `${kind} ${path}: tools/list from another origin → 200`);
    t.ok(toolNames(ok.body).includes('search_items'), `${kind}: the tools are listed`);
    t.equal(ok.headers['access-control-allow-origin'], '*', `${kind}: the CORS grant`);
    const foreign = await raw(running.url, path, {
      method: 'POST',
      headers: { ...MCP, Host: `evil.example:${port}` },
      body: list,
    });
    t.equal(foreign.status, 403, `${kind}: a foreign Host → 403`);
    t.match(JSON.parse(foreign.body), { error: { message: /Invalid Host/ } });
    const malformed = await raw(running.url, path, { method: 'POST', headers: { ...MCP, Host: 'a b' }, body: list });
    t.equal(malformed.status, 400, `${kind}: a malformed Host → 400`);
    const over = await raw(running.url, path, { method: 'POST', headers: MCP, body: big });
    t.equal(over.status, 413, `${kind}: a body over ${MAX_BODY_BYTES} bytes → 413`);
    const many = await raw(running.url, path, { method: 'POST', headers: MCP, body: batch });
    t.equal(many.status, 400, `${kind}: a batch of 9 → 400`);
    t.match(JSON.parse(many.body), { error: { message: /at most 8 messages/ } });
    const pre = await raw(running.url, path, {
      method: 'OPTIONS',
      headers: { ...ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    t.equal(pre.status, 204, `${kind}: the preflight`);
    t.equal(pre.headers['access-control-allow-origin'], '*');
    t.equal(
      (await raw(full.url, path, { method: 'POST', headers: MCP, body: list })).status,
      503,
      `${kind}: admission`,
    );
  }
});
