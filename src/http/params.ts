// Query-string parameters → a validated, typed object, by the endpoint's schema in schemas/params/.
import type { ParsedUrlQuery } from 'node:querystring';

import { InvalidParameter, type ParamError } from '../queries/errors.ts';
import type { ParamsSchemaId, SchemaTypes } from '../schema-types.ts';
import { checkParams } from '../schemas.ts';
import { paramErrors } from './errors.ts';

/** The parameters of a schema in schemas/params/, checked and typed by it (src/schema-types.ts). */
export function readParams<K extends ParamsSchemaId>(
  schemaId: K,
  query: ParsedUrlQuery,
  fixed?: Record<string, unknown>,
): SchemaTypes[K];
/** The same for a schema id the caller holds as a string (the router's walk of the table): the values, untyped. */
export function readParams<T extends Record<string, unknown>>(
  schemaId: string,
  query: ParsedUrlQuery,
  fixed?: Record<string, unknown>,
): T;
export function readParams(
  schemaId: string,
  query: ParsedUrlQuery,
  fixed: Record<string, unknown> = {},
): Record<string, unknown> {
  const errors: ParamError[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value))
      errors.push({
        parameter: name,
        rule: 'single',
        message: `${name} must be given once (got ${value.length} values)`,
      });
    else if (value === undefined || value === '')
      continue; // an empty field in a form means "not set"
    else values[name] = value;
  }
  if (errors.length) throw new InvalidParameter(errors);
  Object.assign(values, fixed);
  const raw = { ...values };
  const problems = checkParams(schemaId, values);
  if (problems.length) throw new InvalidParameter(paramErrors(problems, raw));
  return values; // what the schema checked: its type, once defaults are filled in
}
