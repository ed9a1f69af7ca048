// pipelines/fetch/http.ts and its guard against real loopback servers: bodies bounded in size (declared, streamed and
// decompressed) and time, redirects followed by hand with each hop checked against the configured hosts and their
// robots.txt, and no temp file left by any failure.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';

import t from 'tap';

import { HttpClient, type HttpOptions, LIMITS } from '../pipelines/fetch/http.ts';
import { hostGuard, Robots } from '../pipelines/fetch/robots.ts';

const MiB = 1024 * 1024;
const UA = 'board-records-fetch/test';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
interface Server {
  origin: string;
  host: string;
  /** Request paths in arrival order. */
  hits: string[];
  /** Request paths whose connection closed, and the body bytes each had been sent by then. */
  closed: { path: string; sent: number }[];
}

const servers: ReturnType<typeof createServer>[] = [];
t.teardown(() => servers.forEach((s) => (s.closeAllConnections(), s.close())));

async function serve(routes: Record<string, Route>): Promise<Server> {
  const server: Server = { origin: '', host: '', hits: [], closed: [] };
  const http = createServer((req, res) => {
    const path = req.url ?? '/';
    server.hits.push(path);
    let sent = 0;
    const write = res.write.bind(res) as (chunk: Buffer | string) => boolean;
    res.write = ((chunk: Buffer | string, ...rest: unknown[]) => {
      sent += Buffer.byteLength(chunk);
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof res.write;
    res.on('close', () => server.closed.push({ path, sent }));
    const route = routes[path.split('?')[0]];
    if (route) route(req, res);
    else res.writeHead(404).end('not found');
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.host = `127.0.0.1:${(http.address() as AddressInfo).port}`;
  server.origin = `http://${server.host}`;
  return server;
}

const redirect =
  (status: number, location: string | (() => string)): Route =>
  (_req, res) =>
    res.writeHead(status, { location: typeof location === 'string' ? location : location() }).end();

/** `total` bytes of 'a' in 64 KiB chunks, chunked (no Content-Length), respecting backpressure. */
const chunked =
  (total: number): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    pipeline(
      Readable.from((function* () { for (let n = 0; n < total; n += chunk.length) yield chunk; })()), // prettier-ignore
      res,
      () => {},
    );
  };

/** Headers flushed, then one byte every `everyMs` until the client goes away. */
const trickle =
  (everyMs: number): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.flushHeaders();
    const timer = setInterval(() => res.write('%'), everyMs);
    res.on('close', () => clearInterval(timer));
  };

const PDF = Buffer.from('%PDF-1.4\n% a small document\n%%EOF\n');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// A: the configured source. B: a second configured host (hosts differ by port) whose robots.txt, reached through a
// redirect, disallows /private/. C: a host outside the configured set.
const c = await serve({ '/x.pdf': (_req, res) => res.end(PDF) });
const b = await serve({
  '/robots.txt': redirect(301, '/robots-real.txt'),
  '/robots-real.txt': (_req, res) => res.end('User-agent: *\nDisallow: /private/\n'),
  '/private/doc.pdf': (_req, res) => res.end(PDF),
  '/public/start.pdf': redirect(303, 'final.pdf'),
  '/public/final.pdf': (_req, res) => res.end(PDF),
});
let hops = 0;
let flaky = 0;
const a = await serve({
  '/bomb.pdf': (_req, res) => {
    // ~1 GB of zeros gzipped on the fly (about 1 MB on the wire), produced only as fast as the client reads.
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-encoding': 'gzip' });
    const zeros = Buffer.alloc(MiB);
    const source = Readable.from((function* () { for (let i = 0; i < 1024; i++) yield zeros; })()); // prettier-ignore
    pipeline(source, createGzip({ level: 9 }), res, () => {});
  },
  '/declared.pdf': (_req, res) => {
    // Declares 1 GiB and sends nothing more: a client that waited for the body would wait until its idle timeout.
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(1024 * MiB) });
    res.flushHeaders();
  },
  '/chunked.pdf': chunked(64 * MiB),
  '/listing.html': chunked(3 * MiB),
  '/declared.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(3 * MiB) });
    res.flushHeaders();
  },
  '/trickle.pdf': trickle(50),
  '/to-c': redirect(302, () => `${c.origin}/x.pdf`),
  '/to-b-private': redirect(307, () => `${b.origin}/private/doc.pdf`),
  '/to-b': redirect(302, () => `${b.origin}/public/start.pdf`),
  '/loop-1': redirect(302, '/loop-2'),
  '/loop-2': redirect(301, '/loop-1'),
  '/hop': redirect(302, () => `/hop?${++hops}`),
  '/flaky.pdf': (_req, res) => {
    if (++flaky <= 2) res.writeHead(503, { 'retry-after': '0' }).end('busy');
    else res.end(PDF);
  },
  '/to-flaky': redirect(301, '/flaky.pdf'),
  '/unchanged.pdf': (req, res) => {
    // A 304 may declare the size of the document it stands for (RFC 9110 §15.4.5): no body, nothing to refuse.
    if (req.headers['if-none-match'] === '"v1"')
      res.writeHead(304, { etag: '"v1"', 'content-length': String(1024 * MiB) });
    else res.writeHead(200, { etag: '"v1"' });
    res.end();
  },
  '/js': redirect(302, 'javascript:alert(1)'),
  '/file': redirect(308, 'file:///etc/passwd'),
});

