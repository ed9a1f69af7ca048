// Errors of the HTTP layer, and `toProblem`: what any error thrown in a request answers as an RFC 9457 problem document.
import type { ErrorObject } from 'ajv';

import { busyDetail } from '../lake/pool.ts';
import { InvalidParameter, type ParamError } from '../queries/errors.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    /** The problem type (a key of PROBLEM_TYPES); by default the one of its status. */
    readonly type?: ProblemType,
  ) {
    super(detail);
  }
}

/**
 * Every problem type the server emits: a problem document's `type` is `<public base>/problems/<key>`, a page on this
 * server (HTML, or JSON when asked) that says what the problem means and what to do about it.
 */
export const PROBLEM_TYPES = {
  'invalid-parameter': {
    status: 400,
    title: 'Invalid request parameters',
    description:
      "A query or path parameter broke a rule of the endpoint's parameter schema: a missing required parameter, an unknown one, a value of the wrong type, out of range or of the wrong form. Integers are decimal digits only; date-times must be real instants.",
    action:
      'Read `errors`: one entry per broken rule, each with the parameter, the rule and a message. Fix those parameters and send the request again; the OpenAPI document at /api/openapi.json lists every parameter.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description:
      'No resource at this path: an unknown path, a record id the release does not hold, or a representation the endpoint does not offer (for example a `.md` path of an endpoint that answers JSON only).',
    action: 'Check the path against /api/openapi.json; record ids come from search answers and the change feed.',
  },
  'release-not-kept': {
    status: 404,
    title: 'Release not kept',
    description: 'The request pinned a release (`release=<id>`) that this server no longer keeps (or never had).',
    action: 'Pick one of `keptReleases`, or drop the pin to use the current release.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The service is read-only: its resources answer GET, HEAD and OPTIONS (and the MCP endpoint POST).',
    action: 'Use one of the methods in the Allow header.',
  },
  'not-acceptable': {
    status: 406,
    title: 'Not acceptable',
    description: 'The Accept header names no media type the endpoint can answer with.',
    action: 'Accept application/json (and, where offered, text/markdown or application/x-ndjson).',
  },
  'release-file-changed': {
    status: 409,
    title: 'Release file changed',
    description:
      "A file of a kept release is no longer what its manifest lists (replaced by a link, or another size) since the server verified the release: it is not sent under the manifest's checksum.",
    action: 'Download the current release (`/api/releases`); the operator is told by the server log.',
  },
  'range-not-satisfiable': {
    status: 416,
    title: 'Range not satisfiable',
    description: 'The requested byte range lies outside the file.',
    action: "Ask for a range within the file's size (Content-Range on the answer gives it).",
  },
  'internal-error': {
    status: 500,
    title: 'Internal error',
    description: 'The server failed to answer for a reason of its own; it was logged.',
    action: 'Retry later; if it persists, report the request and the X-Release-Id header.',
  },
  'service-busy': {
    status: 503,
    title: 'Service busy',
    description:
      'The server is at its limit: too many requests are admitted or waiting, too many release files are being downloaded, or the query took longer than its time limit and was stopped.',
    action:
      'Retry after the seconds in Retry-After; a query that timed out may need narrower parameters (a year, a smaller limit).',
  },
} as const satisfies Record<string, { status: number; title: string; description: string; action: string }>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** The problem type of an answer with this status and no type of its own. */
export function problemTypeOf(status: number): ProblemType {
  const byStatus = (Object.keys(PROBLEM_TYPES) as ProblemType[]).find((k) => PROBLEM_TYPES[k].status === status);
  return byStatus ?? (status >= 500 ? 'internal-error' : status === 400 ? 'invalid-parameter' : 'not-found');
}

export const notFound = (detail: string) => new HttpError(404, 'Not found', detail);

export interface Problem {
  status: number;
  type: ProblemType;
  title: string;
  detail: string;
  extra: Record<string, unknown>;
  headers: Record<string, string>;
}

/** The problem document an error answers as; null for an unexpected error (a 500, logged). */
export function toProblem(e: unknown): Problem | null {
  if (e instanceof HttpError)
    return {
      status: e.status,
      type: e.type ?? problemTypeOf(e.status),
      title: e.title,
      detail: e.message,
      extra: e.extra,
      headers: e.headers,
    };
  if (e instanceof InvalidParameter)
    return {
      status: 400,
      type: 'invalid-parameter',
      title: 'Invalid request parameters',
      detail: e.message,
      extra: { errors: e.errors, ...e.extra },
      headers: {},
    };
  const busy = busyDetail(e);
  if (busy)
    return {
      status: 503,
      type: 'service-busy',
      title: 'Service busy',
      detail: busy,
      extra: {},
      headers: { 'Retry-After': '1' },
    };
  return null;
}

const describe = (v: unknown) =>
  typeof v === 'string' ? `'${v.length > 40 ? v.slice(0, 40) + '…' : v}'` : JSON.stringify(v);

/** One plain sentence per violated parameter rule, naming the parameter and the rule. */
export function paramErrors(errors: ErrorObject[], values: Record<string, unknown>): ParamError[] {
  const out: ParamError[] = [];
  for (const e of errors) {
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'required') {
      const name = String(p.missingProperty);
      out.push({ parameter: name, rule: 'required', message: `${name} is required` });
      continue;
    }
    if (e.keyword === 'additionalProperties') {
      const name = String(p.additionalProperty);
      out.push({ parameter: name, rule: 'unknown', message: `${name} is not a parameter of this endpoint` });
      continue;
    }
    const name = e.instancePath.replace(/^\//, '').split('/')[0];
    const got = describe(values[name]);
    const message =
      (
        {
          minLength: `${name} must be at least ${p.limit} characters (got ${String(values[name]).length})`,
          maxLength: `${name} must be at most ${p.limit} characters (got ${String(values[name]).length})`,
          minimum: `${name} must be ≥ ${p.limit} (got ${got})`,
          maximum: `${name} must be ≤ ${p.limit} (got ${got})`,
          type: `${name} must be ${p.type === 'integer' ? 'an integer' : p.type === 'boolean' ? 'true or false' : `a ${p.type}`} (got ${got})`,
          enum: `${name} must be one of ${(p.allowedValues as unknown[] | undefined)?.join(', ')} (got ${got})`,
          format: `${name} must be a ${p.format} (got ${got})`,
          pattern: `${name} has an invalid form (got ${got})`,
        } as Record<string, string>
      )[e.keyword] ?? `${name} ${e.message ?? 'is invalid'}`;
    out.push({ parameter: name, rule: e.keyword, message });
  }
  return out.filter((e, i) => out.findIndex((x) => x.parameter === e.parameter && x.rule === e.rule) === i);
}
