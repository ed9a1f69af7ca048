// OpenAPI 3.1 document generated from the endpoint table and the JSON Schemas in schemas/.
import { schema, schemas } from '../schemas.ts';
import { endpoints } from './routes/index.ts';

export const componentName = (id: string) => id.replace(/\.json$/, '').split(/[/-]/).map((w) => w[0].toUpperCase() + w.slice(1)).join('');

/** Rewrites `$ref: "x.json"` to component references and drops `$id`. */
function toComponent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponent);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$id') continue;
      out[k] = k === '$ref' && typeof v === 'string' && v.endsWith('.json') ? `#/components/schemas/${componentName(v)}` : toComponent(v);
    }
    return out;
  }
  return value;
}

let cached: object | null = null;

export function openapi(): object {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const ep of endpoints) {
    const p = schema(ep.params) as unknown as { properties: Record<string, any>; required?: string[] };
    const openPath = ep.path.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...ep.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const query = Object.entries(p.properties).map(([name, s]) => ({
      name, in: 'query', required: (p.required ?? []).includes(name), description: s.description, schema: toComponent({ ...s, description: undefined }),
    }));
    const content: Record<string, unknown> = { 'application/json': { schema: { $ref: `#/components/schemas/${componentName(ep.response)}` } } };
    if (ep.markdown) content['text/markdown'] = { schema: { type: 'string' } };
    const operation = {
      summary: ep.summary,
      description: ep.description,
      tags: [ep.tag],
      parameters: [...pathParams, ...query],
      responses: {
        200: { description: 'OK', content },
        400: { description: 'A parameter broke a rule', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        ...(pathParams.length ? { 404: { description: 'No such record', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } } } : {}),
      },
    };
    paths[openPath] = { get: operation };
    if (ep.markdown && !pathParams.length) paths[`${openPath}.md`] = { get: { ...operation, summary: `${ep.summary} (Markdown)` } };
  }
  cached = {
    openapi: '3.1.0',
    info: { title: 'Board Records', version: '2.0.0', description: "Public, read-only search and data service over the San Francisco Board of Supervisors' agendas, minutes, legislative files, recorded roll calls and public-comment summaries. A recorded position is not a stance on the underlying matter." },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: { schemas: Object.fromEntries(schemas.filter((s) => !s.$id.startsWith('params/')).map((s) => [componentName(s.$id), toComponent(s)])) },
  };
  return cached;
}
