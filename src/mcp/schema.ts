// Tool schemas straight from schemas/: the input schema a tool advertises is the REST endpoint's parameter schema,
// and its output schema is the REST response schema (refs inlined), so MCP and REST cannot drift apart.
//
// Inputs are checked inside the tool by readParams with the very schema the REST endpoint uses, so a bad argument
// gets the REST message as an `isError` result; the SDK-side check therefore passes arguments through unchanged.
// Outputs are checked by the SDK against the response schema (the same ajv check as the contract tests).
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { checkResponse, schema } from '../schemas.ts';

export type JsonSchema = Record<string, unknown>;

/** Replaces `{ "$ref": "x.json" }` with the referenced schema (recursively), dropping `$id`s. */
export function inline(node: unknown): any {
  if (Array.isArray(node)) return node.map(inline);
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  if (typeof o.$ref === 'string' && o.$ref.endsWith('.json')) return inline(schema(o.$ref));
  return Object.fromEntries(Object.entries(o).filter(([k]) => k !== '$id').map(([k, v]) => [k, inline(v)]));
}

/** A REST parameter schema as a tool input schema, without `format` (tools answer in both JSON and Markdown). */
export function paramsSchema(id: string, omit: string[] = []): JsonSchema {
  const { title, ...s } = inline(schema(id));
  const properties = Object.fromEntries(Object.entries(s.properties as JsonSchema).filter(([k]) => k !== 'format' && !omit.includes(k)));
  return { ...s, properties };
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

/** Every tool result also carries the release it was read from and what the token budget cut. */
const envelope = {
  release: { type: 'string', description: 'The data release this result was read from (also the X-Release-Id header).' },
  trimmed: {
    type: 'array',
    description: 'What the ~20k-token result budget cut: texts (kept/of characters) and lists (kept/of entries), with where to get the rest.',
    items: {
      type: 'object',
      required: ['path', 'kept', 'of', 'fetch'],
      properties: { path: { type: 'string' }, kept: { type: 'integer' }, of: { type: 'integer' }, fetch: { type: 'string' } },
    },
  },
};

/** Output: a JSON Schema plus a check; the check returns ajv-style errors (empty when valid). */
export function output(json: JsonSchema, check: (body: any) => { instancePath?: string; message?: string }[]): StandardSchemaWithJSON<Record<string, unknown>> {
  const advertised = { ...json, required: [...((json.required as string[]) ?? []), 'release', 'trimmed'], properties: { ...(json.properties as JsonSchema), ...envelope } };
  return {
    '~standard': {
      version: 1,
      vendor: 'board-records',
      validate: (value) => {
        const errors = check(value);
        return errors.length
          ? { issues: errors.slice(0, 5).map((e) => ({ message: `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` })) }
          : { value: value as Record<string, unknown> };
      },
      jsonSchema: { input: () => advertised, output: () => advertised },
    },
  };
}

/** Output schema of a REST response schema in schemas/; the envelope fields are checked apart from the REST body. */
export function responseOutput(id: string) {
  const { title, description, ...json } = inline(schema(id));
  const declared = (k: string) => k in ((json.properties as object) ?? {}) || json.additionalProperties !== false;
  return output(json, ({ trimmed, release, ...body }) => checkResponse(id, declared('release') ? { ...body, release } : body));
}
