// Writes schemas/examples/openapi.json: for every operation of the OpenAPI document, example parameters taken from
// the real corpus (a page, an item with a recorded roll call, a public comment, a meeting, a snapshot record, the
// release) and the answers the server gave to them and to a refused request of each kind (400, 404, 406, MCP's
// refusals; a 409 from a link to a release file). Run over the test fixture release (built from ../shared/corpus):
// `make openapi-examples`. The document (src/http/openapi.ts) reads the file; test/openapi.test.ts sends every example again and validates the answers.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { openReleaseFile } from '../src/http/downloads.ts';
import { toProblem } from '../src/http/errors.ts';
import { type Examples, EXAMPLES_FILE, type OperationExamples } from '../src/http/openapi.ts';
import { openapi } from '../src/http/routes/index.ts';
import { Overloaded } from '../src/lake/pool.ts';
import { ENTITIES } from '../src/queries/snapshots.ts';
import { FIXTURE_LAKE, startFixtureServer } from '../test/fixture.ts';
import { type Answer, answer, answerForHost, exampleUrl, missingValues } from '../test/openapi-requests.ts';

/** The base URL the examples' links name: the default `make serve` address. */
const BASE = 'http://127.0.0.1:8080';
const MCP_ACCEPT = 'application/json, text/event-stream';
/** Media types whose bodies are bytes: no example is recorded. */
const BINARY = new Set(['application/vnd.apache.parquet', 'application/octet-stream']);

const running = await startFixtureServer({ publicBaseUrl: BASE });
const origin = running.url;

/** An answer's JSON, walked field by field to pick example values (the answers are checked by the tests, not here). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = any;

const call = (path: string, init: RequestInit = {}): Promise<Answer> => answer(origin + path, init);

async function json(path: string): Promise<Json> {
  const a = await call(path);
  if (a.status !== 200) throw new Error(`GET ${path}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body;
}

// Values from the corpus.
const health = await json('/api/health');
const release: string = health.release;
const coverage = await json('/api/coverage');
const date: string = coverage.coverage?.rollCallMeetings?.[0] ?? coverage.rollCallMeetings?.[0];
if (!date) throw new Error('the fixture holds no meeting with recorded votes');
const year = Number(date.slice(0, 4));
const items = await json(`/api/items?q=ordinance&date=${date}&final=true&limit=5`);
const item = items.results.find((r: Json) => r.rollCalls?.some((c: Json) => c.ayes.length > 0));
if (!item) throw new Error(`no item with a roll call on ${date}`);
const rollCall = item.rollCalls.find((c: Json) => c.ayes.length > 0);
const voter: string = rollCall.ayes[0];
const words: string = item.title
  .split(/[^A-Za-z]+/)
  .filter((w: string) => w.length > 3)
  .slice(0, 2)
  .join(' ');
const page = (await json(`/api/search?q=${encodeURIComponent(words)}&date=${date}&limit=1`)).results[0];
const meeting = await json(`/api/meetings/${date}`);
const comment = meeting.comments.find((c: Json) => c.statement.split(/\s+/).length > 4);
const commentWord: string = comment.statement.split(/[^A-Za-z]+/).filter((w: string) => w.length > 5)[0];
const manifest = await json(`/api/releases/${release}/files/manifest.json`);
/** Per snapshot entity, the key of its first record. */
const keys = Object.fromEntries(
  await Promise.all(
    ENTITIES.map(async (e) => [e.name, (await json(`/api/snapshots/${e.name}?limit=1`)).records[0][e.key]]),
  ),
);
const question = `How did ${voter} vote on ${words.toLowerCase()} in ${year}?`;

