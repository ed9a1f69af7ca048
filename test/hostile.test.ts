// Hostile clients on loopback: aborted POSTs and NDJSON pages, slow readers, slow bodies, header-only connections, MCP
// batches, forged Host headers, odd parameters and a SIGTERM with a half-open connection. After each, /api/health
// answers 200 within 2 s and nothing is left admitted. A server with 5 admission slots (pool 1, queue 4) shows any
// leak within a few dozen requests. `make chaos` runs the same scenarios longer (test/chaos/run.ts).
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';

import t, { type Test } from 'tap';

import type { Limits } from '../src/config.ts';
import type { Running } from '../src/server.ts';
import {
  abortedPages,
  abortedPosts,
  aftermath,
  batch,
  headerOnly,
  mcpBatches,
  slowBodies,
  slowReaders,
  type Target,
} from './chaos/scenarios.ts';
import type { Json } from './fixture.ts';
import { expectRefusal, FIXTURE_LAKE, get, schemaErrors, serveProcess, startFixtureServer } from './fixture.ts';

const LIMITS: Partial<Limits> = {
  headersTimeoutMs: 1500,
  bodyTimeoutMs: 1500,
  sendTimeoutMs: 2000,
  mcpDeadlineMs: 5000,
  drainMs: 2000,
};
const lines: string[] = [];
const running = await startFixtureServer({
  poolSize: 1,
  queueLimit: 4,
  queryTimeoutMs: 3000,
  limits: LIMITS,
  log: (l) => lines.push(l),
});
t.teardown(() => running.close());
const target = (r: Running): Target => ({ url: r.url, admitted: () => r.admitted() });
const server = target(running);

/** Health 200 within 2 s and admission back to zero. */
async function recovered(t: Test, r: Target = server) {
  const after = await aftermath(r);
  t.equal(after.health, 200, `/api/health answers 200 (${after.healthMs} ms)`);
  t.ok(after.healthMs < 2000, 'within 2 s');
  t.equal(after.admitted, 0, `nothing left admitted (settled in ${after.settledMs} ms)`);
}

const MCP = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** The JSON-RPC messages of an MCP answer, SSE or plain JSON. */
const messages = (text: string): Json[] =>
  text.startsWith('{') || text.startsWith('[')
    ? [JSON.parse(text)].flat()
    : text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)));

t.test('aborted POSTs and NDJSON pages give their slots back, and the release they held closes', async (t) => {
  const own = await startFixtureServer({ poolSize: 1, queueLimit: 4, limits: LIMITS });
  const release = own.lake.acquire();
  release.drop();
  for (const scenario of [abortedPosts, abortedPages]) {
    const outcome = await scenario(target(own), 40);
    t.equal(
      outcome.statuses.aborted,
      40,
      `${outcome.scenario}: every client left (${JSON.stringify(outcome.statuses)})`,
    );
    await recovered(t, target(own));
  }
  t.equal((await get(`${own.url}/api/search?q=roof`)).status, 200, 'an ordinary request is served afterwards');
  await own.close();
  t.notOk(existsSync(release.spillDir), 'the retired release closed: no request still holds it');
});

t.test('slow readers are cut off at the send timeout and give their slots back', async (t) => {
  const outcome = slowReaders(server, 3, 4000);
  await new Promise((r) => setTimeout(r, 800));
  t.ok(server.admitted() > 0, `while they stall, their answers are admitted work (${server.admitted()})`);
  const { heldAtEnd, statuses } = await outcome;
  t.equal(
    heldAtEnd,
    0,
    `2 s past the send timeout, still stalled, they hold no admission slot (${JSON.stringify(statuses)})`,
  );
  await recovered(t);
});

t.test('health and release files are answered outside admission, even when it is full', async (t) => {
  const full = await startFixtureServer({ poolSize: 1, queueLimit: 1 });
  t.teardown(() => full.close());
  // The one DuckDB connection held, as a long query would hold it: two snapshot pages are admitted and wait for it.
  // (Stalled readers do not fill admission for sure: the kernel takes a whole 1.4 MB page into its socket buffers.)
  const release = full.lake.acquire();
  let open!: () => void;
  const held = release.pool.with(() => new Promise<void>((r) => (open = r)));
  const pages = [1, 2].map(async (cursor) => {
    const r = await fetch(`${full.url}/api/snapshots/legislative-files?format=ndjson&limit=5&cursor=${cursor}`);
    return { status: r.status, text: await r.text() };
  });
  for (let i = 0; i < 100 && full.admitted() < 2; i++) await new Promise((r) => setTimeout(r, 30));
  t.equal(full.admitted(), 2, 'two waiting requests hold both admission slots');
  t.equal((await get(`${full.url}/api/search?q=roof`)).status, 503, 'an admitted request is turned away');
  const started = Date.now();
  const health = await get(`${full.url}/api/health`);
  t.equal(health.status, 200, `/api/health answers (${Date.now() - started} ms)`);
  t.equal(schemaErrors('health.json', health.json), '');
  t.equal(health.json.admitted, 2, 'and says how many requests are admitted');
  const file = await get(`${full.url}/api/releases/${full.lake.releaseId}/files/manifest.json`);
  t.equal(file.status, 200, 'release files do not count against admission');
  t.equal(JSON.parse(file.text).releaseId, full.lake.releaseId, 'the manifest of the served release');
  open();
  await held;
  release.drop();
  const answered = await Promise.all(pages);
  t.same(
    answered.map((p) => [p.status, p.text.trim().split('\n').length]),
    [
      [200, 5],
      [200, 5],
    ],
    'once the connection is free, both pages are answered',
  );
  await recovered(t, target(full));
});

