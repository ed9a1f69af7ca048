// Backpressure on NDJSON snapshots from clients that read slowly: raw TCP clients that take a few bytes of a large page
// and stop reading. The server reads each page's records from DuckDB once (no query runs while the clients are paused),
// keeps no DuckDB connection for them (one connection serves other requests meanwhile), and once the clients read
// again, each gets the whole page as valid NDJSON. On loopback the kernel's socket buffers (up to 4 MiB a socket) take
// a whole 1.4 MB page, so this checks the outcome, not which of kernel or server held the unsent bytes.
import { connect, type Socket } from 'node:net';

import t from 'tap';

import type { Json } from './fixture.ts';
import { get, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer({ poolSize: 1, queueLimit: 8, queryTimeoutMs: 3000 });
t.teardown(() => running.close());
const { port } = new URL(running.url);
const serverSockets: Socket[] = [];
running.server.on('connection', (s: Socket) => serverSockets.push(s));

/** A raw HTTP/1.1 GET that reads the first bytes, then stops reading until `resume()`; `done` holds the whole response. */
function slowGet(path: string) {
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  let received = 0;
  const firstBytes = new Promise<void>((resolve) =>
    socket.once('data', () => {
      socket.pause();
      resolve();
    }),
  );
  socket.on('data', (b: Buffer) => {
    chunks.push(b);
    received += b.length;
  });
  const done = new Promise<Buffer>((resolve, reject) => {
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
  return { firstBytes, done, received: () => received, resume: () => socket.resume() };
}

function parseResponse(raw: Buffer) {
  const split = raw.indexOf('\r\n\r\n');
  const [status, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status, headers, body: raw.subarray(split + 4) };
}

t.test('paused readers of large NDJSON pages: bounded work, a free pool, then every page whole', async (t) => {
  const cursors = [0, 100, 200, 249];
  const paths = cursors.map((c) => `/api/snapshots/legislative-files?format=ndjson&limit=1000&cursor=${c}`);
  const release = running.lake.acquire();
  t.teardown(() => release.drop());
  const before = release.pool.leased;
  const clients = paths.map(slowGet);
  await Promise.all(clients.map((c) => c.firstBytes));
  const atFirstBytes = release.pool.leased;
  await new Promise((r) => setTimeout(r, 1500));

  t.equal(release.pool.leased, atFirstBytes, 'no DuckDB query runs while the clients are paused');
  t.ok(
    atFirstBytes - before <= 2,
    `the four pages (4000 records asked for) took ${atFirstBytes - before} DuckDB queries (one window and its ordering)`,
  );
  const received = clients.map((c) => c.received());
  t.ok(
    received.every((n) => n < 1_000_000),
    `each paused client has read only its first bytes (${received.join(', ')})`,
  );
  const held = serverSockets.reduce((n, s) => n + s.writableLength, 0);
  t.ok(
    held < 4 * 1_500_000,
    `the server holds at most the four pages' unsent bytes (${held} not yet taken by the kernel)`,
  );

  const started = Date.now();
  const other = await get(`${running.url}/api/snapshots/documents?limit=3`);
  t.equal(other.json.records.length, 3, 'another request meanwhile gets its records');
  t.ok(
    Date.now() - started < 2000,
    `with one DuckDB connection, another request is answered while they wait (${Date.now() - started} ms)`,
  );

  for (const c of clients) c.resume();
  const responses = (await Promise.all(clients.map((c) => c.done))).map(parseResponse);
  for (const [i, r] of responses.entries()) {
    t.equal(r.status, 'HTTP/1.1 200 OK', paths[i]);
    t.equal(Number(r.headers['content-length']), r.body.length, `${paths[i]}: all ${r.body.length} bytes arrived`);
    const lines = r.body.toString('utf8').split('\n');
    t.equal(lines.pop(), '', 'the last line ends in a newline');
    const records = lines.map((l) => JSON.parse(l));
    const page = await get(`${running.url}/api/snapshots/legislative-files?limit=1000&cursor=${cursors[i]}`);
    t.equal(records.length, page.json.returned, `${paths[i]}: ${records.length} records, as many as the JSON page`);
    t.same(
      records.map((x) => x.file_number),
      page.json.records.map((x: Json) => x.file_number),
      'the same records in the same order',
    );
    t.equal(r.headers['x-total-count'], String(page.json.total), "X-Total-Count is the entity's count");
  }
});
