// The corpus's Legistar exports (read and classified by pipelines/exports/shapes.ts) as the `legistar` table: one row
// per file number with what Legistar says of it (type, status, introduced, final action, enactment number, sponsors'
// full names, the action history, the exports it came from), the `legislative_files.legistar` column
// (core/lake/format.ts LEGISTAR_FIELDS). A corpus without exports gets none.
import type { DuckDBConnection } from '@duckdb/node-api';

import { LEGISTAR_FIELDS } from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import type { Exports } from '../exports/shapes.ts';

/** Legistar prints dates as `M/D/YYYY`; an empty cell is null. */
const date = (column: string) => `try_strptime(nullif(trim(${column}), ''), '%m/%d/%Y')::DATE`;
const text = (column: string) => `nullif(trim(${column}), '')`;
/** A comma-separated cell (`Shamann Walton, Rafael Mandelman`) as a list, empty cells none. */
const list = (column: string) =>
  `list_filter(list_transform(string_split(coalesce(${column}, ''), ','), x -> trim(x)), x -> x <> '')`;

const LEGISLATION_ROW = {
  file_number: 'VARCHAR',
  type: 'VARCHAR',
  status: 'VARCHAR',
  name: 'VARCHAR',
  title: 'VARCHAR',
  introduced: 'VARCHAR',
  final_action: 'VARCHAR',
  enactment_date: 'VARCHAR',
  enactment_number: 'VARCHAR',
  sponsors: 'VARCHAR',
  in_control: 'VARCHAR',
  related_files: 'VARCHAR',
  url: 'VARCHAR',
  source: 'VARCHAR',
  rank: 'INTEGER',
};
const HISTORY_ROW = {
  file_number: 'VARCHAR',
  date: 'VARCHAR',
  ver: 'VARCHAR',
  action_by: 'VARCHAR',
  action: 'VARCHAR',
  result: 'VARCHAR',
  seq: 'INTEGER',
  source: 'VARCHAR',
  rank: 'INTEGER',
};

/** A file's history comes from one export: the first (in corpus order) that has any, so that two exports of it do not double it. */
const HISTORY = `
  SELECT trim(file_number) AS file_number, any_value(source) AS history_source,
    list({date: ${date('date')}, version: TRY_CAST(ver AS INTEGER), action_by: ${text('action_by')}, action: ${text('action')}, result: ${text('result')}}
         ORDER BY ${date('date')}, seq DESC) AS history
  FROM (SELECT * FROM history_rows QUALIFY rank = min(rank) OVER (PARTITION BY trim(file_number))) GROUP BY ALL`;

/** A temporary table of these rows (export rows are few: a year of the Board's files is a few thousand). */
async function insert(
  db: DuckDBConnection,
  table: string,
  rows: object[],
  columns: Record<string, string>,
): Promise<void> {
  await db.run(
    `CREATE OR REPLACE TEMP TABLE ${table} (${Object.entries(columns)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  const value = (v: unknown) =>
    v === null || v === undefined ? 'NULL' : typeof v === 'number' ? String(v) : sqlString(String(v));
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500).map(
      (r) =>
        `(${Object.keys(columns)
          .map((k) => value((r as Record<string, unknown>)[k]))
          .join(', ')})`,
    );
    await db.run(`INSERT INTO ${table} VALUES ${batch.join(', ')}`);
  }
}

/** Creates the `legistar` table (file_number, legistar STRUCT) from the corpus's exports; empty without them. */
export async function loadLegistar(db: DuckDBConnection, exports: Exports): Promise<void> {
  const struct = `STRUCT(${Object.entries(LEGISTAR_FIELDS)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')})`;
  if (exports.legislation.length === 0) {
    await db.run(`CREATE OR REPLACE TABLE legistar (file_number VARCHAR, legistar ${struct})`);
    return;
  }
  await insert(db, 'legislation_rows', exports.legislation, LEGISLATION_ROW);
  await insert(db, 'history_rows', exports.history, HISTORY_ROW);
  await db.run(`
    CREATE OR REPLACE TABLE legistar AS
    WITH h AS (${HISTORY})
    SELECT l.file_number, {
        type: ${text('type')}, status: ${text('status')}, name: ${text('name')}, title: ${text('title')},
        introduced: ${date('introduced')}, final_action: ${date('final_action')}, enactment_date: ${date('enactment_date')},
        enactment_number: ${text('enactment_number')}, sponsors: ${list('sponsors')}, in_control: ${text('in_control')},
        related_files: ${list('related_files')}, url: ${text('url')}, history: coalesce(h.history, []),
        source: l.source, history_source: h.history_source
      }::${struct} AS legistar
    FROM (SELECT * REPLACE (trim(file_number) AS file_number) FROM legislation_rows) l LEFT JOIN h USING (file_number)
    WHERE coalesce(l.file_number, '') <> ''
    QUALIFY row_number() OVER (PARTITION BY l.file_number ORDER BY ${date('introduced')} DESC NULLS LAST, l.rank) = 1`);
  await db.run('DROP TABLE legislation_rows; DROP TABLE history_rows');
}
