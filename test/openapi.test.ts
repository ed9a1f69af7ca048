// The served OpenAPI document, judged by tools API consumers use and by the server itself: Redocly lints it (0
// errors, 0 warnings), openapi-typescript generates types from it that a small client (test/openapi-client/) must
// type-check against, and every operation is driven with the document's own examples, each answer (status, content
// type, body) validated against the document's response schema with ajv (draft 2020-12, as src/schemas.ts).
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import t, { type Test } from 'tap';

import { readExamples } from '../src/http/openapi.ts';
import { openapi } from '../src/http/routes/index.ts';
import { validate } from './document.ts';
import type { Json } from './fixture.ts';
import { ROOT, startFixtureServer } from './fixture.ts';
import { type Answer, answer, answerForHost, exampleUrl, missingValues } from './openapi-requests.ts';

const run = promisify(execFile);
const running = await startFixtureServer();
t.teardown(() => running.close());

const doc: Json = await (await fetch(`${running.url}/api/openapi.json`)).json();
const OUT = join(ROOT, '.cache', 'openapi');
await mkdir(OUT, { recursive: true });
const DOC_FILE = join(OUT, 'openapi.json');
await writeFile(DOC_FILE, JSON.stringify(doc, null, 1));

/** Media types whose bodies are bytes: no JSON example to check. */
const BINARY = new Set([
  'application/vnd.apache.parquet',
  'application/octet-stream',
  'application/vnd.apache.arrow.stream',
]);

t.test('answers are validated against the components the server serves', async (t) => {
  t.same(doc.components, (openapi() as Json).components, 'test/document.ts compiles the served components');
});

const METHODS = ['get', 'head', 'post', 'put', 'delete', 'patch', 'options'];
const operations = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ path, method, op })),
);

const tool = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const quiet = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

t.test('the examples were taken from this fixture release', async (t) => {
  // A rebuilt fixture (new data, a new release id) needs new examples: `make openapi-examples` writes them.
  t.equal(
    readExamples().release,
    running.lake.releaseId,
    'schemas/examples/openapi.json is stale: run make openapi-examples',
  );
});

