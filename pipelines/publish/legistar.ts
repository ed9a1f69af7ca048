// The corpus's Legistar exports as the `legistar` table: one row per file number with what Legistar says of it (type,
// status, introduced, final action, enactment number, sponsors' full names, the action history), the
// `legislative_files.legistar` column (core/lake/format.ts LEGISTAR_FIELDS). A corpus without exports gets none.
import type { DuckDBConnection } from '@duckdb/node-api';
import { LEGISTAR_FIELDS } from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import { legistarExports } from '../sources.ts';

const csv = (files: string[]) => `read_csv([${files.map(sqlString).join(', ')}], header = true, all_varchar = true, union_by_name = true)`;
/** Legistar prints dates as `M/D/YYYY`; an empty cell is null. */
const date = (column: string) => `try_strptime(nullif(trim(${column}), ''), '%m/%d/%Y')::DATE`;
const text = (column: string) => `nullif(trim(${column}), '')`;
/** A comma-separated cell (`Shamann Walton, Rafael Mandelman`) as a list, empty cells none. */
const list = (column: string) => `list_filter(list_transform(string_split(coalesce(${column}, ''), ','), x -> trim(x)), x -> x <> '')`;

const HISTORY = `
  SELECT trim(file_number) AS file_number,
    list({date: ${date('date')}, version: TRY_CAST(ver AS INTEGER), action_by: ${text('action_by')}, action: ${text('action')}, result: ${text('result')}}
         ORDER BY ${date('date')}, TRY_CAST(id AS INTEGER) DESC) AS history
  FROM %HISTORY% GROUP BY ALL`;

/** Creates the `legistar` table (file_number, legistar STRUCT) from the corpus's exports; empty without them. */
export async function loadLegistar(db: DuckDBConnection, corpus: string): Promise<void> {
  const { legislation, history } = legistarExports(corpus);
  const struct = `STRUCT(${Object.entries(LEGISTAR_FIELDS).map(([k, v]) => `${k} ${v}`).join(', ')})`;
  if (legislation.length === 0) {
    await db.run(`CREATE OR REPLACE TABLE legistar (file_number VARCHAR, legistar ${struct})`);
    return;
  }
  const histories = history.length ? HISTORY.replace('%HISTORY%', csv(history)) : `SELECT NULL::VARCHAR AS file_number, [] AS history WHERE false`;
  await db.run(`
    CREATE OR REPLACE TABLE legistar AS
    WITH h AS (${histories})
    SELECT l.file_number, {
        type: ${text('type')}, status: ${text('status')}, name: ${text('name')}, title: ${text('title')},
        introduced: ${date('introduced')}, final_action: ${date('final_action')}, enactment_date: ${date('enactment_date')},
        enactment_number: ${text('enactment_number')}, sponsors: ${list('sponsors')}, in_control: ${text('in_control')},
        related_files: ${list('related_files')}, url: ${text('url')}, history: coalesce(h.history, [])
      }::${struct} AS legistar
    FROM (SELECT * REPLACE (trim(file_number) AS file_number) FROM ${csv(legislation)}) l LEFT JOIN h USING (file_number)
    WHERE coalesce(l.file_number, '') <> ''
    QUALIFY row_number() OVER (PARTITION BY l.file_number ORDER BY ${date('introduced')} DESC NULLS LAST) = 1`);
}
