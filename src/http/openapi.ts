// OpenAPI 3.1 document generated from the route list (routes/index.ts: the endpoint table's entries, and the
// operations other routes carry), the JSON Schemas in schemas/ and the examples in schemas/examples/openapi.json (real
// requests and answers over the corpus, written by scripts/openapi-examples.ts). Every `$ref` points into components: a
// schema's `$defs` become components of their own. Checked by Redocly, openapi-typescript and test/openapi.test.ts,
// which drives every operation with its examples.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { EntityName } from '../../core/lake/format.ts';
import { ENTITIES, recordSchemaId } from '../queries/snapshots.ts';
import { schema, SCHEMA_DIR, schemas } from '../schemas.ts';
import { type Endpoint, isEndpoint, type Route } from './endpoints.ts';
import {
  CACHING,
  componentName,
  defName,
  type Examples,
  header,
  headerRef,
  HEADERS,
  openPath,
  type OperationExamples,
  operationId,
  pathParameter,
  problem,
  ref,
  response,
} from './openapi-parts.ts';

export { componentName, type Examples, type OperationExamples } from './openapi-parts.ts';

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
  // The page and record of any entity become one per entity (the paths are one per entity).
  const page = out[componentName('snapshot-page.json')] as { properties: object };
  delete out[componentName('snapshot-page.json')];
  delete out[componentName('snapshot-record.json')];
  for (const e of ENTITIES)
    out[entityPage(e.name)] = {
      ...page,
      title: `${componentName(recordSchemaId(e.name))}Page`,
      properties: {
        ...page.properties,
        entity: { const: e.name },
        records: { type: 'array', items: ref(recordSchemaId(e.name)) },
      },
    };
  return out;
}

/** The component of one entity's snapshot page: SnapshotPage whose records are that entity's. */
const entityPage = (entity: EntityName) => `${componentName(recordSchemaId(entity))}Page`;

export const EXAMPLES_FILE = join(SCHEMA_DIR, 'examples', 'openapi.json');

export function readExamples(): Examples {
  if (!existsSync(EXAMPLES_FILE)) return { release: '', operations: {} };
  return JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
}

/** A query parameter's schema as schemas/params/ write it. */
interface ParamSchema {
  description?: string;
  examples?: unknown[];
  enum?: unknown[];
  [keyword: string]: unknown;
}

/** The document before `servers` and `contact` name the server. */
interface OpenApiDocument {
  info: object;
  [field: string]: unknown;
}

/**
 * The operation of an endpoint of the table, on its own path or on its `.md` path (Markdown only); for a snapshot
 * endpoint, on the path of one `entity`, answering that entity's records.
 */
