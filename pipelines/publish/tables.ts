// Writes rows to Parquet through DuckDB: rows go out as NDJSON with an explicit column list (no type inference),
// come back as a typed table, and are copied out sorted, single-threaded, so the same rows give the same bytes.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';

/** Column name → DuckDB type, in table order. */
export type Columns = Record<string, string>;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

export async function loadRows(db: DuckDBConnection, scratch: string, table: string, columns: Columns, rows: object[]): Promise<void> {
  const file = join(scratch, `${table}.ndjson`);
  await writeNdjson(file, rows);
  const cols = Object.entries(columns).map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`).join(', ');
  const select = Object.keys(columns).map((c) => `"${c}"`).join(', ');
  await db.run(`CREATE OR REPLACE TABLE "${table}" AS SELECT ${select} FROM read_json(${sqlString(file)}, format='newline_delimited', columns={${cols}}, maximum_object_size=67108864)`);
}

/** One JSON line per row, written in ~1 MB pieces: never the whole table as one string. */
async function writeNdjson(file: string, rows: object[]): Promise<void> {
  const out = await open(file, 'w');
  // A write may be short (a full disk): write the rest until it all lands or the write throws (ENOSPC).
  const put = async (chunk: string) => {
    const bytes = Buffer.from(chunk, 'utf8');
    for (let done = 0; done < bytes.length;) {
      const { bytesWritten } = await out.write(bytes, done, bytes.length - done);
      if (bytesWritten === 0) throw Object.assign(new Error(`no space left writing ${file}`), { code: 'ENOSPC', path: file });
      done += bytesWritten;
    }
  };
  try {
    let chunk = '';
    for (const r of rows) {
      chunk += JSON.stringify(r) + '\n';
      if (chunk.length >= 1 << 20) { await put(chunk); chunk = ''; }
    }
    if (chunk) await put(chunk);
  } finally {
    await out.close();
  }
}

export interface CopyOptions {
  orderBy: string;
  partitionBy?: string;
  rowGroupSize?: number;
}

/** Copies a query's rows to `<dir>` (hive-partitioned) or `<dir>.parquet`, zstd. */
export async function copyOut(db: DuckDBConnection, query: string, target: string, opts: CopyOptions): Promise<void> {
  const options = ['FORMAT parquet', 'COMPRESSION zstd', `ROW_GROUP_SIZE ${opts.rowGroupSize ?? 122880}`];
  if (opts.partitionBy) options.push(`PARTITION_BY (${opts.partitionBy})`, 'OVERWRITE');
  const to = opts.partitionBy ? target : `${target}.parquet`;
  await db.run(`COPY (${query} ORDER BY ${opts.orderBy}) TO ${sqlString(to)} (${options.join(', ')})`);
}