const OPTIONS: HttpOptions = {
  userAgent: UA,
  concurrency: 2,
  delayMs: 0,
  retries: 2,
  timeoutMs: 5000,
  backoffMs: 10,
  maxRetryAfterMs: 10_000,
  maxBytes: MiB,
  maxTextBytes: MiB,
  maxDownloadMs: 20_000,
};

function client(opts: Partial<HttpOptions> = {}) {
  const warnings: string[] = [];
  const base = new HttpClient({ ...OPTIONS, ...opts });
  const robots = new Robots(base, UA, (w) => warnings.push(w));
  return { http: base.guarded(hostGuard(new Set([a.host, b.host]), robots)), robots, warnings };
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a failure');
}

const dir = await mkdtemp(join(tmpdir(), 'fetch-http-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const closedPaths = (s: Server, path: string) => s.closed.filter((c) => c.path === path);

t.test('defaults', async (t) => {
  t.same(LIMITS, { maxBytes: 256 * MiB, maxTextBytes: 16 * MiB, maxDownloadMs: 600_000, maxRedirects: 5 });
});

t.test('a gzip bomb is cut at maxBytes of decoded body, memory flat, temp file gone', async (t) => {
  const { http } = client();
  const tmp = join(dir, 'bomb.tmp');
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const message = await failure(http.download(`${a.origin}/bomb.pdf`, {}, tmp));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  t.equal(message, `${a.origin}/bomb.pdf: decoded body passed ${MiB} bytes (Content-Encoding gzip)`);
  t.notOk(existsSync(tmp), 'no temp file left');
  t.same(a.hits.filter((p) => p === '/bomb.pdf').length, 1, 'not retried');
  t.ok(peak - before < 200 * MiB, `RSS grew by ${Math.round((peak - before) / MiB)} MiB, not by the gigabyte inflated`);
});

t.test('a declared Content-Length above the limit is refused before the body', async (t) => {
  const { http } = client();
  const tmp = join(dir, 'declared.tmp');
  const message = await failure(http.download(`${a.origin}/declared.pdf`, {}, tmp));
  t.equal(message, `${a.origin}/declared.pdf: body larger than ${MiB} bytes (declared ${1024 * MiB})`);
  t.notOk(existsSync(tmp), 'no temp file');
  await t.resolves(
    until(() => closedPaths(a, '/declared.pdf').length === 1),
    'the client closed the connection',
  );
  t.equal(a.hits.filter((p) => p === '/declared.pdf').length, 1, 'not retried');
});

t.test('a chunked body past maxBytes is cut, temp file gone', async (t) => {
  const { http } = client();
  const tmp = join(dir, 'chunked.tmp');
  const message = await failure(http.download(`${a.origin}/chunked.pdf`, {}, tmp));
  t.equal(message, `${a.origin}/chunked.pdf: body passed ${MiB} bytes`);
  t.notOk(existsSync(tmp), 'no temp file');
  await t.resolves(
    until(() => closedPaths(a, '/chunked.pdf').length === 1),
    'the client closed the connection',
  );
  t.ok(closedPaths(a, '/chunked.pdf')[0].sent < 64 * MiB, 'the server did not get to send the whole body');
});

t.test('text() is bounded by maxTextBytes, streamed and declared', async (t) => {
  const { http } = client({ maxBytes: 64 * MiB });
  t.equal(await failure(http.text(`${a.origin}/listing.html`)), `${a.origin}/listing.html: body passed ${MiB} bytes`);
  t.equal(
    await failure(http.text(`${a.origin}/declared.html`)),
    `${a.origin}/declared.html: body larger than ${MiB} bytes (declared ${3 * MiB})`,
  );
  const roomy = client({ maxTextBytes: 4 * MiB }).http;
  t.equal((await roomy.text(`${a.origin}/listing.html`)).text.length, 3 * MiB, 'a larger limit lets it through');
});

t.test('a body trickling in past maxDownloadMs fails naming the URL and the limit, retries bounded', async (t) => {
  const { http } = client({ timeoutMs: 1000, maxDownloadMs: 300 });
  const tmp = join(dir, 'trickle.tmp');
  const started = Date.now();
  const message = await failure(http.download(`${a.origin}/trickle.pdf`, {}, tmp));
  t.equal(
    message,
    `${a.origin}/trickle.pdf: still incomplete after 300 ms, the time limit per request (after 3 attempts)`,
  );
  t.notOk(existsSync(tmp), 'no temp file');
  t.equal(a.hits.filter((p) => p === '/trickle.pdf').length, 3, 'retries + 1 attempts, no more');
  await t.resolves(
    until(() => closedPaths(a, '/trickle.pdf').length === 3),
    'every attempt closed its connection',
  );
  // Unbounded, the trickle never ends; bounded, it takes about 3 × 300 ms (a loaded machine may be far slower).
  t.ok(Date.now() - started < 60_000, 'ended');
});

t.test('redirects: followed to an allowed host, refused outside the set or against robots.txt', async (t) => {
  const { http, warnings } = client();

  const tmp = join(dir, 'ok.tmp');
  const ok = await http.download(`${a.origin}/to-b`, {}, tmp);
  t.match(ok, { status: 200, url: `${b.origin}/public/final.pdf`, bytes: PDF.length, sha256: sha256(PDF) });
  t.same(await readFile(tmp), PDF, "the final hop's bytes written");
  t.same(
    b.hits.filter((p) => p.startsWith('/public/')),
    ['/public/start.pdf', '/public/final.pdf'],
    'relative Location resolved against the hop',
  );

  t.equal(
    await failure(http.download(`${a.origin}/to-c`, {}, join(dir, 'c.tmp'))),
    `${a.origin}/to-c (redirected to ${c.origin}/x.pdf): refused: host not among the configured sources: ${c.host}`,
  );
  t.same(c.hits, [], 'the outside host was never asked');
  t.equal(a.hits.filter((p) => p === '/to-c').length, 1, 'a refusal is not retried');
  t.equal(
    await failure(http.text(`${c.origin}/x.pdf`)),
    `${c.origin}/x.pdf: refused: host not among the configured sources: ${c.host}`,
    'the first request is guarded too',
  );

  t.equal(
    await failure(http.download(`${a.origin}/to-b-private`, {}, join(dir, 'p.tmp'))),
    `${a.origin}/to-b-private (redirected to ${b.origin}/private/doc.pdf): refused: disallowed by robots.txt of ${b.host}`,
  );
  t.notOk(b.hits.includes('/private/doc.pdf'), 'the disallowed path was never requested');
  t.same(
    b.hits.filter((p) => p.startsWith('/robots')),
    ['/robots.txt', '/robots-real.txt'],
    "B's robots.txt read once, through its redirect",
  );
  t.same(warnings, []);
  t.same(
    [join(dir, 'c.tmp'), join(dir, 'p.tmp')].filter((f) => existsSync(f)),
    [],
    'no temp file for a refused request',
  );
});

t.test('redirects: loops, too many hops, and schemes other than http(s) are errors naming the URL', async (t) => {
  const { http } = client();
  t.equal(
    await failure(http.text(`${a.origin}/loop-1`)),
    `${a.origin}/loop-1 (redirected to ${a.origin}/loop-2): redirect loop back to ${a.origin}/loop-1`,
  );
  t.equal(
    await failure(http.text(`${a.origin}/hop`)),
    `${a.origin}/hop (redirected to ${a.origin}/hop?5): more than 5 redirects`,
  );
  t.equal(a.hits.filter((p) => p.startsWith('/hop')).length, 6, 'the first request and five hops, not retried');
  t.equal(
    await failure(http.download(`${a.origin}/js`, {}, join(dir, 'js.tmp'))),
    `${a.origin}/js (redirected to javascript:alert(1)): refused: javascript: is not http(s)`,
  );
  t.equal(
    await failure(http.download(`${a.origin}/file`, {}, join(dir, 'file.tmp'))),
    `${a.origin}/file (redirected to file:///etc/passwd): refused: file: is not http(s)`,
  );
});

t.test(
  'kept: 5xx retried from the URL asked for, redirects included; a 304 is returned whatever it declares',
  async (t) => {
    const retried: string[] = [];
    const http = new HttpClient(OPTIONS, (url, reason) => retried.push(`${url}: ${reason}`));
    const tmp = join(dir, 'flaky.tmp');
    const res = await http.download(`${a.origin}/to-flaky`, {}, tmp);
    t.match(res, { status: 200, url: `${a.origin}/flaky.pdf`, bytes: PDF.length, sha256: sha256(PDF) });
    t.same(retried, [
      `${a.origin}/to-flaky (redirected to ${a.origin}/flaky.pdf): HTTP 503`,
      `${a.origin}/to-flaky (redirected to ${a.origin}/flaky.pdf): HTTP 503`,
    ]);
    t.same(
      a.hits.filter((p) => p.includes('flaky')),
      ['/to-flaky', '/flaky.pdf', '/to-flaky', '/flaky.pdf', '/to-flaky', '/flaky.pdf'],
    );
    const unchanged = await http.download(`${a.origin}/unchanged.pdf`, { 'if-none-match': '"v1"' }, tmp);
    t.match(unchanged, { status: 304, bytes: 0 });
  },
);

t.test('robots.txt itself is bounded: an oversized one means the host is treated as disallowed', async (t) => {
  const huge = await serve({ '/robots.txt': chunked(2 * MiB) });
  const warnings: string[] = [];
  const robots = new Robots(new HttpClient(OPTIONS), UA, (w) => warnings.push(w));
  t.equal(await robots.allowed(`${huge.origin}/doc.pdf`), false);
  t.match(warnings, [new RegExp(`${huge.origin}/robots.txt: body passed ${MiB} bytes`)]);
  const guard = hostGuard(new Set([huge.host]), robots);
  t.equal(await guard(new URL(`${huge.origin}/doc.pdf`)), `disallowed by robots.txt of ${huge.host}`);
  t.equal(await guard(new URL('http://evil.example/doc.pdf')), 'host not among the configured sources: evil.example');
});

/** Resolves once `cond()` holds; a condition that never comes true is left to the test's own timeout. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((resolve) => setTimeout(resolve, 10));
}
