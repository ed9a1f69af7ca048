// CORS for browser pages of other sites, /api/mcp included: a page served by another server under another name
// (civic-app.example, resolved to loopback by Chromium) lists the MCP tools and calls one with fetch() and JSON-RPC,
// and reads the REST headers CORS exposes. The Host check (DNS rebinding) still refuses a foreign Host.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Browser } from 'playwright-core';
import t from 'tap';

import { launch } from './browser.ts';
import type { Json } from './fixture.ts';
import { get, startFixtureServer } from './fixture.ts';
import { answerForHost } from './openapi-requests.ts';

const running = await startFixtureServer();
const api = running.url;
const { json: health } = await get(`${api}/api/health`);

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

// The other site's page: plain script of its own, calling the API's MCP endpoint and a REST page cross-origin; what it
// got is left in window.done.
const SCRIPT = `
const endpoint = ${JSON.stringify(`${api}/api/mcp`)};
let id = 0;
async function rpc(method, params, version) {
  const headers = ${JSON.stringify(MCP_HEADERS)};
  if (version) headers['MCP-Protocol-Version'] = version;
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const text = await res.text();
  const data = text.startsWith('{') ? text : text.split('\\n').find((l) => l.startsWith('data: ')).slice(6);
  return { status: res.status, release: res.headers.get('X-Release-Id'), message: JSON.parse(data) };
}
async function run() {
  const init = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'civic-app', version: '1.0.0' } });
  const version = init.message.result.protocolVersion;
  const list = await rpc('tools/list', {}, version);
  const call = await rpc('tools/call', { name: 'search_items', arguments: { q: '160965', limit: 5 } }, version);
  const res = await fetch(${JSON.stringify(`${api}/api/meetings?limit=2`)});
  const body = await res.json();
  const rest = { count: body.meetings.length, link: res.headers.get('Link'), etag: res.headers.get('ETag'), release: res.headers.get('X-Release-Id') };
  return { init, list, call, rest };
}
run().then((r) => { window.done = r; }, (e) => { window.done = { error: String(e) }; });
`;
const site = createServer((_, res) => {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><title>Civic app</title><h1>Civic app</h1><script>${SCRIPT}</script>`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const sitePort = (site.address() as AddressInfo).port;
const SITE = `http://civic-app.example:${sitePort}`;

const browser: Browser = await launch(['--host-resolver-rules=MAP civic-app.example 127.0.0.1']);
t.teardown(async () => {
  await browser.close();
  await new Promise((resolve) => site.close(resolve));
  await running.close();
});

t.test('a page of another site lists the MCP tools and searches with fetch()', async (t) => {
  const page = await browser.newPage();
  const seen: { method: string; url: string }[] = [];
  page.on('request', (r) => seen.push({ method: r.method(), url: r.url() }));
  await page.goto(`${SITE}/`);
  t.equal(await page.evaluate(() => location.origin), SITE, 'the page is of another origin');

  await page.waitForFunction(() => (window as unknown as { done?: object }).done, undefined, { timeout: 60_000 });
  const result: Json = await page.evaluate(() => (window as unknown as { done: object }).done);
  t.notOk(result.error, `no error in the page${result.error ? `: ${result.error}` : ''}`);
  t.equal(result.init.status, 200, 'initialize answered');
  t.equal(result.init.message.result.serverInfo.name, 'board-records');
  t.same(result.init.message.result.capabilities.tools, { listChanged: false }, 'no list changes on a fixed tool list');
  const names = result.list.message.result.tools.map((x: Json) => x.name);
  t.ok(names.includes('search_items') && names.includes('ask'), `the tools are listed (${names.length})`);
  t.equal(result.call.status, 200);
  t.equal(result.call.release, health.release, 'the page reads X-Release-Id (exposed)');
  const found = result.call.message.result.structuredContent.results;
  t.ok(
    found.some((x: Json) => x.fileNumber === '160965' && x.id === '2016-11-01-minutes-160965'),
    'the search found file 160965 in the 2016-11-01 minutes',
  );
  t.ok(
    seen.some((r) => r.method === 'POST' && r.url === `${api}/api/mcp`),
    'the calls went to the API server, cross-origin',
  );

  const rest = result.rest;
  t.equal(rest.count, 2, 'a REST page of 2 meetings');
  t.match(rest.link, /rel="next"/, 'Link is readable');
  t.match(rest.etag, /^(W\/)?"/, 'ETag is readable');
  t.equal(rest.release, health.release);
  await page.close();
});

t.test('the preflight of /api/mcp grants what MCP clients send, and nothing of credentials', async (t) => {
  const pre = await fetch(`${api}/api/mcp`, {
    method: 'OPTIONS',
    headers: {
      Origin: SITE,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers':
        'content-type,mcp-protocol-version,mcp-session-id,mcp-method,mcp-name,last-event-id,authorization,traceparent',
    },
  });
  t.equal(pre.status, 204);
  t.equal(pre.headers.get('access-control-allow-origin'), '*');
  t.match(pre.headers.get('access-control-allow-methods'), /\bPOST\b/);
  const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
  const mcp = ['mcp-protocol-version', 'mcp-session-id', 'mcp-method', 'mcp-name', 'last-event-id'];
  for (const h of ['content-type', ...mcp]) t.ok(allowed.includes(h), `${h} allowed`);
  t.ok(allowed.includes('traceparent'), 'what a client library adds is granted too');
  t.ok(allowed.includes('authorization'), 'an Authorization header a client sends anyway is granted, and ignored');
  t.equal(pre.headers.get('access-control-allow-credentials'), null, 'never credentials: no cookie goes with it');
});

t.test('a foreign Host is still refused: the page cannot be reached under a rebound name', async (t) => {
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const rebound = await answerForHost(`${api}/api/mcp`, `civic-app.example:${new URL(api).port}`, {
    headers: { ...MCP_HEADERS, Origin: SITE },
    body: ping,
  });
  t.equal(rebound.status, 403, 'a Host naming another site → 403');
  t.match((rebound.body as Json).error.message, /Invalid Host/);
  const own = await answerForHost(`${api}/api/mcp`, new URL(api).host, {
    headers: { ...MCP_HEADERS, Origin: SITE },
    body: ping,
  });
  t.equal(own.status, 200, 'our own Host with a foreign Origin → 200');
  t.equal(own.headers.get('access-control-allow-origin'), '*');
});
