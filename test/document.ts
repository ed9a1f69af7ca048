// The served OpenAPI document as a validator of answers: the schema it gives for a path, status and media type,
// compiled with ajv over its components. getValid and expectRefusal (test/fixture.ts) check every answer they get
// against it as well as against schemas/, so the document is held to what the server really sends.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

import { openapi } from '../src/http/routes/index.ts';
import type { Json } from './json.ts';

const doc = openapi() as { paths: Record<string, Record<string, Json>>; components: object };
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'openapi.json', components: doc.components });

/** Each documented path as a pattern: `{path}` (a release file) may hold `/`, other parameters may not. */
const PATHS = Object.keys(doc.paths).map((path) => ({
  path,
  pattern: new RegExp(
    `^${path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => (n === 'path' ? '(.+)' : '([^/]+)'))}$`,
  ),
}));

const compiled = new Map<object, ValidateFunction>();

/** Why `value` does not fit a schema of the document (its refs point into the components), or ''. */
export function validate(schema: object, value: unknown): string {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')));
    compiled.set(schema, v);
  }
  return v(value) ? '' : JSON.stringify(v.errors?.slice(0, 3));
}

/** Why the document would not accept this GET answer ('' when it does). */
export function documentErrors(url: string, status: number, contentType: string, body: unknown): string {
  const pathname = new URL(url, 'http://x').pathname;
  const found = PATHS.find((p) => p.pattern.test(pathname));
  if (!found) return `${pathname} is not in the OpenAPI document`;
  const response = doc.paths[found.path].get?.responses?.[String(status)];
  if (!response) return `GET ${found.path}: ${status} is not documented`;
  const media = response.content?.[contentType.split(';')[0].trim()];
  if (!media) return `GET ${found.path} ${status}: ${contentType} is not documented`;
  const errors = validate(media.schema, body);
  return errors && `GET ${found.path} ${status}: ${errors}`;
}