/** Example parameters of each operation of the endpoint table (the `.md` paths take the same, without `format`). */
const parameters: Record<string, Record<string, unknown>> = {
  '/api/search': {
    q: words,
    year,
    kind: 'minutes',
    limit: 2,
    mode: 'lexical',
    format: 'json',
    from: year,
    to: year,
    type: 'all',
    supervisor: voter,
    position: 'aye',
    final: true,
    date,
    actionType: rollCall.actionType,
    result: rollCall.result,
  },
  '/api/pages/{id}': { id: page.id, format: 'json' },
  '/api/items': {
    q: words,
    voter,
    position: 'aye',
    final: true,
    date,
    actionType: rollCall.actionType,
    result: rollCall.result,
    groupBy: 'file',
    from: year,
    to: year,
    limit: 2,
    format: 'json',
  },
  '/api/items/{id}': { id: item.id, format: 'json' },
  '/api/comments': { q: commentWord, speaker: comment.speaker, date, from: year, to: year, limit: 2, format: 'json' },
  '/api/comments/{id}': { id: comment.id, format: 'json' },
  '/api/meetings': { year, from: year, to: year, after: `${year}-01-01`, limit: 2, format: 'json' },
  '/api/meetings/{date}': { date, actionType: rollCall.actionType, result: rollCall.result, format: 'json' },
  '/api/query': { q: question, format: 'json' },
  '/api/aggregates/votes': {
    voter,
    position: 'aye',
    from: year,
    to: year,
    final: true,
    groupBy: 'file',
    limit: 2,
    format: 'json',
  },
  '/api/aggregates/housing': { voter, position: 'aye', from: year, to: year, final: false, limit: 2, format: 'json' },
  '/api/snapshots': { release },
  ...Object.fromEntries(
    ENTITIES.flatMap((e) => [
      [`/api/snapshots/${e.name}`, { cursor: 0, limit: 2, format: 'json', release }],
      [`/api/snapshots/${e.name}/{id}`, { id: keys[e.name], release }],
    ]),
  ),
  '/api/changes': { cursor: 0, since: '2020-01-01T00:00:00Z', limit: 2, release },
  '/api/coverage': { from: year, to: year, format: 'json' },
  '/api/quality': {},
  '/api/releases': { format: 'json' },
  '/api/releases/{id}/files/{path}': { id: release, path: manifest.tables.documents.files[0].path },
  '/api/releases/{id}/files/manifest.json': { id: release },
};

const busy = (path: string) => {
  const p = toProblem(new Overloaded('too many requests'))!;
  return { type: 'about:blank', title: p.title, status: p.status, detail: p.detail, instance: path, release };
};

// A release file swapped for a link (409): the fixture release is shared, so the error comes from opening a link of
// its own to the file, as the server would.
const changed = async (path: string, file: string) => {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-409-'));
  await symlink(join(FIXTURE_LAKE, 'releases', release, file), join(dir, 'link'));
  const error = await openReleaseFile(join(dir, 'link'), file, 0).then(
    () => null,
    (e: unknown) => e,
  );
  await rm(dir, { recursive: true });
  const p = toProblem(error)!;
  return {
    type: `${BASE}/problems/${p.type}`,
    title: p.title,
    status: p.status,
    detail: p.detail,
    instance: path,
    ...p.extra,
    release,
  };
};

const doc = openapi(BASE) as { paths: Record<string, Record<string, Json>> };
const operations: Record<string, OperationExamples> = {};
const expect = (a: Answer, status: number, what: string) => {
  if (a.status !== status)
    throw new Error(
      `${what}: expected ${status}, got ${a.status} ${typeof a.body === 'string' ? a.body.slice(0, 300) : JSON.stringify(a.body)}`,
    );
  return a;
};