t.test('slow request bodies are read before admission, and cut at the body timeout', async (t) => {
  const outcome = slowBodies(server, 8, 6000);
  await new Promise((r) => setTimeout(r, 400));
  t.equal(server.admitted(), 0, 'eight slow bodies hold no admission slot');
  const search = await get(`${running.url}/api/search?q=roof`);
  t.equal(search.status, 200, 'an ordinary request is served meanwhile');
  const { statuses } = await outcome;
  t.same(statuses, { 408: 8 }, 'each slow body gets 408 at the body timeout');
  const big = await get(`${running.url}/api/mcp`, {
    method: 'POST',
    headers: { ...MCP, 'Content-Length': String(2 * 1024 * 1024) },
    body: 'x'.repeat(2 * 1024 * 1024),
  });
  t.equal(big.status, 413, 'a body over 1 MiB is still 413');
  await recovered(t);
});

t.test('connections holding an unfinished request header are closed at the header timeout', async (t) => {
  const started = Date.now();
  const { statuses } = await headerOnly(server, 10, 6000);
  t.notOk(statuses.open, `every header-only connection was answered or closed (${JSON.stringify(statuses)})`);
  t.ok(Date.now() - started < 5000, `within the header timeout (${Date.now() - started} ms)`);
  await recovered(t);
});

t.test('MCP: batches are bounded, and one deadline answers the calls it did not start', async (t) => {
  const big = await mcpBatches(server, 20, 100);
  t.same(big.statuses, { 400: 20 }, '20 batches of 100 calls: each refused at once');
  t.ok(big.slowestMs < 3000, `the slowest refusal took ${big.slowestMs} ms`);
  const refusal = await get(`${running.url}/api/mcp`, { method: 'POST', headers: MCP, body: batch(9) });
  t.match(refusal.json, { error: { code: -32600, message: /at most 8 messages/ } }, 'the refusal says the bound');
  const small = await mcpBatches(server, 4, 8);
  t.same(small.statuses, { 200: 4 }, 'batches within the bound are served');
  await recovered(t);

  const hasty = await startFixtureServer({ limits: { mcpDeadlineMs: 1 } });
  t.teardown(() => hasty.close());
  const started = Date.now();
  const r = await get(`${hasty.url}/api/mcp`, {
    method: 'POST',
    headers: MCP,
    body: batch(8, 'ask', { q: 'How did Supervisor Kim vote on housing in 2016?' }),
  });
  const answers = messages(r.text);
  t.equal(answers.length, 8, 'every call is answered');
  const late = answers.filter((m) => m.result?.isError && /time limit/.test(m.result.content[0].text));
  t.ok(late.length >= 7, `${late.length} of 8 calls answered that the request's time limit passed`);
  t.ok(Date.now() - started < 5000, `the request ended in ${Date.now() - started} ms`);
});

/** A raw request with a Host header of our choosing (fetch will not send one). */
function withHost(
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(running.url);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: init.method ?? 'GET',
        headers: { ...init.headers, Host: host },
        setHost: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

t.test(
  'MCP Host and Origin: rebinding refused, a malformed Host is a 400, links never follow the Host header',
  async (t) => {
    const { port } = new URL(running.url);
    const init = {
      method: 'POST',
      headers: MCP,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    };
    const rebound = await withHost(`evil.example:${port}`, '/api/mcp', {
      ...init,
      headers: { ...MCP, Origin: `http://evil.example:${port}` },
    });
    t.equal(rebound.status, 403, 'DNS rebinding (a foreign name for our address, as Host and Origin) → 403');
    t.equal((await withHost('evil.example', '/api/mcp', init)).status, 403, 'a foreign Host without Origin → 403');
    for (const host of ['a b', '[::1', 'x:99999', ''])
      t.equal((await withHost(host, '/api/mcp', init)).status, 400, `Host '${host}' → 400`);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`])
      t.equal((await withHost(host, '/api/mcp', init)).status, 200, `Host ${host} → 200`);
    const search = JSON.parse((await withHost('evil.example', '/api/search?q=roof')).text);
    t.ok(
      search.results[0].transcriptUrl.startsWith(`${running.url}/`),
      `links use the server's own address (${search.results[0].transcriptUrl})`,
    );
    await recovered(t);
  },
);