t.test('Redocly lints the served document: no errors, no warnings', async (t) => {
  const { stdout } = await run(
    tool('redocly'),
    ['lint', DOC_FILE, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
    { env: quiet, cwd: ROOT },
  ).catch((e) => e);
  const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
  t.same(report.totals, { errors: 0, warnings: 0, ignored: 0 }, JSON.stringify(report.problems.slice(0, 5)));
});

t.test('openapi-typescript generates types a small client type-checks against', async (t) => {
  await run(tool('openapi-typescript'), [DOC_FILE, '-o', join(OUT, 'api.ts')], { env: quiet, cwd: ROOT });
  const tsc = await run(
    tool('tsc'),
    [
      '--noEmit',
      '--strict',
      '--target',
      'ES2023',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--allowImportingTsExtensions',
      '--skipLibCheck',
      '--types',
      'node',
      '--lib',
      'ES2023,DOM',
      join(ROOT, 'test', 'openapi-client', 'client.ts'),
    ],
    { cwd: ROOT },
  ).then(
    () => '',
    (e) => `${e.stdout}${e.stderr}`,
  );
  t.equal(tsc, '', 'tsc --noEmit test/openapi-client/client.ts');
});

t.test('the document is complete', async (t) => {
  const paths = Object.keys(doc.paths);
  for (const p of [
    '/api/mcp',
    '/api/health',
    '/api/openapi.json',
    '/api/coverage',
    '/api/releases/{id}/files/{path}',
    '/api/pages/{id}',
    '/api/pages/{id}.md',
    '/api/search.md',
  ])
    t.ok(paths.includes(p), p);
  t.ok(doc.servers?.[0]?.url?.startsWith(running.url), 'servers names this server');
  t.ok(doc.info.license?.name && doc.info.contact?.url, 'license and contact');
  t.same(
    doc.paths['/api/mcp'].get.responses['405'] && doc.paths['/api/mcp'].delete.responses['405'] ? 1 : 0,
    1,
    'GET and DELETE /api/mcp: 405',
  );
  // A path per snapshot entity, each answering its own records: a mock server or a generated client tells them apart.
  for (const e of ['documents', 'supervisors', 'recorded-positions', 'legislative-files']) {
    const page = doc.paths[`/api/snapshots/${e}`].get.responses['200'].content;
    t.ok(page['application/x-ndjson'], `NDJSON on /api/snapshots/${e}`);
    t.equal(page['application/json'].example.entity, e, `/api/snapshots/${e}: its example is a ${e} page`);
    t.ok(doc.paths[`/api/snapshots/${e}/{id}`], `/api/snapshots/${e}/{id}`);
  }
  t.equal(
    doc.paths['/api/releases/{id}/files/manifest.json'].get.responses['200'].content['application/json'].example
      .releaseId,
    running.lake.releaseId,
    "the manifest's own path, with the manifest as its example",
  );
  const ids = operations.map((o) => o.op.operationId);
  t.ok(ids.every(Boolean), 'every operation has an operationId');
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  const refs: string[] = [];
  const walk = (v: unknown, key = ''): void => {
    if (key === 'example' || !v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref') refs.push(x);
      else walk(x, k);
    }
  };
  walk(doc);
  const unresolved = refs.filter((r) => {
    const [hash, components, kind, name, ...rest] = r.split('/');
    return !(hash === '#' && components === 'components' && rest.length === 0 && doc.components[kind]?.[name]);
  });
  t.same([...new Set(unresolved)], [], `each of ${refs.length} $refs names a component`);
  for (const { path, method, op } of operations) {
    for (const p of op.parameters ?? []) t.not(p.example, undefined, `${method} ${path}: ${p.name} has an example`);
    for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
      for (const [type, c] of Object.entries((r.content ?? {}) as Record<string, Json>)) {
        if (method === 'head' || BINARY.has(type) || status === '202') continue;
        if (c.example === undefined) t.fail(`${method} ${path} ${status} ${type}: no example`);
        else
          t.equal(
            validate(c.schema, c.example),
            '',
            `${method} ${path} ${status} ${type}: the example fits the schema`,
          );
      }
    }
  }
});

/** An answer with its ETag, if any. */
type Sent = Answer & { etag: string | null };

async function send(url: string, init: RequestInit = {}): Promise<Sent> {
  const a = await answer(running.url + url, init);
  return { ...a, etag: a.headers.get('etag') };
}

/** The operation's URL with its example parameters, some replaced or added. */
const opUrl = (path: string, op: Json, change: Record<string, unknown> = {}) =>
  exampleUrl(path, { ...Object.fromEntries((op.parameters ?? []).map((p: Json) => [p.name, p.example])), ...change });

/** The answer is documented: its status, its content type for that status, and its body fits that schema. */
function checkAnswer(t: Test, op: Json, what: string, got: Sent, status: number, method: string) {
  t.equal(got.status, status, `${what}: ${status}`);
  const documented = op.responses[String(got.status)];
  if (!documented) return t.fail(`${what}: ${got.status} is not documented`);
  if (!documented.content || method === 'head') return t.equal(got.body, '', `${what}: no body`);
  const media = documented.content[got.type];
  if (!media)
    return t.fail(`${what}: ${got.type} is not documented for ${got.status} (${Object.keys(documented.content)})`);
  t.equal(
    validate(media.schema, got.body),
    '',
    `${what}: the body fits the document's ${got.status} ${got.type} schema`,
  );
}

const MCP_ACCEPT = 'application/json, text/event-stream';
const rpc = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: MCP_ACCEPT, ...headers },
  body,
});