for (const [path, item] of Object.entries(doc.paths)) {
  const markdownPath = path.endsWith('.md');
  const base = markdownPath ? path.slice(0, -3) : path;
  const params = parameters[base];
  if (path === '/api/mcp' || path === '/api/health' || path === '/api/openapi.json') continue;
  if (!params) throw new Error(`no example parameters for ${path}: add them to scripts/openapi-examples.ts`);
  for (const method of Object.keys(item)) {
    const op = item[method];
    const own = { ...params };
    if (markdownPath) delete own.format;
    const missing = (op.parameters ?? []).filter((p: Json) => !(p.name in own)).map((p: Json) => p.name);
    if (missing.length) throw new Error(`${path}: no example for ${missing.join(', ')}`);
    const url = exampleUrl(path, own);
    const responses: OperationExamples['responses'] = {};
    const ok = expect(await call(url, { method: method.toUpperCase() }), 200, `${method} ${url}`);
    if (method === 'get' && !BINARY.has(ok.type)) {
      responses['200'] = { [ok.type]: ok.body };
      if (op.responses['200'].content['text/markdown'] && !markdownPath) {
        responses['200']['text/markdown'] = expect(
          await call(url, { headers: { Accept: 'text/markdown' } }),
          200,
          `${url} as Markdown`,
        ).body;
      }
      if (op.responses['200'].content['application/x-ndjson']) {
        responses['200']['application/x-ndjson'] = expect(
          await call(exampleUrl(path, { ...own, format: 'ndjson' })),
          200,
          `${url} as NDJSON`,
        ).body;
      }
    }
    if (op.responses['400'])
      responses['400'] = {
        'application/problem+json': expect(
          await call(exampleUrl(path, { ...own, limit: 0, bogus: 1 })),
          400,
          `${url} refused`,
        ).body,
      };
    if (op.responses['404']) {
      const missingUrl = exampleUrl(path, { ...own, ...missingValues(own) });
      responses['404'] = {
        'application/problem+json': expect(
          await call(missingUrl, { method: method.toUpperCase() }),
          404,
          `${missingUrl} missing`,
        ).body,
      };
    }
    if (op.responses['206'] && !BINARY.has(ok.type))
      responses['206'] = {
        [ok.type]: expect(await call(url, { headers: { Range: 'bytes=0-' } }), 206, `${url} Range: bytes=0-`).body,
      };
    if (op.responses['416'])
      responses['416'] = {
        'application/problem+json': expect(
          await call(url, { headers: { Range: 'bytes=999999999-' } }),
          416,
          `${url} Range past the end`,
        ).body,
      };
    if (op.responses['406'])
      responses['406'] = {
        'application/problem+json': expect(
          await call(url, { headers: { Accept: 'image/png' } }),
          406,
          `${url} not acceptable`,
        ).body,
      };
    if (op.responses['409'] && method === 'get')
      responses['409'] = {
        // the path as the server names it in `instance` (its 416 said it)
        'application/problem+json': await changed(
          (responses['416']?.['application/problem+json'] as Json)?.instance ?? url,
          String(own.path ?? 'manifest.json'),
        ),
      };
    if (op.responses['503']) responses['503'] = { 'application/problem+json': busy(url.split('?')[0]) };
    for (const r of Object.values(responses))
      for (const t of Object.keys(r)) if (r[t] === '' && method === 'head') delete r[t];
    operations[`${method.toUpperCase()} ${path}`] = { parameters: own, responses };
  }
}

// Health and this document.
operations['GET /api/health'] = {
  parameters: {},
  responses: { 200: { 'application/json': (await call('/api/health')).body } },
};
const served = expect(await call('/api/openapi.json'), 200, 'the document').body as Json;
operations['GET /api/openapi.json'] = {
  parameters: {},
  responses: {
    200: {
      'application/json': {
        openapi: served.openapi,
        info: served.info,
        servers: served.servers,
        paths: { '/api/health': served.paths['/api/health'] },
      },
    },
    503: { 'application/problem+json': busy('/api/openapi.json') },
  },
};

// MCP: one tool call, and each refusal.
const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  call('/api/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: MCP_ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const toolCall = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'coverage', arguments: { from: year, to: year } },
};
const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
operations['POST /api/mcp'] = {
  parameters: {},
  requestBody: toolCall,
  responses: {
    200: { 'text/event-stream': expect(await rpc(toolCall), 200, 'MCP tools/call').body },
    400: {
      'application/json': expect(await rpc(Array.from({ length: 9 }, (_, i) => ({ ...ping, id: i }))), 400, 'MCP batch')
        .body,
    },
    403: {
      'application/json': expect(
        await answerForHost(`${origin}/api/mcp`, 'elsewhere.example', {
          headers: { 'Content-Type': 'application/json', Accept: MCP_ACCEPT },
          body: JSON.stringify(ping),
        }),
        403,
        'MCP Host',
      ).body,
    },
    406: { 'application/json': expect(await rpc(ping, { Accept: 'application/json' }), 406, 'MCP Accept').body },
    413: { 'application/json': expect(await rpc(' '.repeat(1024 * 1024 + 1)), 413, 'MCP body size').body },
    415: {
      'application/json': expect(await rpc(ping, { 'Content-Type': 'text/plain' }), 415, 'MCP Content-Type').body,
    },
    503: { 'application/problem+json': busy('/api/mcp') },
  },
};
expect(await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }), 202, 'MCP notification');
for (const method of ['GET', 'DELETE'])
  operations[`${method} /api/mcp`] = {
    parameters: {},
    responses: {
      405: { 'application/json': expect(await call('/api/mcp', { method }), 405, `${method} /api/mcp`).body },
    },
  };

const examples: Examples = { release, operations };
await mkdir(dirname(EXAMPLES_FILE), { recursive: true });
await writeFile(EXAMPLES_FILE, JSON.stringify(examples, null, 1) + '\n');
await running.close();
console.error(`wrote ${EXAMPLES_FILE}: ${Object.keys(operations).length} operations, release ${release}`);
