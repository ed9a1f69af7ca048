// The cases of `make chaos` that need a lake or a server of their own: slow download readers holding every slot,
// a thousand unfinished MCP bodies, a release file swapped for a link, a release folder whose manifest names another
// id. Each returns what it checked and what it saw; `failed` lists every check that did not hold.
// test/downloads.test.ts shares `paddedLake` and `reader`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { pointCurrent } from '../../pipelines/publish/release.ts';
import { type Running, start } from '../../src/server.ts';
import { FIXTURE_LAKE, fixtureRelease, type Json, serveProcess, testConfig } from '../fixture.ts';

export interface Checked {
  scenario: string;
  /** Each check: what it asserts, and what was seen. */
  checks: { what: string; ok: boolean; seen: string }[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = 1024 * 1024;

/** A lake of its own holding the fixture release (hard links) as current, its manifest a file of its own. */
async function lakeOf(): Promise<{ lake: string; id: string; manifest: Json }> {
  const id = await fixtureRelease();
  const lake = await mkdtemp(join(tmpdir(), 'lake-chaos-'));
  await mkdir(join(lake, 'releases'));
  const dir = join(lake, 'releases', id);
  execFileSync('cp', ['-al', join(FIXTURE_LAKE, 'releases', id), dir]);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  await rm(join(dir, 'manifest.json')); // a hard link to the fixture's: never written through
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  await pointCurrent(lake, id);
  return { lake, id, manifest };
}

/**
 * A lake whose release lists one more file, `padding.bin` (64 MB), larger than what the loopback's socket buffers take
 * in from a reader that reads nothing. `path` is its URL path.
 */
export async function paddedLake(): Promise<{ lake: string; id: string; path: string; file: string; big: Buffer }> {
  const { lake, id, manifest } = await lakeOf();
  const file = join(lake, 'releases', id, 'padding.bin');
  const big = Buffer.alloc(64 * MB, 'board records ');
  await writeFile(file, big);
  const sha256 = createHash('sha256').update(big).digest('hex');
  manifest.tables.padding = { files: [{ path: 'padding.bin', sha256, bytes: big.length, rows: 0 }], rows: 0 };
  await rm(join(lake, 'releases', id, 'manifest.json'));
  await writeFile(join(lake, 'releases', id, 'manifest.json'), JSON.stringify(manifest));
  return { lake, id, path: `/api/releases/${id}/files/padding.bin`, file, big };
}

/**
 * A download of `path` from loopback address `from` (each client its own address) whose client reads `bytesPerS` (a
 * few bytes at a time below 64): `got` counts what it read, `done` resolves when the connection ends.
 */
export function reader(url: string, path: string, from: string, bytesPerS: number, range = '') {
  const socket = connect({ port: Number(new URL(url).port), host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${range ? `Range: bytes=${range}\r\n` : ''}\r\n`);
  const state = { got: 0, done: new Promise<void>((resolve) => socket.once('close', () => resolve())) };
  const started = Date.now();
  socket.pause();
  const tick = setInterval(() => {
    // what the rate allows by now, taken from what has arrived
    for (let want = (bytesPerS * (Date.now() - started)) / 1000 - state.got; want >= 1;) {
      const chunk = socket.read(Math.min(Math.floor(want), socket.readableLength)) as Buffer | null;
      if (!chunk) break;
      state.got += chunk.length;
      want -= chunk.length;
    }
  }, 50);
  void state.done.then(() => clearInterval(tick));
  return Object.assign(state, { socket });
}

const until = async (ok: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end;) await sleep(10);
  return ok();
};

/**
 * `n` readers taking 4 bytes a second, each from an address of its own, hold every download slot (default limits);
 * a new download's first byte must come within 2 s, and every slot is let go once they leave.
 */
export async function slowDownloads(running: Running, path: string, size: number, n = 32): Promise<Checked> {
  const { downloads } = running;
  const slow = Array.from({ length: n }, (_, i) => reader(running.url, path, `127.0.1.${i + 1}`, 4));
  const held = await until(() => downloads.active === 16 && downloads.waiters > 0, 10_000);
  const holding = `${downloads.active} held, ${downloads.waiters} waiting`;
  const asked = Date.now();
  let status = 0;
  let waited = 0;
  let bytes = 0;
  try {
    const res = await fetch(`${running.url}${path}`, { signal: AbortSignal.timeout(30_000) });
    status = res.status;
    // A reader that keeps up takes the whole file.
    const body = res.body!.getReader();
    for (let r = await body.read(); !r.done; r = await body.read()) {
      waited ||= Date.now() - asked;
      bytes += r.value.length;
    }
  } catch {
    // seen as what arrived so far
  }
  slow.forEach((s) => s.socket.destroy());
  const freed = await until(() => downloads.active === 0 && downloads.waiters === 0, 5000);
  return {
    scenario: `${n} slow download readers`,
    checks: [
      { what: 'every slot held, others waiting', ok: held, seen: holding },
      {
        what: 'a new download starts within 2 s',
        ok: status === 200 && waited > 0 && waited < 2000,
        seen: `${status}, first byte after ${waited} ms`,
      },
      { what: 'and gets the whole file', ok: bytes === size, seen: `${bytes} of ${size} bytes` },
      { what: 'every slot let go after', ok: freed, seen: `${downloads.active} held, ${downloads.waiters} waiting` },
    ],
  };
}

/** The release file behind `path` swapped for a link to itself: GET and HEAD are 409 naming it, never its old ETag. */
export async function swappedFile(running: Running, path: string, file: string): Promise<Checked> {
  const before = await fetch(`${running.url}${path}`, { method: 'HEAD' });
  const moved = `${file}.moved`;
  await rename(file, moved);
  await symlink(moved, file);
  const checks: Checked['checks'] = [
    { what: 'served while as verified', ok: before.status === 200, seen: String(before.status) },
  ];
  try {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${running.url}${path}`, { method });
      const body = method === 'GET' ? await res.text() : '';
      checks.push({
        what: `${method} of the link: 409, no ETag`,
        ok: res.status === 409 && res.headers.get('etag') === null,
        seen: `${res.status}, ETag ${res.headers.get('etag')}`,
      });
      if (method === 'GET')
        checks.push({
          what: 'the problem names the file',
          ok: body.includes('padding.bin was replaced by a link'),
          seen: body.slice(0, 120),
        });
    }
  } finally {
    await rm(file);
    await rename(moved, file);
  }
  return { scenario: 'release file swapped for a link', checks };
}

/** The server process's resident memory (VmRSS) and CPU time (utime + stime), in bytes and ms. */
export async function usage(pid: number): Promise<{ rss: number; cpuMs: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return {
    rss: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024,
    cpuMs: (Number(stat[11]) + Number(stat[12])) * 10, // fields 14 and 15, in ticks of 10 ms
  };
}

const HALF_MB = Buffer.alloc(MB / 2, ' '); // one buffer written to every socket: no copies held

/** A client that declares a 1 MB MCP body, sends half of it and stalls; `answer`: what it was answered, at close. */
export function stalledMcpBody(port: number): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${MB}\r\n\r\n`,
  );
  socket.write(HALF_MB);
  let got = '';
  socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
  return { socket, answer: new Promise<string>((resolve) => socket.once('close', () => resolve(got))) };
}

/** The status code of a raw HTTP/1.1 answer; 'closed' when none came. */
export const rawStatus = (answer: string) => /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'closed';

/**
 * `n` clients each declare a 1 MB MCP body, send half of it and stall, against a server process of its own: it must
 * grow by less than 100 MB, answer each 503 (at once, past the budget) or 408 (at the body timeout), and answer an
 * ordinary request meanwhile.
 */
export async function unfinishedBodies(n = 1000): Promise<Checked> {
  const { child, url } = await serveProcess({
    LAKE: FIXTURE_LAKE,
    WATCH_MS: '0',
    BODY_TIMEOUT_MS: '8000',
    HEADERS_TIMEOUT_MS: '30000',
  });
  try {
    const port = Number(new URL(url).port);
    await fetch(`${url}/api/health`).then((r) => r.arrayBuffer());
    const before = (await usage(child.pid!)).rss;
    let peak = before;
    const sampler = setInterval(
      () =>
        void usage(child.pid!).then(
          (u) => (peak = Math.max(peak, u.rss)),
          () => {},
        ),
      50,
    );
    const clients = Array.from({ length: n }, () => stalledMcpBody(port));
    const answers = clients.map((c) => c.answer.then(rawStatus));
    await sleep(3000);
    const search = await fetch(`${url}/api/search?q=housing&limit=1`, { signal: AbortSignal.timeout(5000) }).catch(
      () => null,
    );
    const statuses: Record<string, number> = {};
    for (const s of await Promise.all(answers)) statuses[s] = (statuses[s] ?? 0) + 1;
    clearInterval(sampler);
    const grew = (peak - before) / MB;
    return {
      scenario: `${n} unfinished MCP bodies`,
      checks: [
        { what: 'the server grows by less than 100 MB', ok: grew < 100, seen: `${grew.toFixed(1)} MB` },
        {
          what: 'each answered 503 or 408',
          ok: (statuses['503'] ?? 0) + (statuses['408'] ?? 0) === n,
          seen: JSON.stringify(statuses),
        },
        { what: 'a search answered meanwhile', ok: search?.status === 200, seen: String(search?.status ?? 'failed') },
      ],
    };
  } finally {
    child.kill('SIGKILL');
  }
}

/**
 * `lake/current` names a folder whose manifest says another release, with the lake checked every 200 ms for 5 s: the
 * folder is refused once, health says so, and the server's CPU stays low (no verification on every check).
 */
export async function misnamedRelease(): Promise<Checked> {
  const { lake, id, manifest } = await lakeOf();
  const odd = 'ffffffffffffffff';
  execFileSync('cp', ['-al', join(lake, 'releases', id), join(lake, 'releases', odd)]);
  await rm(join(lake, 'releases', odd, 'manifest.json'));
  await writeFile(join(lake, 'releases', odd, 'manifest.json'), JSON.stringify(manifest)); // says release `id`
  const { child, url } = await serveProcess({ LAKE: lake, WATCH_MS: '200' });
  try {
    await pointCurrent(lake, odd);
    await sleep(1000); // the first check refuses it
    const cpu = (await usage(child.pid!)).cpuMs;
    await sleep(5000);
    const busy = ((await usage(child.pid!)).cpuMs - cpu) / 5000;
    const health = (await (await fetch(`${url}/api/health`)).json()) as {
      status: string;
      release: string;
      refusedReleases: { release: string }[];
    };
    const refused = health.refusedReleases.filter((r) => r.release === odd).length;
    return {
      scenario: 'release folder misnamed',
      checks: [
        { what: 'health says degraded', ok: health.status === 'degraded', seen: health.status },
        { what: 'the release served goes on', ok: health.release === id, seen: health.release },
        { what: 'refused once', ok: refused === 1, seen: `${refused} refusals` },
        { what: 'CPU below 10% of a core', ok: busy < 0.1, seen: `${(busy * 100).toFixed(1)}%` },
      ],
    };
  } finally {
    child.kill('SIGKILL');
    await rm(lake, { recursive: true, force: true });
  }
}

/** Every case above, each on its own server. */
export async function releaseCases(): Promise<Checked[]> {
  const padded = await paddedLake();
  const running = await start(testConfig({ lakeDir: padded.lake }));
  const results: Checked[] = [];
  try {
    results.push(await slowDownloads(running, padded.path, padded.big.length));
    results.push(await swappedFile(running, padded.path, padded.file));
  } finally {
    await running.close();
    await rm(padded.lake, { recursive: true, force: true });
  }
  results.push(await unfinishedBodies());
  results.push(await misnamedRelease());
  return results;
}