t.test('every operation, driven with its examples, answers as the document says', async (t) => {
  for (const { path, method, op } of operations) {
    const url = opUrl(path, op);
    const what = `${method.toUpperCase()} ${url}`;
    if (path === '/api/mcp') {
      if (method !== 'post') {
        checkAnswer(t, op, what, await send(url, { method: method.toUpperCase() }), 405, method);
        continue;
      }
      const example = JSON.stringify(op.requestBody.content['application/json'].example);
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const ok = await send(url, rpc(example));
      checkAnswer(t, op, `${what} (the example tools/call)`, ok, 200, method);
      t.match(ok.body, /^event: message\ndata: \{.*"result"/m, 'a JSON-RPC result as a server-sent event');
      checkAnswer(
        t,
        op,
        `${what} a notification`,
        await send(url, rpc(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))),
        202,
        method,
      );
      checkAnswer(
        t,
        op,
        `${what} a batch of 9`,
        await send(url, rpc(`[${Array(9).fill(ping).join(',')}]`)),
        400,
        method,
      );
      checkAnswer(
        t,
        op,
        `${what} a foreign Host`,
        {
          ...(await answerForHost(running.url + url, 'elsewhere.example', {
            headers: { 'Content-Type': 'application/json', Accept: MCP_ACCEPT },
            body: ping,
          })),
          etag: null,
        },
        403,
        method,
      );
      checkAnswer(
        t,
        op,
        `${what} Accept: application/json only`,
        await send(url, rpc(ping, { Accept: 'application/json' })),
        406,
        method,
      );
      checkAnswer(t, op, `${what} a body over 1 MiB`, await send(url, rpc(' '.repeat(1024 * 1024 + 1))), 413, method);
      checkAnswer(
        t,
        op,
        `${what} Content-Type: text/plain`,
        await send(url, rpc(ping, { 'Content-Type': 'text/plain' })),
        415,
        method,
      );
      continue;
    }
    const init = { method: method.toUpperCase() };
    const ok = await send(url, init);
    checkAnswer(t, op, what, ok, 200, method);
    const content = op.responses['200'].content ?? {};
    if (!path.endsWith('.md') && content['application/json'])
      t.equal(ok.type, 'application/json', `${what}: JSON by default`);
    if (path.endsWith('.md')) t.equal(ok.type, 'text/markdown', `${what}: Markdown`);
    if (content['text/markdown'] && !path.endsWith('.md')) {
      const md = await send(url, { headers: { Accept: 'text/markdown' } });
      checkAnswer(t, op, `${what} Accept: text/markdown`, md, 200, method);
      t.equal(md.type, 'text/markdown', `${what}: Markdown when asked`);
    }
    if (content['application/x-ndjson']) {
      const nd = await send(opUrl(path, op, { format: 'ndjson' }));
      checkAnswer(t, op, `${what} format=ndjson`, nd, 200, method);
      const lines = String(nd.body).trim().split('\n');
      t.ok(
        lines.length > 0 && lines.every((l) => typeof JSON.parse(l) === 'object'),
        `${what}: one JSON record per line`,
      );
    }
    if (op.responses['304']) {
      t.ok(ok.etag, `${what}: an ETag`);
      checkAnswer(
        t,
        op,
        `${what} If-None-Match`,
        await send(url, { ...init, headers: { 'If-None-Match': ok.etag ?? '' } }),
        304,
        method,
      );
    }
    if (op.responses['400'])
      checkAnswer(
        t,
        op,
        `${what} with an unknown parameter`,
        await send(opUrl(path, op, { bogus: 1 }), init),
        400,
        method,
      );
    if (op.responses['404']) {
      const values = Object.fromEntries((op.parameters ?? []).map((p: Json) => [p.name, p.example]));
      const missing = missingValues(values);
      checkAnswer(
        t,
        op,
        `${what} of nothing the fixture holds`,
        await send(opUrl(path, op, missing), init),
        404,
        method,
      );
    }
    if (op.responses['206'])
      checkAnswer(
        t,
        op,
        `${what} Range: bytes=0-`,
        await send(url, { ...init, headers: { Range: 'bytes=0-' } }),
        206,
        method,
      );
    if (op.responses['416'])
      checkAnswer(
        t,
        op,
        `${what} Range past the end`,
        await send(url, { ...init, headers: { Range: 'bytes=999999999-' } }),
        416,
        method,
      );
    if (op.responses['406'])
      checkAnswer(
        t,
        op,
        `${what} Accept: image/png`,
        await send(url, { ...init, headers: { Accept: 'image/png' } }),
        406,
        method,
      );
  }
});
