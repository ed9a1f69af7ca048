// Every JSON Schema in schemas/, compiled once with ajv: request parameters are checked against schemas/params/*,
// and responses against their response schema (the contract checks, and the tests).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');

type Schema = Record<string, unknown> & { $id: string };

function readSchemas(dir: string): Schema[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return readSchemas(path);
    if (!e.name.endsWith('.json')) return [];
    const schema = JSON.parse(readFileSync(path, 'utf8')) as Schema;
    if (schema.$id !== relative(SCHEMA_DIR, path)) throw new Error(`${path}: $id must be ${relative(SCHEMA_DIR, path)}`);
    return [schema];
  });
}

export const schemas: Schema[] = readSchemas(SCHEMA_DIR);

const makeAjv = (coerce: boolean) => {
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: coerce, useDefaults: coerce });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  for (const s of schemas) ajv.addSchema(s);
  return ajv;
};

const responses = makeAjv(false);
const params = makeAjv(true);

const compiled = new Map<string, ValidateFunction>();
function validator(ajv: Ajv2020, id: string): ValidateFunction {
  const key = `${ajv === params ? 'p' : 'r'}:${id}`;
  let v = compiled.get(key);
  if (!v) {
    v = ajv.getSchema(id);
    if (!v) throw new Error(`no schema ${id}`);
    compiled.set(key, v);
  }
  return v;
}

export function schema(id: string): Schema {
  const s = schemas.find((x) => x.$id === id);
  if (!s) throw new Error(`no schema ${id}`);
  return s;
}

/** Validates a response body; returns the violations (empty when valid). */
export function checkResponse(id: string, body: unknown): ErrorObject[] {
  const v = validator(responses, id);
  return v(body) ? [] : [...(v.errors ?? [])];
}

/** Validates and coerces (string → integer/boolean, defaults filled) a parameter object in place. */
export function checkParams(id: string, values: Record<string, unknown>): ErrorObject[] {
  const v = validator(params, id);
  return v(values) ? [] : [...(v.errors ?? [])];
}
