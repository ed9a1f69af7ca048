// Errors of the HTTP layer, and `toProblem`: what any error thrown in a request answers as an RFC 9457 problem document.
import type { ErrorObject } from 'ajv';
import { Overloaded, QueryTimeout } from '../lake/pool.ts';
import { InvalidParameter, type ParamError } from '../queries/errors.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const notFound = (detail: string) => new HttpError(404, 'Not found', detail);

export interface Problem { status: number; title: string; detail: string; extra: Record<string, unknown>; headers: Record<string, string> }

/** The problem document an error answers as; null for an unexpected error (a 500, logged). */
export function toProblem(e: unknown): Problem | null {
  if (e instanceof HttpError) return { status: e.status, title: e.title, detail: e.message, extra: e.extra, headers: e.headers };
  if (e instanceof InvalidParameter) return { status: 400, title: 'Invalid request parameters', detail: e.message, extra: { errors: e.errors, ...e.extra }, headers: {} };
  if (e instanceof QueryTimeout) return { status: 503, title: 'Service busy', detail: 'the query took too long and was stopped; try a narrower request', extra: {}, headers: { 'Retry-After': '1' } };
  if (e instanceof Overloaded) return { status: 503, title: 'Service busy', detail: 'too many requests are waiting; retry shortly', extra: {}, headers: { 'Retry-After': '1' } };
  return null;
}

const describe = (v: unknown) => (typeof v === 'string' ? `'${v.length > 40 ? v.slice(0, 40) + '…' : v}'` : JSON.stringify(v));

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
    const message = ({
      minLength: `${name} must be at least ${p.limit} characters (got ${String(values[name]).length})`,
      maxLength: `${name} must be at most ${p.limit} characters (got ${String(values[name]).length})`,
      minimum: `${name} must be ≥ ${p.limit} (got ${got})`,
      maximum: `${name} must be ≤ ${p.limit} (got ${got})`,
      type: `${name} must be ${p.type === 'integer' ? 'an integer' : p.type === 'boolean' ? 'true or false' : `a ${p.type}`} (got ${got})`,
      enum: `${name} must be one of ${(p.allowedValues as unknown[] | undefined)?.join(', ')} (got ${got})`,
      format: `${name} must be a ${p.format} (got ${got})`,
      pattern: `${name} has an invalid form (got ${got})`,
    } as Record<string, string>)[e.keyword] ?? `${name} ${e.message ?? 'is invalid'}`;
    out.push({ parameter: name, rule: e.keyword, message });
  }
  return out.filter((e, i) => out.findIndex((x) => x.parameter === e.parameter && x.rule === e.rule) === i);
}
