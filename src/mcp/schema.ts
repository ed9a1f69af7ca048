// Tool schemas straight from schemas/: the input schema a tool advertises is the REST endpoint's parameter schema,
// and its output is checked against the REST response schema, so MCP and REST cannot drift apart. The output schema a
// tool advertises is that response's first level only (the whole of tools/list stays small enough for an agent to
// read); the full shape is in the OpenAPI document.
//
// Inputs are checked inside the tool by readParams with the very schema the REST endpoint uses, so a bad argument
// gets the REST message as an `isError` result; the SDK-side check therefore passes arguments through unchanged.
// Outputs are checked by the SDK against the response schema (the same ajv check as the contract tests).
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

import { checkResponse, schema } from '../schemas.ts';

export type JsonSchema = Record<string, unknown>;

/** Replaces `{ "$ref": "x.json" }` with the referenced schema (recursively), dropping `$id`s. */
export function inline(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inline);
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  if (typeof o.$ref === 'string' && o.$ref.endsWith('.json')) return inline(schema(o.$ref));
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => k !== '$id')
      .map(([k, v]) => [k, inline(v)]),
  );
}

/** Schema `id` with its references inlined. */
const inlined = (id: string) => inline(schema(id)) as JsonSchema;

/**
 * A REST parameter schema as a tool input schema, without `format` (tools answer in both JSON and Markdown), and
 * without what only makes the list longer: examples and patterns (the OpenAPI document has them; the tool checks its
 * arguments against the full REST schema either way).
 */
export function paramsSchema(id: string, omit: string[] = []): JsonSchema {
  const { title, ...s } = inlined(id);
  const properties = Object.fromEntries(
    Object.entries(s.properties as Record<string, JsonSchema>)
      .filter(([k]) => k !== 'format' && !omit.includes(k))
      .map(([k, { examples, pattern, ...v }]) => [k, v]),
  );
  const { additionalProperties, ...rest } = s;
  return { ...rest, properties };
}

/** Input: advertises `json`, lets every value through (the tool validates with readParams for the REST message). */
export function passThrough(json: JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'board-records',
      validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/**
 * Every tool result also carries the release it was read from and what the ~20k-token result budget cut (each cut
 * text or list: path, kept, of, and where to fetch the rest; the server's instructions say so once).
 */
const envelope = {
  release: { type: 'string' },
  trimmed: { type: 'array' },
};

/** Output: a JSON Schema plus a check; the check returns ajv-style errors (empty when valid). */
export function output<B>(
  json: JsonSchema,
  check: (body: B) => { instancePath?: string; message?: string }[],
): StandardSchemaWithJSON<Record<string, unknown>> {
  const required = [...new Set([...((json.required as string[]) ?? []), 'release', 'trimmed'])];
  const advertised = { ...json, required, properties: { ...(json.properties as JsonSchema), ...envelope } };
  return {
    '~standard': {
      version: 1,
      vendor: 'board-records',
      validate: (value) => {
        const errors = check(value as B); // the SDK checks what the tool's run answered
        return errors.length
          ? {
              issues: errors
                .slice(0, 5)
                .map((e) => ({ message: `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` })),
            }
          : { value: value as Record<string, unknown> };
      },
      jsonSchema: { input: () => advertised, output: () => advertised },
    },
  };
}

/**
 * A field as the first level of a lean schema shows it: its type, or its values. Alternatives (`oneOf`, `anyOf`, a
 * type list such as `["string", "null"]`) become an `anyOf` of single types, the form strict MCP clients accept.
 */
function shallow(field: JsonSchema): JsonSchema {
  if (Array.isArray(field.type)) return { anyOf: (field.type as string[]).map((type) => ({ type })) };
  const branches = (field.anyOf ?? field.oneOf) as JsonSchema[] | undefined;
  if (branches && !field.type) return { anyOf: branches.map(shallow) };
  const values = field.enum as unknown[] | undefined;
  if (values) return { ...(values.every((v) => typeof v === 'string') ? { type: 'string' } : {}), enum: values };
  return { type: field.type ?? 'object' };
}

/**
 * Output schema of a REST response schema in schemas/; the envelope fields are checked apart from the REST body, and
 * so are `extra` fields a tool adds to it (e.g. the paging of a list the REST answer gives whole).
 */
export function responseOutput(id: string, extra: Record<string, JsonSchema> = {}) {
  const json = inlined(id);
  const lean = {
    type: 'object',
    required: [...((json.required as string[]) ?? []), ...Object.keys(extra)],
    properties: {
      ...Object.fromEntries(
        Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([k, v]) => [k, shallow(v)]),
      ),
      ...extra,
    },
  };
  const declared = (k: string) => k in ((json.properties as object) ?? {}) || json.additionalProperties !== false;
  return output(lean, ({ trimmed, release, ...all }: Record<string, unknown>) => {
    const body = Object.fromEntries(Object.entries(all).filter(([k]) => !Object.hasOwn(extra, k)));
    return checkResponse(id, declared('release') ? { ...body, release } : body);
  });
}
