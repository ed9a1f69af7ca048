// Query-string parameters → a validated, typed object, by the endpoint's schema in schemas/params/.
import type { ParsedUrlQuery } from 'node:querystring';
import { checkParams } from '../schemas.ts';
import { InvalidParameter, type ParamError } from '../queries/errors.ts';
import { paramErrors } from './errors.ts';

export function readParams<T>(schemaId: string, query: ParsedUrlQuery, fixed: Record<string, unknown> = {}): T {
  const errors: ParamError[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) errors.push({ parameter: name, rule: 'single', message: `${name} must be given once (got ${value.length} values)` });
    else if (value === undefined || value === '') continue; // an empty field in a form means "not set"
    else values[name] = value;
  }
  if (errors.length) throw new InvalidParameter(errors);
  Object.assign(values, fixed);
  const raw = { ...values };
  const problems = checkParams(schemaId, values);
  if (problems.length) throw new InvalidParameter(paramErrors(problems, raw));
  return values as T;
}