function endpointOperation(
  ep: Endpoint,
  openPath: string,
  markdownPath: boolean,
  ex: OperationExamples | undefined,
  entity?: EntityName,
): object {
  const p = schema(ep.params) as unknown as { properties: Record<string, ParamSchema>; required?: string[] };
  const names = [...ep.path.matchAll(/:(\w+)/g)].map((m) => m[1]).filter((n) => n !== 'entity' || !entity);
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
    : { 'application/json': responseSchema(ep, entity) };
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

/** The JSON answer's schema: one entity's page or record on that entity's path, else the endpoint's response. */
function responseSchema(ep: Endpoint, entity: EntityName | undefined): object {
  if (!entity) return ref(ep.response);
  if (ep.response === 'snapshot-page.json') return { $ref: `#/components/schemas/${entityPage(entity)}` };
  if (ep.response === 'snapshot-record.json') return ref(recordSchemaId(entity));
  throw new Error(`${ep.path}: no schema for one entity's ${ep.response}`);
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

/**
 * manifest.json, the one JSON file of a release, on a path of its own: the release files' operations with the `path`
 * parameter fixed and JSON as the only body, so tools that mock or validate an answer by its path's first media type
 * read a manifest there (the general path's first media type is Parquet).
 */
function manifestOperations(
  files: Record<string, unknown>,
  ex: (key: string) => OperationExamples | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [method, op] of Object.entries(files as Record<string, Record<string, unknown>>)) {
    const own = ex(`${method.toUpperCase()} /api/releases/{id}/files/manifest.json`);
    const responses = Object.fromEntries(
      Object.entries(op.responses as Record<string, Record<string, unknown>>).map(([status, r]) => {
        const content = r.content as Record<string, { schema: object }> | undefined;
        const json = content?.['application/json'];
        if (!content || !json || status.startsWith('4') || status.startsWith('5')) return [status, r];
        return [status, response(status, { 'application/json': json.schema }, own, { headers: r.headers })];
      }),
    );
    out[method] = {
      ...op,
      operationId: operationId(method, '/api/releases/{id}/files/manifest.json').replace('ReleasesIdFiles', 'Release'),
      summary: method === 'head' ? "The headers of a release's manifest.json" : "A kept release's manifest.json",
      parameters: (op.parameters as { name: string }[])
        .filter((p) => p.name !== 'path')
        .map((p) => ({ ...p, example: own?.parameters[p.name] })),
      responses,
    };
  }
  return out;
}

/** The release files' operations once manifest.json has its own path: no JSON body left (the others are not JSON). */
function withoutJson(files: Record<string, unknown>): Record<string, unknown> {
  const strip = (r: Record<string, unknown>) => {
    if (!r.content) return r;
    const { 'application/json': _json, ...content } = r.content as Record<string, unknown>;
    return { ...r, content };
  };
  return Object.fromEntries(
    Object.entries(files as Record<string, Record<string, unknown>>).map(([method, op]) => [
      method,
      {
        ...op,
        responses: Object.fromEntries(
          Object.entries(op.responses as Record<string, Record<string, unknown>>).map(([status, r]) => [
            status,
            status.startsWith('2') ? strip(r) : r,
          ]),
        ),
      },
    ]),
  );
}

const built = new WeakMap<readonly Route[], OpenApiDocument>();

function build(routes: readonly Route[]): OpenApiDocument {
  const examples = readExamples();
  const ex = (key: string) => examples.operations[key];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openPath(route.path);
    if (isEndpoint(route) && path.includes('{entity}')) {
      // One path per entity, so that each path's schema and examples name that entity's records (a mock server
      // answers /api/snapshots/documents with documents).
      for (const e of ENTITIES) {
        const own = path.replace('{entity}', e.name);
        paths[own] = { get: endpointOperation(route, own, false, ex(`GET ${own}`), e.name) };
      }
    } else if (isEndpoint(route)) {
      paths[path] = { get: endpointOperation(route, path, false, ex(`GET ${path}`)) };
      if (route.markdown)
        paths[`${path}.md`] = { get: endpointOperation(route, `${path}.md`, true, ex(`GET ${path}.md`)) };
    } else if (route.openapi) paths[path] = route.openapi(ex);
  }
  const files = paths['/api/releases/{id}/files/{path}'];
  if (files) {
    paths['/api/releases/{id}/files/manifest.json'] = manifestOperations(files, ex);
    paths['/api/releases/{id}/files/{path}'] = withoutJson(files);
  }
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
    components: {
      schemas: { ...components(), ...JSON_RPC },
      headers: { ...HEADERS, ReleaseId: { ...HEADERS.ReleaseId, example: examples.release || undefined } },
    },
  };
}

/** The document of `routes` as served from `base` (the public base URL): `servers` and the contact name it. */
export function openapiDocument(routes: readonly Route[], base = 'http://127.0.0.1:8080'): object {
  let cached = built.get(routes);
  if (!cached) built.set(routes, (cached = build(routes)));
  return {
    ...cached,
    info: { ...cached.info, contact: { name: 'Board Records (this service)', url: `${base}/` } },
    servers: [{ url: base, description: 'This server' }],
  };
}
