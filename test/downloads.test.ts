// Release file downloads: their own bounded pool (503 with Retry-After beyond it), a slot let go exactly once however
// the download ends (done, aborted, cut off), and a reader that stalls or takes too long is cut off. Kept releases
// are listed even when one's manifest cannot be read.
import { createHash } from 'node:crypto';
import { cp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';

import t, { type Test } from 'tap';

import type { Limits } from '../src/config.ts';
import { type Running, start } from '../src/server.ts';
import { paddedLake, reader } from './chaos/releases.ts';
import type { Json } from './fixture.ts';
import { FIXTURE_LAKE, get, schemaErrors, testConfig } from './fixture.ts';

// The fixture release with one more file listed in its manifest, larger than what the loopback's socket buffers take
// in (a few MB) from a reader that reads nothing.
const { lake, id, path, big } = await paddedLake();
t.teardown(() => rm(lake, { recursive: true, force: true }));
const BIG = 'padding.bin';

/** A server over that lake with these download bounds, closed when the test ends. */
async function serve(t: Test, limits: Partial<Limits>): Promise<Running> {
  const running = await start(testConfig({ lakeDir: lake, limits }));
  t.teardown(() => running.close());
  return running;
}

/** A download whose client sends the request and then reads nothing. Resolves once the server has started sending. */
async function stalled(running: Running): Promise<Socket> {
  const { port } = new URL(running.url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await new Promise<void>((resolve) => socket.once('readable', () => resolve()));
  socket.pause();
  return socket;
}

const until = async (what: string, ok: () => boolean, ms = 4000) => {
  for (let i = 0; i < ms / 10 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

t.test(
  'at most downloadMax downloads at once; beyond that 503 with Retry-After, and the API still answers',
  async (t) => {
    // No reader is too slow (a minimum of 0): a third waits two rate windows for a slot, then is turned away.
    const running = await serve(t, { downloadMax: 2, downloadMinBytesPerS: 0, downloadGraceMs: 40 });
    const { downloads } = running;
    const [a, b] = [await stalled(running), await stalled(running)];
    await until('two downloads in progress', () => downloads.active === 2);
    const refused = await get(`${running.url}${path}`);
    t.equal(refused.status, 503, 'a third download is turned away');
    t.equal(refused.headers.get('retry-after'), '5');
    t.match(refused.json, { title: 'Downloads busy', detail: /2 release files are being downloaded; retry shortly/ });
    t.equal(
      (await get(`${running.url}/api/releases/${id}/files/manifest.json`)).status,
      200,
      'its manifest is not a download: served',
    );
    t.equal((await fetch(`${running.url}${path}`, { method: 'HEAD' })).status, 200, 'nor is a HEAD');
    t.equal((await get(`${running.url}/api/health`)).status, 200, 'health answers');

    a.destroy(); // the client goes away mid-download
    await until('the aborted download to let go of its slot', () => downloads.active === 1);
    const whole = await fetch(`${running.url}${path}`);
    t.equal(whole.status, 200, 'a slot is free again');
    const body = Buffer.from(await whole.arrayBuffer());
    t.equal(
      `"${createHash('sha256').update(body).digest('hex')}"`,
      whole.headers.get('etag'),
      'the body matches its ETag',
    );
    b.destroy();
    await until('every slot to be let go', () => downloads.active === 0);
    await new Promise((r) => setTimeout(r, 100));
    t.equal(downloads.active, 0, 'exactly once each: never below zero');
  },
);

/** Reads what the server sent a stalled client until the connection ends: the bytes it got. */
function drain(s: Socket): Promise<number> {
  let bytes = 0;
  s.on('data', (d: Buffer) => {
    bytes += d.length;
  });
  s.resume();
  return new Promise((resolve) => s.once('close', () => resolve(bytes)));
}

for (const [setting, value] of [
  ['downloadIdleMs', 300],
  ['downloadSendMs', 400],
] as const) {
  t.test(
    `a download ${setting === 'downloadIdleMs' ? 'whose reader takes nothing for downloadIdleMs' : 'not done after downloadSendMs'} is cut off, and its slot let go`,
    async (t) => {
      const running = await serve(t, { [setting]: value });
      const { downloads } = running;
      const started = Date.now();
      const s = await stalled(running);
      await until('the download to start', () => downloads.active === 1);
      await until('the server to cut it off', () => downloads.active === 0);
      t.ok(Date.now() - started < 3000, `cut off after ${Date.now() - started} ms`);
      const got = await drain(s);
      t.ok(got < big.length, `the client got ${got} of ${big.length} bytes, then the connection closed`);
      t.equal(downloads.active, 0, 'slot let go once');
    },
  );
}

t.test(
  'default limits: with 32 readers taking a few bytes a second, a new download starts within 2 s; an honest one is not cut',
  async (t) => {
    const running = await serve(t, {});
    const { downloads } = running;
    // An honest reader (1 MiB/s, well above the minimum rate) of the first 16 MiB, going for a few seconds: on
    // loopback the kernel takes 4 MB at once, then more only as a third of that is read.
    const honest = reader(running.url, path, '127.0.0.2', 1024 * 1024, `0-${16 * 1024 * 1024 - 1}`);
    await new Promise((r) => setTimeout(r, 3000));
    // 32 slow readers, each from an address of its own: no address holds more than its share.
    const slow = Array.from({ length: 32 }, (_, i) => reader(running.url, path, `127.0.1.${i + 1}`, 4));
    t.teardown(() => slow.forEach((s) => s.socket.destroy()));
    await until('every slot to be held and more waiting', () => downloads.active === 16 && downloads.waiters > 8);
    const asked = Date.now();
    const res = await fetch(`${running.url}${path}`);
    const body = res.body!.getReader();
    const first = await body.read();
    const waited = Date.now() - asked;
    t.equal(res.status, 200, 'the new download is served, not turned away');
    t.ok(first.value!.length > 0 && waited < 2000, `its first byte came after ${waited} ms`);
    const hash = createHash('sha256').update(first.value!);
    for (let r = await body.read(); !r.done; r = await body.read()) hash.update(r.value);
    t.equal(`"${hash.digest('hex')}"`, res.headers.get('etag'), 'a reader that keeps up gets the whole file');
    await until(
      `the honest reader to get its range (${honest.got} so far)`,
      () => honest.got > 16 * 1024 * 1024,
      20_000,
    );
    t.pass(`the honest reader got all of its range, never cut (${honest.got} bytes with the header)`);
    honest.socket.destroy();
    t.ok(
      slow.every((s) => s.got < 1024),
      'the slow readers took a few bytes each',
    );
    slow.forEach((s) => s.socket.destroy());
    await until('every slot to be let go', () => downloads.active === 0 && downloads.waiters === 0);
    t.pass('no slot held and nobody waiting once they are gone');
  },
);

t.test(
  'a release file swapped for a link or resized since the release was verified is refused, naming it',
  async (t) => {
    const running = await serve(t, {});
    const file = join(lake, 'releases', id, BIG);
    t.equal((await fetch(`${running.url}${path}`, { method: 'HEAD' })).status, 200, 'served while it is as verified');
    const moved = `${file}.moved`;
    await rename(file, moved);
    await symlink(moved, file);
    t.teardown(async () => {
      await rm(file, { force: true });
      await rename(moved, file).catch(() => {});
    });
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${running.url}${path}`, { method });
      t.equal(res.status, 409, `${method} of a file swapped for a link: 409`);
      t.equal(res.headers.get('etag'), null, 'never under the old ETag');
      if (method === 'GET')
        t.match(await res.json(), { title: 'Release file changed', file: BIG, detail: /was replaced by a link/ });
    }
    await rm(file);
    await writeFile(file, big.subarray(0, 1000));
    const short = await get(`${running.url}${path}`);
    t.equal(short.status, 409, 'a truncated file: 409');
    t.match(short.json.detail, `${BIG} has 1000 bytes, not the manifest's ${big.length}`);
    await rm(file);
    t.equal(running.downloads.active, 0, 'no download counted');
  },
);

t.test(
  '/api/releases lists the kept releases when one of them has an unreadable manifest, and says which',
  async (t) => {
    const broken = 'abcdefabcdefabcd';
    await cp(join(FIXTURE_LAKE, 'releases', id), join(lake, 'releases', broken), { recursive: true });
    await writeFile(join(lake, 'releases', broken, 'manifest.json'), '{"releaseId": "abcdefabcd');
    const server = await start(testConfig({ lakeDir: lake }));
    t.teardown(() => server.close());
    const r = await get(`${server.url}/api/releases`);
    t.equal(r.status, 200);
    t.equal(schemaErrors('releases.json', r.json), '', 'valid Releases');
    t.same(
      r.json.releases.map((x: Json) => x.release),
      [id],
      'the readable release is listed',
    );
    t.same(
      r.json.unreadable,
      [{ release: broken, reason: 'manifest.json is not valid JSON' }],
      'the unreadable one is named, with why',
    );
    const file = await get(`${server.url}/api/releases/${broken}/files/manifest.json`);
    t.equal(file.status, 404, 'and its files are not served');
    t.match(
      file.json.detail,
      `release ${broken} is kept but not served, so neither are its files: manifest.json is not valid JSON`,
    );
  },
);
