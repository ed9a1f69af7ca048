// The `legislative_files` table: one row per file number, gathered from the item blocks and roll calls already loaded
// (every meeting the file appeared at, its recorded actions in order with their tallies, the final action if any).
import type { DuckDBConnection } from '@duckdb/node-api';

/** Order of appearances and actions: item ids begin with the meeting date and document kind (agenda before minutes). */
export const LEGISLATIVE_FILES_SQL = `
CREATE OR REPLACE TABLE legislative_files AS
WITH it AS (SELECT * FROM items WHERE file_number IS NOT NULL),
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
          start_page: start_page, official_url: official_url} ORDER BY item_id) AS meetings
  FROM it GROUP BY file_number
),
actions AS (
  SELECT file_number,
    list({meeting_date: meeting_date, document_id: document_id, item_id: item_id, roll_call_id: roll_call_id, sequence: sequence,
          action: action, action_type: action_type, is_final: is_final, page: page,
          ayes: len(ayes)::INTEGER, noes: len(noes)::INTEGER, absent: len(absent)::INTEGER, excused: len(excused)::INTEGER,
          shared_vote: shared_vote, official_url: official_url} ORDER BY item_id, sequence) AS actions
  FROM roll_calls WHERE file_number IS NOT NULL GROUP BY file_number
)
SELECT m.file_number, m.matter, m.item_type, coalesce(t.titles, []) AS titles, m.long_title, coalesce(s.sponsors, []) AS sponsors,
  coalesce(e.enactment_numbers, []) AS enactment_numbers, m.first_meeting, m.last_meeting, m.meetings,
  coalesce(a.actions, []) AS actions, list_filter(a.actions, x -> x.is_final)[-1] AS final_action
FROM meetings m LEFT JOIN titles t USING (file_number) LEFT JOIN sponsors s USING (file_number)
  LEFT JOIN enacted e USING (file_number) LEFT JOIN actions a USING (file_number)`;

export async function loadLegislativeFiles(db: DuckDBConnection): Promise<void> {
  await db.run(LEGISLATIVE_FILES_SQL);
}
