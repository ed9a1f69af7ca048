// OpenAPI 3.1 document generated from the endpoint table, the JSON Schemas in schemas/ and the examples in
// schemas/examples/openapi.json (real requests and answers over the corpus, written by scripts/openapi-examples.ts).
// Every `$ref` points into components: a schema's `$defs` become components of their own. Checked by Redocly,
// openapi-typescript and test/openapi.test.ts, which drives every operation with its examples.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTITIES } from '../queries/snapshots.ts';
import { SCHEMA_DIR, schema, schemas } from '../schemas.ts';
import type { Endpoint } from './endpoints.ts';
import { endpoints } from './routes/index.ts';

export const componentName = (id: string) =>
  id
    .replace(/\.json$/, '')
    .split(/[/-]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

const defName = (id: string, def: string) => componentName(id) + componentName(def);
const ref = (id: string) => ({ $ref: `#/components/schemas/${componentName(id)}` });

/**
 * A schema of schemas/ as a component: `x.json` and `x.json#/$defs/d` refer to components, `#/$defs/d` to the
 * component hoisted from its own `$defs`; `$id`, `$schema` and `$defs` are dropped.
 */
function toComponent(value: unknown, owner: string): unknown {
  if (Array.isArray(value)) return value.map((v) => toComponent(v, owner));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$id' || k === '$schema' || k === '$defs') continue;
    if (k === '$ref' && typeof v === 'string') {
      const m = /^([^#]*)(?:#\/\$defs\/(.+))?$/.exec(v);
      if (!m || (!m[1] && !m[2])) throw new Error(`${owner}: cannot place $ref ${v} in components`);
      const file = m[1] || owner;
      out[k] = `#/components/schemas/${m[2] ? defName(file, m[2]) : componentName(file)}`;
    } else out[k] = toComponent(v, owner);
  }
  return out;
}

/** Every response schema and every `$defs` entry (of any schema, parameters included) as components. */
function components(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of schemas) {
    if (!s.$id.startsWith('params/')) out[componentName(s.$id)] = toComponent(s, s.$id);
    for (const [d, def] of Object.entries((s.$defs ?? {}) as Record<string, unknown>))
      out[defName(s.$id, d)] = toComponent(def, s.$id);
  }
  return out;
}

/** What scripts/openapi-examples.ts wrote: per operation (`GET /api/pages/{id}`), its parameters and its answers. */
export interface OperationExamples {
  parameters: Record<string, unknown>;
  /** By status, then media type: the body (a string for Markdown and NDJSON). */
  responses: Record<string, Record<string, unknown>>;
  /** The request body of a POST. */
  requestBody?: unknown;
}
export interface Examples {
  release: string;
  operations: Record<string, OperationExamples>;
}

export const EXAMPLES_FILE = join(SCHEMA_DIR, 'examples', 'openapi.json');

export function readExamples(): Examples {
  if (!existsSync(EXAMPLES_FILE)) return { release: '', operations: {} };
  return JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
}

const problem = { $ref: '#/components/schemas/Problem' };
const jsonRpcError = { $ref: '#/components/schemas/JsonRpcError' };
const header = (description: string, s: object = { type: 'string' }) => ({ description, schema: s });
const RELEASE_HEADER = header('The release that answered.', { type: 'string', pattern: '^[0-9a-f]{16}$' });

const STATUS: Record<string, string> = {
  '200': 'OK',
  '206': 'Partial content: the byte range the Range header asked for (Content-Range says which)',
  '202': 'Accepted (a notification or a response: nothing to answer)',
  '304': 'Not modified: If-None-Match named the current ETag',
  '400': 'A parameter broke a rule: `errors` lists each one as {parameter, rule, message}',
  '403': 'Host or Origin names another site (DNS rebinding protection)',
  '404': 'No such record, or the release asked for is not kept on this server',
  '405': 'Method not allowed',
  '406': 'Not acceptable: the Accept header names no media type this endpoint answers',
  '413': 'The request body is larger than 1 MiB',
  '415': 'Content-Type is not application/json',
  '416': 'Range not satisfiable: the range starts past the end of the file (Content-Range: bytes */size)',
  '503': 'Busy (too many requests waiting, or a query past its time limit); retry after Retry-After seconds',
};

/**
 * One response: `content` by media type with its schema; the example is the one the script recorded for this
 * operation, status and media type, if any.
 */
function response(
  status: string,
  content: Record<string, object> | null,
  ex: OperationExamples | undefined,
  extra: object = {},
  fixed: Record<string, unknown> = {},
): object {
  const recorded = { ...fixed, ...(ex?.responses[status] ?? {}) };
  const out: Record<string, unknown> = { description: STATUS[status], ...extra };
  if (content) {
    out.content = Object.fromEntries(
      Object.entries(content).map(([type, s]) => [
        type,
        { schema: s, ...(recorded[type] !== undefined ? { example: recorded[type] } : {}) },
      ]),
    );
  }
  if (status === '503')
    out.headers = {
      'Retry-After': headerRef('RetryAfter'),
      ...(out.headers as object),
    };
  return out;
}

/** `/api/pages/{id}.md` → `getPagesIdMd`. */
const operationId = (method: string, path: string) =>
  method +
  path
    .replace(/^\/api\//, '')
    .split(/[/.{}-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

function pathParameter(name: string, path: string, example: unknown): object {
  const schemas: Record<string, [object, string]> = {
    entity: [{ enum: ENTITIES.map((e) => e.name) }, 'The snapshot entity.'],
    date: [{ type: 'string', format: 'date' }, 'The meeting date (YYYY-MM-DD).'],
    id: path.startsWith('/api/releases/')
      ? [{ type: 'string', pattern: '^[0-9a-f]{16}$' }, 'A release id (GET /api/releases lists those kept).']
      : path.startsWith('/api/snapshots/')
        ? [{ type: 'string', minLength: 1 }, "The record's key (the entity's `key` column in the snapshot manifest)."]
        : [{ type: 'string', minLength: 1 }, "The record id (a search result's `id`)."],
    path: [
      { type: 'string', minLength: 1 },
      'A file the release manifest lists (`tables.*.files[].path`, which may hold `/`), or manifest.json.',
    ],
  };
  const [s, description] = schemas[name] ?? [{ type: 'string' }, ''];
  return { name, in: 'path', required: true, description, schema: s, ...(example !== undefined ? { example } : {}) };
}

/** Headers every table endpoint sends, described once in components.headers. */
const HEADERS = {
  ETag: header('Identifies this answer (release, URL and format); send it back as If-None-Match for a 304.'),
  CacheControl: header('public, max-age=60'),
  ReleaseId: RELEASE_HEADER,
  RetryAfter: header('Seconds to wait before retrying.', { type: 'integer' }),
  Link: header('`<url>; rel="next"`: the next page (absolute), while there is one; the body carries the same cursor.'),
};
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const CACHING = {
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('CacheControl'),
  'X-Release-Id': headerRef('ReleaseId'),
};

/** The operation of an endpoint of the table, on its own path or on its `.md` path (Markdown only). */
function endpointOperation(
  ep: Endpoint,
  openPath: string,
  markdownPath: boolean,
  ex: OperationExamples | undefined,
): object {
  const p = schema(ep.params) as unknown as { properties: Record<string, any>; required?: string[] };
  const names = [...ep.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const pathParams = names.map((n) => pathParameter(n, ep.path, ex?.parameters[n]));
  const query = Object.entries(p.properties)
    .filter(([name]) => !(markdownPath && name === 'format'))
    .map(([name, s]) => {
      const { description, examples: _examples, ...rest } = s;
      const example = ex?.parameters[name];
      return {
        name,
        in: 'query',
        required: (p.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: toComponent(rest, ep.params),
        ...(example !== undefined ? { example } : {}),
      };
    });
  const markdown = { type: 'string', description: 'The same answer as Markdown.' };
  const ok: Record<string, object> = markdownPath
    ? { 'text/markdown': markdown }
    : { 'application/json': ref(ep.response) };
  if (!markdownPath && ep.markdown) ok['text/markdown'] = markdown;
  const ndjsonHeaders = {
    'X-Schema-Version': header('The snapshot schema version (NDJSON only).'),
    'X-Total-Count': header('Records of the entity in the release (NDJSON only).', { type: 'integer' }),
    'X-Next-Cursor': header('The cursor of the next page; absent on the last page (NDJSON only).', { type: 'integer' }),
  };
  if (ep.ndjson)
    ok['application/x-ndjson'] = {
      type: 'string',
      description:
        'One record per line, as `records` of the JSON page (format=ndjson, or Accept: application/x-ndjson).',
    };
  if ((p.properties.format?.enum ?? []).includes('arrow'))
    ok['application/vnd.apache.arrow.stream'] = {
      type: 'string',
      contentMediaType: 'application/vnd.apache.arrow.stream',
      description: 'The page as an Arrow IPC stream (format=arrow), columns typed by the record schema.',
    };
  // Paged answers say where the next page is in a Link header too.
  const paged = 'cursor' in p.properties || 'after' in p.properties ? { Link: headerRef('Link') } : {};
  const canMiss = names.length > 0 || 'release' in p.properties;
  const markdownNote = markdownPath
    ? ' Markdown: the same as the path without `.md` with `format=md` or `Accept: text/markdown`.'
    : ep.markdown
      ? ' Markdown with the `.md` suffix, `format=md` or `Accept: text/markdown`.'
      : '';
  return {
    operationId: operationId('get', openPath),
    summary: markdownPath ? `${ep.summary} (Markdown)` : ep.summary,
    description: `${ep.description ? `${ep.description} ` : ''}${markdownNote}`.trim() || undefined,
    tags: [ep.tag],
    parameters: [...pathParams, ...query],
    responses: {
      200: response('200', ok, ex, { headers: { ...CACHING, ...paged, ...(ep.ndjson ? ndjsonHeaders : {}) } }),
      304: response('304', null, ex, { headers: CACHING }),
      400: response('400', { 'application/problem+json': problem }, ex),
      ...(canMiss ? { 404: response('404', { 'application/problem+json': problem }, ex) } : {}),
      ...(markdownPath ? {} : { 406: response('406', { 'application/problem+json': problem }, ex) }),
      503: response('503', { 'application/problem+json': problem }, ex),
    },
  };
}

/** The routes outside the endpoint table: MCP, health, this document, release files. */
function otherPaths(ex: (key: string) => OperationExamples | undefined): Record<string, Record<string, unknown>> {
  const mcpPost = ex('POST /api/mcp');
  const rpc405 = (method: string) => ({
    operationId: operationId(method, '/api/mcp'),
    summary: `Not supported: the MCP endpoint is stateless (no SSE stream, no sessions)`,
    tags: ['mcp'],
    responses: { 405: response('405', { 'application/json': jsonRpcError }, ex(`${method.toUpperCase()} /api/mcp`)) },
  });
  const files = ex('GET /api/releases/{id}/files/{path}');
  const fileParams = ['id', 'path'].map((n) =>
    pathParameter(n, '/api/releases/{id}/files/{path}', files?.parameters[n]),
  );
  const fileHeaders = {
    ETag: header("The file's sha256 (quoted), as the manifest lists it."),
    'Cache-Control': header('public, max-age=31536000, immutable'),
    'Content-Length': header('The file size in bytes (of the range, for a 206).', { type: 'integer' }),
    'Accept-Ranges': header('bytes: every release file answers Range requests.'),
    'X-Release-Id': headerRef('ReleaseId'),
  };
  const fileContent = {
    'application/vnd.apache.parquet': {
      type: 'string',
      contentMediaType: 'application/vnd.apache.parquet',
      description: 'A Parquet table file of the release (bytes).',
    },
    'application/octet-stream': {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'An index text store (`index/*_text.bin`, raw-deflated texts at the offsets its docs table gives).',
    },
    'application/json': { type: 'object', description: 'manifest.json: the release manifest (tables, files, sha256).' },
    'text/plain': {
      type: 'string',
      description: 'SHA256SUMS: `<sha256>  <path>` per data file, for `sha256sum -c SHA256SUMS` (lake/README.md).',
    },
  };
  const sums = { 'text/plain': `${'0'.repeat(64)}  documents/year=2016/data_0.parquet\n` };
  const fileResponses = (method: string) => ({
    200: response('200', fileContent, method === 'get' ? files : undefined, { headers: fileHeaders }, sums),
    // HEAD answers the whole file's headers: Range applies to GET only.
    ...(method === 'get'
      ? {
          206: response(
            '206',
            fileContent,
            files,
            { headers: { ...fileHeaders, 'Content-Range': header('bytes first-last/size') } },
            sums,
          ),
        }
      : {}),
    304: response('304', null, undefined, { headers: fileHeaders }),
    404: response('404', { 'application/problem+json': problem }, files),
    ...(method === 'get'
      ? {
          416: response('416', { 'application/problem+json': problem }, files, {
            headers: { 'Content-Range': header('bytes */size') },
          }),
        }
      : {}),
    503: response('503', { 'application/problem+json': problem }, files),
  });
  const health = ex('GET /api/health');
  const doc = ex('GET /api/openapi.json');
  return {
    '/api/mcp': {
      post: {
        operationId: operationId('post', '/api/mcp'),
        summary: 'MCP (Model Context Protocol) Streamable HTTP, stateless: one JSON-RPC message or a batch per request',
        description:
          'Protocol 2026-07-28 and the 2025 line; no sessions. The client must accept both application/json and text/event-stream. Tools are generated from the REST endpoints (tools/list). Host and Origin are checked; no CORS.',
        tags: ['mcp'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/JsonRpcMessages' },
              ...(mcpPost?.requestBody !== undefined ? { example: mcpPost.requestBody } : {}),
            },
          },
        },
        responses: {
          200: response(
            '200',
            {
              'text/event-stream': {
                type: 'string',
                description:
                  'Server-sent events (`event: message`), each a JSON-RPC response to a message of the request',
              },
            },
            mcpPost,
          ),
          202: response('202', null, mcpPost),
          400: response('400', { 'application/json': jsonRpcError }, mcpPost, {
            description: 'Malformed JSON-RPC, a bad Host header or a batch of more messages than allowed',
          }),
          403: response('403', { 'application/json': jsonRpcError }, mcpPost),
          406: response('406', { 'application/json': jsonRpcError }, mcpPost),
          413: response('413', { 'application/json': jsonRpcError }, mcpPost),
          415: response('415', { 'application/json': jsonRpcError }, mcpPost),
          503: response('503', { 'application/problem+json': problem }, mcpPost),
        },
      },
      get: rpc405('get'),
      delete: rpc405('delete'),
    },
    '/api/health': {
      get: {
        operationId: 'getHealth',
        summary:
          'Liveness and the release served: ok, or degraded while a fallback release is served; answered outside admission',
        tags: ['service'],
        responses: {
          200: response('200', { 'application/json': ref('health.json') }, health, {
            headers: {
              'X-Release-Id': headerRef('ReleaseId'),
              ETag: header('Of this answer; If-None-Match gets a 304 while nothing changed.'),
              'Cache-Control': header('no-cache'),
            },
          }),
          304: response('304', null, undefined),
        },
      },
    },
    '/api/openapi.json': {
      get: {
        operationId: 'getOpenapiJson',
        summary: 'This document (OpenAPI 3.1)',
        tags: ['service'],
        responses: {
          200: response(
            '200',
            {
              'application/json': {
                type: 'object',
                required: ['openapi', 'info', 'paths'],
                properties: {
                  openapi: { const: '3.1.0' },
                  info: { type: 'object' },
                  servers: { type: 'array' },
                  paths: { type: 'object' },
                },
              },
            },
            doc,
            { headers: { ETag: header('Of the document.'), 'Cache-Control': header('public, max-age=300') } },
          ),
          304: response('304', null, undefined),
          503: response('503', { 'application/problem+json': problem }, doc),
        },
      },
    },
    '/api/releases/{id}/files/{path}': {
      get: {
        operationId: 'getReleaseFile',
        summary:
          "A kept release's manifest.json or one of the files it lists (Parquet and the index text stores), immutable",
        description:
          "Only releases this server verified; the ETag is the file's sha256. `Range: bytes=first-last` (or `first-`, `-suffix`) answers 206, so remote Parquet readers fetch footers and row groups only; `If-Range` with the ETag keeps the range, any other validator gets the whole file; several ranges are answered as one span. Answered outside admission, with its own bound on downloads at once (503).",
        tags: ['data'],
        parameters: fileParams,
        responses: fileResponses('get'),
      },
      head: {
        operationId: 'headReleaseFile',
        summary: 'The headers of a release file (size, sha256 ETag) without its bytes',
        tags: ['data'],
        parameters: fileParams,
        responses: fileResponses('head'),
      },
    },
  };
}

const JSON_RPC = {
  JsonRpcError: {
    type: 'object',
    description: 'A JSON-RPC 2.0 error answer: how the MCP endpoint refuses a request',
    required: ['jsonrpc', 'error', 'id'],
    properties: {
      jsonrpc: { const: '2.0' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
      },
      id: { type: ['string', 'integer', 'null'] },
    },
  },
  JsonRpcMessage: {
    type: 'object',
    description: 'A JSON-RPC 2.0 request or notification (MCP methods: initialize, tools/list, tools/call, ping, …)',
    required: ['jsonrpc', 'method'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer'] },
      method: { type: 'string' },
      params: { type: 'object' },
    },
  },
  JsonRpcMessages: {
    description: 'One JSON-RPC message, or a batch of them',
    oneOf: [
      { $ref: '#/components/schemas/JsonRpcMessage' },
      { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/JsonRpcMessage' } },
    ],
  },
};

let cached: Record<string, any> | null = null;

function build(): Record<string, any> {
  const examples = readExamples();
  const ex = (key: string) => examples.operations[key];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const ep of endpoints) {
    const openPath = ep.path.replace(/:(\w+)/g, '{$1}');
    paths[openPath] = { get: endpointOperation(ep, openPath, false, ex(`GET ${openPath}`)) };
    if (ep.markdown)
      paths[`${openPath}.md`] = { get: endpointOperation(ep, `${openPath}.md`, true, ex(`GET ${openPath}.md`)) };
  }
  Object.assign(paths, otherPaths(ex));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Board Records',
      version: '2.0.0',
      description:
        "Public, read-only search and data service over the San Francisco Board of Supervisors' agendas, minutes, legislative files, recorded roll calls and public-comment summaries. A recorded position is not a stance on the underlying matter.\n\nThe API is public: no authentication. Every answer carries `X-Release-Id`; `release=<id>` pins a kept release where offered. Errors are RFC 9457 problem documents (`application/problem+json`); any method other than GET, HEAD and OPTIONS on a REST path answers 405. Markdown: the `.md` path suffix, `format=md`, or `Accept: text/markdown`. Compressible answers are gzip or br by Accept-Encoding (with Vary: Accept-Encoding; NDJSON coded as it streams); release files are sent as stored. Each problem `type` is a page on this server describing the problem.",
      license: {
        name: 'Public records of the City and County of San Francisco; no further license is asserted',
        url: 'https://sfbos.org/',
      },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: [
      { name: 'search', description: 'Full-text search over pages, legislative items and public comment' },
      { name: 'records', description: 'One record by id, and meetings' },
      { name: 'answers', description: 'Evidence for a whole question, and counted recorded positions' },
      {
        name: 'data',
        description: 'Bulk data: snapshots, the change feed, coverage, quality, releases and their files',
      },
      { name: 'mcp', description: 'The Model Context Protocol endpoint' },
      { name: 'service', description: 'Health and this document' },
    ],
    paths,
    components: { schemas: { ...components(), ...JSON_RPC }, headers: HEADERS },
  };
}

/** The document as served from `base` (the public base URL): `servers` and the contact name it. */
export function openapi(base = 'http://127.0.0.1:8080'): object {
  cached ??= build();
  return {
    ...cached,
    info: { ...cached.info, contact: { name: 'Board Records (this service)', url: `${base}/` } },
    servers: [{ url: base, description: 'This server' }],
  };
}
