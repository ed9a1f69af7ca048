// SQL parameters: values bound to numbered placeholders, never written into the SQL text.
import type { DuckDBValue } from '@duckdb/node-api';

/** Numbered SQL parameters (`$1`, `$2` …) collected in order, so a fragment can use one value several times. */
export class Params {
  readonly values: DuckDBValue[] = [];
  add(v: DuckDBValue): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}