t.test('integers are written in decimal digits only; odd timestamps are refused, never a 500', async (t) => {
  for (const v of ['0o10', '0b10', '0x10', '1e1', '%207', '7%20', '1.0', '+7'])
    await expectRefusal(t, `${running.url}/api/items?q=housing&limit=${v}`, 'limit', 'type');
  t.equal((await get(`${running.url}/api/items?q=housing&limit=007`)).status, 200, 'leading zeros are still decimal');
  for (const since of [
    '2016-12-31T23:59:60Z',
    '9999-12-31T23:59:59-01:00',
    '2016-13-01T00:00:00Z',
    '2016-02-30T00:00:00Z',
  ]) {
    await expectRefusal(t, `${running.url}/api/changes?since=${encodeURIComponent(since)}`, 'since', 'format');
  }
  const ok = await get(`${running.url}/api/changes?since=${encodeURIComponent('2016-12-31T23:59:59+01:00')}`);
  t.equal(ok.status, 200, 'a proper timestamp with an offset is served');
});

t.test('/assets/ answers only its own files', async (t) => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    const r = await get(`${running.url}/assets/${name}`);
    t.equal(r.status, 404, `/assets/${name} → 404`);
    t.equal(schemaErrors('problem.json', r.json), '');
  }
  t.equal((await get(`${running.url}/assets/app.css`)).status, 200);
});

t.test('user text cannot add Markdown structure to a .md answer', async (t) => {
  const q = encodeURIComponent(
    'roof\n# Injected heading\n| a | b |\n```\n- [x](javascript:alert(1)) "p\n## Injected phrase"',
  );
  for (const path of [
    `/api/search.md?q=${q}`,
    `/api/items.md?q=${q}`,
    `/api/comments.md?q=${q}`,
    `/api/query.md?q=${q}`,
  ]) {
    const r = await get(`${running.url}${path}`);
    t.equal(r.status, 200, path);
    const [title, ...rest] = r.text.split('\n');
    t.match(
      title,
      /^# .*: roof \\# Injected heading \\\| a \\\| b \\\| \\`\\`\\` - \\\[x\\\]\(javascript:alert\(1\)\) "p \\#\\# Injected phrase"$/,
      `${path.slice(0, 16)}: the title holds the text on one line, escaped`,
    );
    const injected = rest.filter((l) => /^(#|\||```|- \[x\])/.test(l) && /Injected|\| a \||^```$|javascript/.test(l));
    t.same(injected, [], 'no injected heading, table, fence or list below it');
  }
});

t.test('a malformed connection logs one JSON line, never a stack trace', async (t) => {
  lines.length = 0;
  const { port } = new URL(running.url);
  const send = (raw: string) =>
    new Promise<void>((resolve) => {
      const s = connect(Number(port), '127.0.0.1', () => s.end(raw));
      s.on('error', () => {});
      s.on('close', () => resolve());
      s.resume();
    });
  await send('GARBAGE\r\n\r\n');
  await send('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
  await send(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20000)}\r\n\r\n`);
  await abortedPosts(server, 3);
  await new Promise((r) => setTimeout(r, 300));
  const bad = lines.filter((l) => /\n\s+at |\\n\s+at |"stack"/.test(l));
  t.same(bad, [], 'no stack trace in the log');
  t.ok(
    lines.every((l) => !l.includes('\n') && typeof JSON.parse(l) === 'object'),
    `every log line is one JSON object (${lines.length})`,
  );
  t.ok(
    lines.some((l) => JSON.parse(l).event === 'bad-request'),
    'a malformed request is logged as one line',
  );
  await recovered(t);
});

t.test('SIGTERM: a connection holding an unfinished header does not keep the process alive', async (t) => {
  const { child, url, exited } = await serveProcess({
    LAKE: FIXTURE_LAKE,
    WATCH_MS: '0',
    DRAIN_MS: '2000',
    HEADERS_TIMEOUT_MS: '60000',
  });
  t.teardown(() => child.kill('SIGKILL'));
  const held = connect(Number(new URL(url).port), '127.0.0.1', () =>
    held.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
  );
  held.on('error', () => {});
  const inFlight = fetch(`${url}/api/snapshots/recorded-positions?format=ndjson&limit=1000`).then((r) => r.text());
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  child.kill('SIGTERM');
  const code = await Promise.race([
    exited,
    new Promise<string>((r) => setTimeout(() => r('still running after 8 s'), 8000)),
  ]);
  t.equal(code, 0, `exited cleanly (${Date.now() - started} ms after SIGTERM)`);
  t.ok(Date.now() - started < 5000, 'within the 2 s drain and a little');
  t.ok((await inFlight.catch(() => '')).length > 0, 'the request in flight was answered');
  held.destroy();
});
