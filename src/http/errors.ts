// Typed errors thrown anywhere in a request, turned into RFC 9457 problem documents in one place.
import type { ErrorObject } from 'ajv';

export interface ParamError { parameter: string; rule: string; message: string }

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

export class BadRequest extends HttpError {
  constructor(readonly errors: ParamError[], extra: Record<string, unknown> = {}) {
    super(400, 'Invalid request parameters', errors.map((e) => e.message).join('; '), { errors, ...extra });
  }
}

export const notFound = (detail: string) => new HttpError(404, 'Not found', detail);

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
