// The served OpenAPI document, read by tools other projects use on it: @hey-api/openapi-ts generates a client,
// swagger-parser validates and dereferences it, Prism proxies the real server validating each request and answer
// against it, and Prism's mock answers every GET path from it (test/openapi.test.ts runs Redocly and
// openapi-typescript). Each tool runs over the document this server serves, offline; Prism starts once per mode.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import SwaggerParser from '@apidevtools/swagger-parser';
import t, { type Test } from 'tap';

import { inertExample } from '../src/http/openapi-parts.ts';
import { ENTITIES, recordSchemaId } from '../src/queries/snapshots.ts';
import type { Json } from './fixture.ts';
import { ROOT, schemaErrors, startFixtureServer } from './fixture.ts';
import { exampleUrl } from './openapi-requests.ts';

const run = promisify(execFile);
const running = await startFixtureServer();
t.teardown(() => running.close());

const doc: Json = await (await fetch(`${running.url}/api/openapi.json`)).json();
const OUT = join(ROOT, '.cache', 'openapi-tools');
await rm(OUT, { recursive: true, force: true });
await mkdir(OUT, { recursive: true });
const DOC_FILE = join(OUT, 'openapi.json');
await writeFile(DOC_FILE, JSON.stringify(doc, null, 1));
const tool = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** The operation's URL with its example parameters. */
const exampleOf = (path: string, op: Json) =>
  exampleUrl(path, Object.fromEntries((op.parameters ?? []).map((p: Json) => [p.name, p.example])));

/** Every GET operation that answers 200 (not MCP's 405). */
const gets = Object.entries(doc.paths as Record<string, Json>)
  .filter(([, item]) => item.get?.responses?.['200'])
  .map(([path, item]) => ({ path, op: item.get as Json }));

t.test('@hey-api/openapi-ts generates a client with an operation per path', async (t) => {
  const out = join(OUT, 'hey-api');
  await run(tool('openapi-ts'), ['-i', DOC_FILE, '-o', out], { cwd: OUT, env: { ...process.env, NO_COLOR: '1' } });
  const sdk = await readFile(join(out, 'sdk.gen.ts'), 'utf8');
  const types = await readFile(join(out, 'types.gen.ts'), 'utf8');
  for (const { op } of gets) t.match(sdk, `export const ${op.operationId} =`, `${op.operationId} in the SDK`);
  t.match(types, /export type SnapshotDocumentsPage = \{[^}]*?records: Array<SnapshotDocuments>;/, 'documents page');
  t.match(types, /export type SnapshotDocuments = \{[^}]*?document_id: string;/, 'of documents');
});

t.test('swagger-parser validates the document and dereferences every $ref', async (t) => {
  const api = (await SwaggerParser.validate(structuredClone(doc))) as Json;
  t.equal(api.info.title, 'Board Records');
  const page = api.paths['/api/snapshots/legislative-files'].get.responses['200'].content['application/json'].schema;
  t.ok(page.properties.records.items.properties.final_action, 'a legislative-files page holds legislative files');
  const manifest = api.paths['/api/snapshots'].get.responses['200'].content['application/json'].example;
  t.notOk(JSON.stringify(manifest).includes('"$ref"'), "the manifest example's record schemas have no $ref left");
});

/** A free loopback port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Prism in one mode (`mock`, or `proxy` in front of this server, refusing any violation) until the test ends. */
async function prism(t: Test, mode: 'mock' | 'proxy'): Promise<{ url: string; log: () => string }> {
  const port = await freePort();
  const args = [mode, DOC_FILE, ...(mode === 'proxy' ? [running.url, '--errors'] : []), '-p', String(port)];
  const child: ChildProcess = spawn(tool('prism'), [...args, '-h', '127.0.0.1'], {
    cwd: OUT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => void child.kill());
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const read = (d: Buffer) => {
      log += d;
      if (log.includes('Prism is listening')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`prism ${mode} exited ${code}: ${log}`)));
  });
  return { url: `http://127.0.0.1:${port}`, log: () => log };
}

