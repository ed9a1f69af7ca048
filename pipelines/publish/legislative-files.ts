// The `legislative_files` table: one row per file number, gathered from the item blocks and roll calls already loaded
// (every meeting the file appeared at, its recorded actions in order with their tallies, the final action if any), and
// what the corpus's Legistar exports say of it (`legistar`, loaded by publish/legistar.ts), each in its own columns.
import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Rows per batch of file numbers: each batch's ordered list aggregates hold all of its rows in memory at once (DuckDB
 * cannot spill them), and at SCALE=10 (a million items) one batch ran out of the build's 1 GB.
 */
const ROWS_PER_BATCH = 200_000;

/**
 * The legislative files whose number hashes to `batch` of `batches`. Order of appearances and actions: item ids begin
 * with the meeting date and document kind (agenda before minutes).
 */
const legislativeFilesSql = (batch: number, batches: number) => `
WITH lg AS (SELECT * FROM legistar WHERE hash(file_number) % ${batches} = ${batch}),
it AS (
  SELECT file_number, item_id, title, sponsors, enactment_numbers, matter, item_type, long_title, meeting_date, document_id, kind, section,
         start_page, end_page, official_url
  FROM items WHERE file_number IS NOT NULL AND hash(file_number) % ${batches} = ${batch}
),
titles AS (
  SELECT file_number, list(title ORDER BY first, title) AS titles
  FROM (SELECT file_number, title, min(item_id) AS first FROM it WHERE coalesce(title, '') <> '' GROUP BY ALL) GROUP BY file_number
),
sponsors AS (
  SELECT file_number, list(sponsor ORDER BY first, sponsor) AS sponsors
  FROM (SELECT file_number, sponsor, min(item_id) AS first FROM (SELECT file_number, item_id, unnest(sponsors) AS sponsor FROM it) GROUP BY ALL)
  GROUP BY file_number
),
enacted AS (
  SELECT file_number, list(n ORDER BY first, n) AS enactment_numbers
  FROM (SELECT file_number, n, min(item_id) AS first FROM (SELECT file_number, item_id, unnest(enactment_numbers) AS n FROM it) GROUP BY ALL)
  GROUP BY file_number
),
meetings AS (
  SELECT file_number,
    arg_max(matter, item_id) AS matter,
    arg_max(item_type, item_id) FILTER (item_type IS NOT NULL) AS item_type,
    arg_max(long_title, item_id) AS long_title,
    min(meeting_date) AS first_meeting,
    max(meeting_date) AS last_meeting,
    list({meeting_date: meeting_date, document_id: document_id, kind: kind, item_id: item_id, section: section,
          start_page: start_page, end_page: end_page, official_url: official_url} ORDER BY item_id) AS meetings
  FROM it GROUP BY file_number
),
actions AS (
  SELECT file_number,
    list({meeting_date: meeting_date, document_id: document_id, item_id: item_id, roll_call_id: roll_call_id, sequence: sequence,
          action: action, action_type: action_type, result: result, is_final: is_final, rescinded_by: rescinded_by, page: page,
          ayes: len(ayes)::INTEGER, noes: len(noes)::INTEGER, absent: len(absent)::INTEGER, excused: len(excused)::INTEGER,
          shared_vote: shared_vote, official_url: official_url} ORDER BY item_id, sequence) AS actions
  FROM roll_calls WHERE file_number IS NOT NULL AND hash(file_number) % ${batches} = ${batch} GROUP BY file_number
),
files AS (SELECT file_number FROM meetings UNION SELECT file_number FROM lg)
SELECT f.file_number, m.matter, m.item_type, coalesce(t.titles, []) AS titles, m.long_title, coalesce(s.sponsors, []) AS sponsors,
  coalesce(e.enactment_numbers, []) AS enactment_numbers, m.first_meeting, m.last_meeting, coalesce(m.meetings, []) AS meetings,
  coalesce(a.actions, []) AS actions, list_filter(a.actions, x -> x.is_final)[-1] AS final_action, lg.legistar
FROM files f LEFT JOIN meetings m USING (file_number) LEFT JOIN titles t USING (file_number) LEFT JOIN sponsors s USING (file_number)
  LEFT JOIN enacted e USING (file_number) LEFT JOIN actions a USING (file_number) LEFT JOIN lg USING (file_number)`;

/**
 * Creates the `legislative_files` table from the loaded `items`, `roll_calls` and `legistar` (publish/legistar.ts), in
 * batches of file numbers: a file Legistar lists that no document prints has a row with no meetings.
 */
export async function loadLegislativeFiles(db: DuckDBConnection, rowsPerBatch = ROWS_PER_BATCH): Promise<void> {
  const [[rows]] = (
    await db.runAndReadAll(
      `SELECT ((SELECT count(*) FROM items) + (SELECT count(*) FROM roll_calls) + (SELECT count(*) FROM legistar))::INTEGER`,
    )
  ).getRows();
  const batches = Math.max(1, Math.ceil(Number(rows) / rowsPerBatch));
  await db.run(`CREATE OR REPLACE TABLE legislative_files AS ${legislativeFilesSql(0, batches)}`);
  for (let batch = 1; batch < batches; batch++)
    await db.run(`INSERT INTO legislative_files ${legislativeFilesSql(batch, batches)}`);
}
