// Request bodies held in memory are capped in total across requests: a thousand clients that each declare a 1 MB MCP
// body, send half of it and stall cannot grow the server by more than the cap (MCP_BODY_BYTES_TOTAL) and a little;
// the ones past it are answered 503 with Retry-After at once, the rest 408 at the body timeout, and ordinary requests,
// MCP ones included, are answered meanwhile.
import t from 'tap';

import { rawStatus, stalledMcpBody, usage } from './chaos/releases.ts';
import { FIXTURE_LAKE, fixtureRelease, get, serveProcess } from './fixture.ts';

await fixtureRelease();
const { child, url } = await serveProcess({
  LAKE: FIXTURE_LAKE,
  WATCH_MS: '0',
  BODY_TIMEOUT_MS: '8000',
  HEADERS_TIMEOUT_MS: '30000',
});
t.teardown(() => child.kill('SIGKILL'));
const port = Number(new URL(url).port);

const MCP = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const listTools = () =>
  get(`${url}/api/mcp`, {
    method: 'POST',
    headers: MCP,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

const MB = 1024 * 1024;
const rss = async () => (await usage(child.pid!)).rss;

t.test('1,000 unfinished 1 MB MCP bodies grow the server by less than 100 MB', async (t) => {
  const warm = await listTools();
  t.equal(warm.status, 200, 'an MCP request is answered before');
  const before = await rss();
  const clients = Array.from({ length: 1000 }, () => stalledMcpBody(port));
  t.teardown(() => clients.forEach((c) => c.socket.destroy()));
  let peak = before;
  const sampler = setInterval(() => void rss().then((r) => (peak = Math.max(peak, r))), 50);
  await new Promise((r) => setTimeout(r, 3000)); // every client has sent its half and stalls

  const search = await get(`${url}/api/search?q=housing&limit=1`);
  t.equal(search.status, 200, 'an ordinary request is answered meanwhile');
  const tools = await listTools();
  t.equal(tools.status, 200, 'so is a small MCP request');
  t.match(tools.text, '"get_meeting"', 'and it lists the tools');

  const answers = await Promise.all(clients.map((c) => c.answer));
  clearInterval(sampler);
  const grew = (peak - before) / MB;
  t.ok(grew < 100, `the server grew by ${grew.toFixed(1)} MB at most (${(before / MB).toFixed(0)} MB before)`);
  const counts: Record<string, number> = {};
  for (const a of answers) counts[rawStatus(a)] = (counts[rawStatus(a)] ?? 0) + 1;
  t.ok((counts['503'] ?? 0) >= 900, `most are refused at once (${JSON.stringify(counts)})`);
  t.ok(
    answers.filter((a) => rawStatus(a) === '503').every((a) => /\r\nretry-after: 1\r\n/i.test(a)),
    'each 503 says when to retry',
  );
  t.equal((counts['503'] ?? 0) + (counts['408'] ?? 0), 1000, 'the others get 408 at the body timeout');
});
