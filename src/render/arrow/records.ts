// Records as an Arrow IPC stream (`application/vnd.apache.arrow.stream`), typed by their JSON Schema: what pyarrow,
// Polars and apache-arrow read without guessing. string → Utf8 (format date → Date32), integer → Int32 (Int64 for the
// columns the caller names: those the Parquet files store as 64-bit), number → Float64, boolean → Bool, array → List,
// object → Struct, an enum by its values' type; `null` among a field's types (or anyOf) makes it nullable.
import {
  Bool,
  type DataType,
  DateDay,
  Field,
  Float64,
  Int32,
  Int64,
  List,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';

/** The part of JSON Schema the record schemas use. */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  enum?: unknown[];
}

/** A field's Arrow type and nullability; `root` resolves local `#/$defs/…` references. */
function arrowType(s: JsonSchema, root: JsonSchema): { type: DataType; nullable: boolean } {
  if (s.$ref) {
    const name = /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1];
    const target = name ? root.$defs?.[name] : undefined;
    if (!target) throw new Error(`unresolved ${s.$ref}`);
    return arrowType(target, root);
  }
  if (s.anyOf) {
    const some = s.anyOf.filter((x) => x.type !== 'null');
    if (some.length !== 1) throw new Error('anyOf other than one type or null');
    return { type: arrowType(some[0], root).type, nullable: some.length < s.anyOf.length };
  }
  const types = Array.isArray(s.type)
    ? s.type
    : s.type
      ? [s.type]
      : [...new Set((s.enum ?? []).map((v) => (v === null ? 'null' : typeof v)))];
  const nullable = types.includes('null');
  const [t] = types.filter((x) => x !== 'null');
  const field = (name: string, x: JsonSchema) => {
    const a = arrowType(x, root);
    return new Field(name, a.type, a.nullable);
  };
  switch (t) {
    case 'string':
      return { type: s.format === 'date' ? new DateDay() : new Utf8(), nullable };
    case 'integer':
      return { type: new Int32(), nullable };
    case 'number':
      return { type: new Float64(), nullable };
    case 'boolean':
      return { type: new Bool(), nullable };
    case 'array':
      return { type: new List(field('item', s.items ?? {})), nullable };
    case 'object':
      return { type: new Struct(Object.entries(s.properties ?? {}).map(([k, v]) => field(k, v))), nullable };
    default:
      throw new Error(`no Arrow type for JSON Schema type ${String(t)}`);
  }
}

/**
 * The Arrow schema of records valid against `recordSchema` (an object schema), fields in its property order; the
 * integer fields named in `int64` are Int64.
 */
export function arrowSchema(
  recordSchema: JsonSchema,
  metadata: Record<string, string> = {},
  int64: ReadonlySet<string> = new Set(),
): Schema {
  const fields = Object.entries(recordSchema.properties ?? {}).map(([name, s]) => {
    const a = arrowType(s, recordSchema);
    return new Field(name, int64.has(name) && a.type instanceof Int32 ? new Int64() : a.type, a.nullable);
  });
  return new Schema(fields, new Map(Object.entries(metadata)));
}

/** A JSON value as the Arrow builders take it: `YYYY-MM-DD` dates as Date objects, through lists and structs. */
function toArrow(v: unknown, type: DataType): unknown {
  if (v === null || v === undefined) return null;
  if (type instanceof DateDay) return new Date(`${v as string}T00:00:00Z`);
  if (type instanceof Int64) return BigInt(v as number);
  if (type instanceof List) return (v as unknown[]).map((x) => toArrow(x, type.children[0].type));
  if (type instanceof Struct) {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(type.children.map((f) => [f.name, toArrow(o[f.name], f.type)]));
  }
  return v;
}

/** `records` (JSON rows valid against `recordSchema`) as the bytes of one Arrow IPC stream with `metadata`. */
export function arrowStream(
  records: Record<string, unknown>[],
  recordSchema: JsonSchema,
  metadata: Record<string, string> = {},
  int64: ReadonlySet<string> = new Set(),
): Uint8Array {
  const schema = arrowSchema(recordSchema, metadata, int64);
  const children = schema.fields.map(
    (f) => vectorFromArray(records.map((r) => toArrow(r[f.name], f.type)) as never[], f.type).data[0],
  );
  const data = makeData({ type: new Struct(schema.fields), length: records.length, nullCount: 0, children });
  return tableToIPC(new Table([new RecordBatch(schema, data)]), 'stream');
}
