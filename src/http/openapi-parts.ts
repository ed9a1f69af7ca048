// The pieces of the OpenAPI document (src/http/openapi.ts) that route entries describe their operations with:
// responses by status with their recorded examples, headers, path parameters and operation ids. A route outside the
// endpoint table carries its operations (`RawRoute.openapi`), built from these.
import { ENTITIES } from '../queries/snapshots.ts';

export const componentName = (id: string) =>
  id
    .replace(/\.json$/, '')
    .split(/[/-]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

export const defName = (id: string, def: string) => componentName(id) + componentName(def);
export const ref = (id: string) => ({ $ref: `#/components/schemas/${componentName(id)}` });

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

export const problem = { $ref: '#/components/schemas/Problem' };
export const jsonRpcError = { $ref: '#/components/schemas/JsonRpcError' };
export const header = (description: string, s: object = { type: 'string' }) => ({ description, schema: s });
export const RELEASE_HEADER = header('The release that answered.', { type: 'string', pattern: '^[0-9a-f]{16}$' });

export const STATUS: Record<string, string> = {
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
  '409': 'The release file is no longer what its manifest lists (replaced by a link, or resized): not served',
  '415': 'Content-Type is not application/json',
  '416': 'Range not satisfiable: the range starts past the end of the file (Content-Range: bytes */size)',
  '503': 'Busy (too many requests waiting, or a query past its time limit); retry after Retry-After seconds',
};

/**
 * One response: `content` by media type with its schema; the example is the one the script recorded for this
 * operation, status and media type, if any.
 */
export function response(
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
        { schema: s, ...(recorded[type] !== undefined ? { example: inertExample(recorded[type]) } : {}) },
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

/**
 * An example as tools can read it. Tools resolve every `$ref` of the document, examples included, against the
 * document, so a JSON Schema an answer carries (a snapshot entity's `recordSchema`) has its own `#/$defs/…` references
 * inlined and its `$defs` dropped: the same schema, with nothing left for a tool to resolve.
 */
export function inertExample(value: unknown, defs: Record<string, unknown> = {}): unknown {
  if (Array.isArray(value)) return value.map((v) => inertExample(v, defs));
  if (!value || typeof value !== 'object') return value;
  const own = value as Record<string, unknown>;
  const scope = { ...defs, ...((own.$defs ?? {}) as Record<string, unknown>) };
  const local = typeof own.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(own.$ref) : null;
  if (local && local[1] in scope) {
    if (JSON.stringify(scope[local[1]]).includes(`"#/$defs/${local[1]}"`))
      throw new Error(`${own.$ref} refers to itself: an example cannot inline it`);
    const { $ref: _ref, ...rest } = own;
    return inertExample({ ...(scope[local[1]] as object), ...rest }, scope);
  }
  return Object.fromEntries(
    Object.entries(own)
      .filter(([k]) => k !== '$defs')
      .map(([k, v]) => [k, inertExample(v, scope)]),
  );
}

/** `/api/pages/{id}.md` → `getPagesIdMd`. */
export const operationId = (method: string, path: string) =>
  method +
  path
    .replace(/^\/api\//, '')
    .split(/[/.{}-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

export function pathParameter(name: string, path: string, example: unknown): object {
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
      'A file the release manifest lists (`tables.*.files[].path`), or manifest.json; its `/` may be sent as is or as `%2F`.',
    ],
  };
  const [s, description] = schemas[name] ?? [{ type: 'string' }, ''];
  return { name, in: 'path', required: true, description, schema: s, ...(example !== undefined ? { example } : {}) };
}

/** Headers every table endpoint sends, described once in components.headers. */
export const HEADERS = {
  ETag: {
    ...header('Identifies this answer (release, URL and format); send it back as If-None-Match for a 304.'),
    example: '"N3m0q1bR0pPqgQ2Qm8d3u0JZ6yX"',
  },
  CacheControl: { ...header('public, max-age=60'), example: 'public, max-age=60' },
  LastModified: {
    ...header("The release's publication time (HTTP date): send it back as If-Modified-Since for a 304."),
    example: 'Sun, 29 Nov 2026 01:56:47 GMT',
  },
  ReleaseId: RELEASE_HEADER,
  RetryAfter: header('Seconds to wait before retrying.', { type: 'integer' }),
  Link: header('`<url>; rel="next"`: the next page (absolute), while there is one; the body carries the same cursor.'),
};
export const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
export const CACHING = {
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('CacheControl'),
  'Last-Modified': headerRef('LastModified'),
  'X-Release-Id': headerRef('ReleaseId'),
};

/** A router path as the document writes it: `:id` and `{*path}` become `{id}` and `{path}`. */
export const openPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\{\*(\w+)\}/g, '{$1}');

/** The operations of a route outside the endpoint table, by method, given the examples recorded per operation. */
export type Operations = (ex: (key: string) => OperationExamples | undefined) => Record<string, object>;
