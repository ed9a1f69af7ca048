// Every JSON Schema in schemas/, compiled once with ajv: request parameters are checked against schemas/params/*,
// and responses against their response schema (the contract checks, and the tests).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');

type Schema = Record<string, unknown> & { $id: string };

function readSchemas(dir: string): Schema[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(SCHEMA_DIR, 'examples') ? [] : readSchemas(path); // examples/: OpenAPI's
    if (!e.name.endsWith('.json')) return [];
    const schema = JSON.parse(readFileSync(path, 'utf8')) as Schema;
    if (schema.$id !== relative(SCHEMA_DIR, path))
      throw new Error(`${path}: $id must be ${relative(SCHEMA_DIR, path)}`);
    return [schema];
  });
}

export const schemas: Schema[] = readSchemas(SCHEMA_DIR);

const rfc3339 = (fullFormats['date-time'] as { validate: (s: string) => boolean }).validate;

/**
 * A parameter's date-time is also an instant the server can compute with: RFC 3339 allows a leap second (23:59:60),
 * which no clock here represents, and an offset can carry 9999-12-31 into year 10000; both are refused (400).
 */
const instant = (s: string) => {
  const t = rfc3339(s) ? Date.parse(s) : NaN;
  return Number.isFinite(t) && /^\d{4}-/.test(new Date(t).toISOString());
};

const makeAjv = (coerce: boolean) => {
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: coerce, useDefaults: coerce });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  if (coerce) ajv.addFormat('date-time', instant);
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

/** The integer parameters of a parameter schema (they are all top-level properties). */
const integers = new Map<string, string[]>();
function integerParams(id: string): string[] {
  let names = integers.get(id);
  if (!names) {
    const props = (schema(id).properties ?? {}) as Record<string, { type?: unknown }>;
    names = Object.keys(props).filter((k) => props[k].type === 'integer');
    integers.set(id, names);
  }
  return names;
}

/**
 * Validates and coerces (string → integer/boolean, defaults filled) a parameter object in place. An integer is written
 * in decimal digits: ajv would coerce whatever JavaScript's Number() reads (`0x10`, `0o10`, `0b10`, `1e1`, ` 7`).
 */
export function checkParams(id: string, values: Record<string, unknown>): ErrorObject[] {
  const notDecimal = integerParams(id).filter(
    (k) => typeof values[k] === 'string' && !/^-?\d+$/.test(values[k] as string),
  );
  const errors = notDecimal.map(
    (k) =>
      ({
        keyword: 'type',
        instancePath: `/${k}`,
        schemaPath: '',
        params: { type: 'integer' },
        message: 'must be integer',
      }) as ErrorObject,
  );
  for (const k of notDecimal) delete values[k];
  const v = validator(params, id);
  if (!v(values))
    errors.push(
      ...(v.errors ?? []).filter(
        (e) => !notDecimal.some((k) => e.instancePath === `/${k}` || e.params.missingProperty === k),
      ),
    );
  return errors;
}
