// Writes rows to Parquet through DuckDB: rows streamed out as NDJSON are read back with an explicit column list (no type
// inference) as a typed table, and copied out sorted, single-threaded, so the same rows give the same bytes.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

import { sqlString } from '../../core/sql.ts';

/** The build's DuckDB memory in MB, unless BuildOptions.memoryMb says otherwise. */
export const BUILD_MEMORY_MB = 1024;

/**
 * What each of the build's DuckDBs may hold (MB) within its budget: the tables stage gets all of it (at 768 MB of
 * 1,024 the SCALE=10 build ran out of memory writing them). With the embedding thread, whose DuckDB gets a quarter (its
 * table of vectors spills past it), the index stage, whose sorts spill, runs beside it on the rest.
 */
export function memoryBudget(totalMb: number, embedding: boolean): { tables: number; index: number; embed: number } {
  const embed = embedding ? Math.floor(totalMb / 4) : 0;
  return { tables: totalMb, index: totalMb - embed, embed };
}

const memoryLimit = (mb: number) => `${mb}MB`;

/** Sets a build DuckDB's memory limit, for the stage that comes next (memoryBudget). */
export async function setMemoryLimit(db: DuckDBConnection, mb: number): Promise<void> {
  await db.run(`SET memory_limit = ${sqlString(memoryLimit(mb))}`);
}

/**
 * A build's in-memory DuckDB: one thread (the same rows give the same bytes), spilling to `tempDir` past `memoryMb`;
 * memory it frees goes back to the system (background purge, flushes after large tasks), so one stage does not peak on
 * top of what the one before held.
 */
export function buildDuckDb(tempDir: string, memoryMb: number): Promise<DuckDBInstance> {
  return DuckDBInstance.create(':memory:', {
    threads: '1',
    memory_limit: memoryLimit(memoryMb),
    temp_directory: tempDir,
    preserve_insertion_order: 'false',
    allocator_background_threads: 'true',
    allocator_flush_threshold: '64MB',
  });
}

/** Column name → DuckDB type, in table order. */
export type Columns = Record<string, string>;

/** The rows of an NDJSON scratch file (see scratch.ts) with exactly these columns. */
export function ndjsonQuery(columns: Columns, file: string): string {
  const cols = Object.entries(columns)
    .map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`)
    .join(', ');
  const select = Object.keys(columns)
    .map((c) => `"${c}"`)
    .join(', ');
  return `SELECT ${select} FROM read_json(${sqlString(file)}, format='newline_delimited', columns={${cols}}, maximum_object_size=67108864)`;
}

/** Loads an NDJSON scratch file as table `table`. */
export async function loadNdjson(db: DuckDBConnection, table: string, columns: Columns, file: string): Promise<void> {
  await db.run(`CREATE OR REPLACE TABLE "${table}" AS ${ndjsonQuery(columns, file)}`);
}

/** Drops every table, freeing DuckDB's memory for what comes next. */
export async function dropTables(db: DuckDBConnection): Promise<void> {
  const names = (await db.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE NOT temporary`))
    .getRows()
    .map(([name]) => String(name));
  for (const name of names) await db.run(`DROP TABLE "${name}"`);
}

export interface CopyOptions {
  orderBy: string;
  partitionBy?: string;
  rowGroupSize?: number;
}

/**
 * Copies a query's rows to `<dir>` (hive-partitioned) or `<dir>.parquet`, zstd. Every table is written, also with no
 * rows: a partitioned copy of nothing writes no partition, so it becomes `<dir>/data_0.parquet` with no rows and every
 * column, the partition column last (where a hive-partitioned read puts it).
 */
export async function copyOut(db: DuckDBConnection, query: string, target: string, opts: CopyOptions): Promise<void> {
  const options = ['FORMAT parquet', 'COMPRESSION zstd', `ROW_GROUP_SIZE ${opts.rowGroupSize ?? 122880}`];
  if (opts.partitionBy) options.push(`PARTITION_BY (${opts.partitionBy})`, 'OVERWRITE');
  const to = opts.partitionBy ? target : `${target}.parquet`;
  const copied = await db.runAndReadAll(
    `COPY (${query} ORDER BY ${opts.orderBy}) TO ${sqlString(to)} (${options.join(', ')})`,
  );
  if (opts.partitionBy && Number(copied.getRows()[0][0]) === 0) {
    await mkdir(target, { recursive: true });
    const columns = `* EXCLUDE (${opts.partitionBy}), ${opts.partitionBy}`;
    await db.run(
      `COPY (SELECT ${columns} FROM (${query}) LIMIT 0) TO ${sqlString(join(target, 'data_0.parquet'))} (FORMAT parquet, COMPRESSION zstd)`,
    );
  }
}
