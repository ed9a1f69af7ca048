// Generates src/schema-types.ts: one TypeScript type per JSON Schema in schemas/ (responses by their `title`,
// parameter schemas as `<File>Params`, `$defs` as `<Title><Def>`), and the map from schema id to type that
// readParams and the endpoint table use. Run by `make schema-types`; test/schema-types.test.ts fails when the
// committed file differs from what this writes.
//
// The schemas use a small part of JSON Schema (type, enum, const, properties, required, items, additionalProperties,
// anyOf/oneOf, allOf of one $ref, $ref to a file or to #/$defs), so the generator is this file and no dependency.
// An object is typed by its declared properties; additionalProperties adds an index signature only when it is a
// schema (an open object with no properties is a Record<string, unknown>).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as prettier from 'prettier';

import { schemas } from '../src/schemas.ts';

type Node = Record<string, unknown>;

export const TYPES_FILE = join(fileURLToPath(new URL('..', import.meta.url)), 'src', 'schema-types.ts');

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** The type name of a schema file: its title when that is a name, else `<File>Params` for a parameter schema. */
export function typeName(id: string, title: unknown): string {
  if (id.startsWith('params/')) return `${pascal(id.slice('params/'.length, -'.json'.length))}Params`;
  if (typeof title === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(title)) return title;
  throw new Error(`${id}: a response schema needs a PascalCase title (its type's name)`);
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k));
const literal = (v: unknown) => JSON.stringify(v);

/** A description as a doc comment (a `*` followed by `/` would end the comment early). */
const doc = (d: unknown, indent: string) =>
  typeof d === 'string' && d ? `${indent}/** ${d.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n` : '';

/** A `|` or `&` outside any braces, brackets or parentheses: the type needs parentheses before `[]`. */
function unionAtTop(t: string): boolean {
  let depth = 0;
  for (const c of t) {
    if ('{[(<'.includes(c)) depth++;
    else if ('}])>'.includes(c)) depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return true;
  }
  return false;
}

const union = (parts: string[]) => [...new Set(parts)].join(' | ');

class Generator {
  constructor(
    private readonly names: Map<string, string>,
    private readonly file: string,
    private readonly defs: Map<string, string>,
    /** A parameter schema: a property with a default is always there once readParams has filled it in. */
    private readonly params: boolean,
  ) {}

  type(s: Node, indent: string): string {
    if (typeof s.$ref === 'string') return this.ref(s.$ref);
    if (Array.isArray(s.allOf)) {
      // `allOf: [{ $ref }]` beside properties: the referenced type and the listed properties.
      const rest = { ...s };
      delete rest.allOf;
      return [...(s.allOf as Node[]).map((x) => this.type(x, indent)), this.type(rest, indent)].join(' & ');
    }
    const alternatives = (s.anyOf ?? s.oneOf) as Node[] | undefined;
    if (alternatives) return union(alternatives.map((x) => this.type(x, indent)));
    if ('const' in s) return literal(s.const);
    if (Array.isArray(s.enum)) return union(s.enum.map(literal));
    const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
    if (types.length === 0) return s.properties ? this.object(s, indent) : 'unknown';
    return union(types.map((t) => this.ofType(t, s, indent)));
  }

  private ofType(t: string, s: Node, indent: string): string {
    switch (t) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = s.items ? this.type(s.items as Node, indent) : 'unknown';
        return unionAtTop(item) ? `(${item})[]` : `${item}[]`;
      }
      case 'object':
        return this.object(s, indent);
      default:
        throw new Error(`${this.file}: type ${t}`);
    }
  }

  private object(s: Node, indent: string): string {
    const props = Object.entries((s.properties ?? {}) as Record<string, Node>);
    const extra = s.additionalProperties;
    const index = extra && typeof extra === 'object' ? this.type(extra as Node, indent + '  ') : null;
    if (props.length === 0) return index ? `Record<string, ${index}>` : 'Record<string, unknown>';
    const required = new Set((s.required ?? []) as string[]);
    const inner = indent + '  ';
    const lines = props.map(
      ([k, v]) =>
        `${doc(v.description, inner)}${inner}${key(k)}${required.has(k) || (this.params && 'default' in v) ? '' : '?'}: ${this.type(v, inner)};\n`,
    );
    if (index) lines.push(`${inner}[key: string]: ${index};\n`);
    return `{\n${lines.join('')}${indent}}`;
  }

  private ref(ref: string): string {
    if (ref.startsWith('#/$defs/')) {
      const name = this.defs.get(ref.slice('#/$defs/'.length));
      if (!name) throw new Error(`${this.file}: no ${ref}`);
      return name;
    }
    const name = this.names.get(ref);
    if (!name) throw new Error(`${this.file}: no schema ${ref}`);
    return name;
  }
}

/** The text of src/schema-types.ts, as prettier formats it (so `prettier --check .` holds for it too). */
export async function generate(): Promise<string> {
  return prettier.format(unformatted(), { ...(await prettier.resolveConfig(TYPES_FILE)), filepath: TYPES_FILE });
}

function unformatted(): string {
  const list = schemas.filter((s) => !s.$id.startsWith('examples/')).sort((a, b) => (a.$id < b.$id ? -1 : 1));
  const names = new Map(list.map((s) => [s.$id, typeName(s.$id, s.title)]));
  const out = [
    '// Generated by scripts/schema-types.ts from schemas/*.json (`make schema-types`); do not edit.',
    '// test/schema-types.test.ts fails when this file is stale.',
    '',
  ];
  for (const s of list) {
    const name = names.get(s.$id)!;
    const defs = new Map(Object.keys((s.$defs ?? {}) as object).map((d) => [d, `${name}${pascal(d)}`]));
    const g = new Generator(names, s.$id, defs, s.$id.startsWith('params/'));
    for (const [d, def] of Object.entries((s.$defs ?? {}) as Record<string, Node>)) {
      out.push(`${doc(def.description, '')}export type ${defs.get(d)} = ${g.type(def, '')};`, '');
    }
    out.push(
      `/** ${s.$id}${typeof s.description === 'string' ? `: ${s.description.replace(/\*\//g, '*\\/')}` : ''} */`,
    );
    out.push(`export type ${name} = ${g.type(s, '')};`, '');
  }
  out.push('/** Every schema id and its type. */', 'export interface SchemaTypes {');
  for (const s of list) out.push(`  ${literal(s.$id)}: ${names.get(s.$id)};`);
  out.push('}', '', '/** The id of a parameter schema (schemas/params/). */');
  out.push('export type ParamsSchemaId = Extract<keyof SchemaTypes, `params/${string}`>;', '');
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(TYPES_FILE, await generate());
  console.log(`wrote ${TYPES_FILE}`);
}
