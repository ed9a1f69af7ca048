// SQL parameters: the one way a query passes values to DuckDB. Values are bound to numbered placeholders (`$1`, `$2` …)
// in the order they are added, never written into the SQL text, so one SQL text serves any values (the pool keeps
// its prepared statement) and a fragment can use one value several times.
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api';

export class Params {
  readonly values: DuckDBValue[] = [];
  /** A value's type where DuckDB cannot infer it from the value (a FLOAT array); else undefined. */
  readonly types: (DuckDBType | undefined)[] = [];

  /** Adds a value; returns its placeholder. */
  add(value: DuckDBValue, type?: DuckDBType): string {
    this.values.push(value);
    this.types.push(type);
    return `$${this.values.length}`;
  }

  /** Adds values; returns their placeholders, comma-separated (for `IN (…)`). */
  list(values: DuckDBValue[]): string {
    return values.map((v) => this.add(v)).join(', ');
  }
}

/**
 * A DuckDB row read where no declared type is written yet: its columns are whatever the SQL selects. One place to
 * find them (the `declared<>` queries type theirs).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped until its query declares its columns
export type LooseRow = Record<string, any>;