/** The body of an answer (JSON parsed), with this server's base written as the examples' (`make serve`'s). */
async function body(res: Response): Promise<unknown> {
  const text = (await res.text()).replaceAll(running.url, 'http://127.0.0.1:8080');
  return (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
}

const LIVE =
  /^\/api\/(?:health|openapi\.json|quality|changes|snapshots|releases(?:\.md)?|releases\/\{id\}\/files\/manifest\.json)$/;

t.test("Prism's mock answers each GET path with what this server answers there", async (t) => {
  const mock = await prism(t, 'mock');
  for (const { path, op } of gets) {
    const url = exampleOf(path, op);
    // The media type of the recorded example (none for a Parquet file: bytes, of which the mock has only a placeholder).
    const content = Object.entries((op.responses['200'].content ?? {}) as Record<string, Json>);
    const accept = content.find(([, c]) => c.example !== undefined)?.[0];
    const direct = await fetch(running.url + url, { headers: { Accept: accept ?? '*/*' } });
    const real = await body(direct);
    // A Parquet file is bytes: no example, so the mock answers a placeholder (only manifest.json has one).
    if (!accept || !direct.headers.get('content-type')?.startsWith(accept)) continue;
    const mocked = await fetch(mock.url + url, { headers: { Accept: accept } });
    t.equal(mocked.status, 200, `mock GET ${url}: 200`);
    const got = await body(mocked);
    // Live answers, and answers about the lake's history (the releases kept, when each was built, the change log since
    // the previous one), which differ between the lake the examples were recorded on and this one: not compared.
    if (LIVE.test(path)) continue;
    t.same(got, inertExample(real), `mock GET ${url}: the answer of this server`);
  }
  // Each entity's path answers that entity's records (the entity's own schema, not the document's).
  for (const e of ENTITIES) {
    const page = (await body(await fetch(`${mock.url}/api/snapshots/${e.name}`))) as Json;
    t.equal(page.entity, e.name, `mock /api/snapshots/${e.name}: a ${e.name} page`);
    for (const r of page.records) t.equal(schemaErrors(recordSchemaId(e.name), r), '', `a ${e.name} record`);
    const record = await body(await fetch(`${mock.url}/api/snapshots/${e.name}/${page.records[0][e.key]}`));
    t.equal(schemaErrors(recordSchemaId(e.name), record), '', `mock /api/snapshots/${e.name}/{id}: a ${e.name} record`);
  }
});

const get = async (url: string): Promise<Json> => (await fetch(running.url + url)).json();

/** Real requests: every example, records of each entity by key, file numbers, searches, meetings, release files. */
async function realRequests(): Promise<string[]> {
  const urls = gets.map(({ path, op }) => exampleOf(path, op));
  for (const e of ENTITIES) {
    const page = await get(`/api/snapshots/${e.name}?limit=12`);
    urls.push(`/api/snapshots/${e.name}?cursor=2&limit=3`, `/api/snapshots/${e.name}?format=ndjson&limit=5`);
    for (const r of page.records) urls.push(`/api/snapshots/${e.name}/${encodeURIComponent(r[e.key])}`);
  }
  const files = (await get('/api/snapshots/legislative-files?limit=10')).records as Json[];
  for (const f of files) urls.push(`/api/items?q=${f.file_number}&limit=3`, `/api/search?q=${f.file_number}&limit=3`);
  for (const w of ['housing', 'budget', 'appropriation', '"public comment"', 'police', 'ordinance amending'])
    urls.push(`/api/search?q=${encodeURIComponent(w)}&limit=5`, `/api/comments?q=${encodeURIComponent(w)}&limit=3`);
  const meetings = (await get('/api/meetings?limit=8')).meetings as Json[];
  for (const m of meetings) urls.push(`/api/meetings/${m.date}`, `/api/meetings/${m.date}.md`);
  const manifest = await get(`/api/releases/${running.lake.releaseId}/files/manifest.json`);
  for (const f of Object.values(manifest.tables as Record<string, Json>)
    .flatMap((x) => x.files)
    .slice(0, 12))
    urls.push(`/api/releases/${running.lake.releaseId}/files/${encodeURIComponent(f.path)}`);
  urls.push('/api/items/no-such-item', '/api/meetings/2013-01-08', `/api/snapshots/documents/no-such-document`);
  return urls;
}

t.test('Prism proxies 100 real requests to this server: 0 violations', async (t) => {
  const proxy = await prism(t, 'proxy');
  const urls = await realRequests();
  t.ok(urls.length >= 100, `${urls.length} requests`);
  const violations: string[] = [];
  for (const url of urls) {
    const [direct, proxied] = [await fetch(running.url + url), await fetch(proxy.url + url)];
    await direct.arrayBuffer();
    const text = await proxied.text();
    const reported = proxied.headers.get('sl-violations');
    if (proxied.status !== direct.status || reported)
      violations.push(`${url}: ${direct.status} → ${proxied.status} ${reported ?? text.slice(0, 300)}`);
  }
  t.same(violations, [], `each of ${urls.length} answers passes through unchanged, with no violation`);
  t.notMatch(proxy.log(), /violation|✖/i, "Prism's log reports no violation");
});
