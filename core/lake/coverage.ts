// What a release holds, per meeting: which documents, pages, items, roll calls and comments. The pipeline writes it as
// the `coverage` table; the server reads it, so that an answer can say how much of the span it was asked about the
// lake actually holds.

/** One meeting's coverage, as the server reads it. */
export interface MeetingCoverage {
  date: string;
  year: number;
  documents: string[];
  agenda: boolean;
  minutes: boolean;
  pages: number;
  items: number;
  rollCalls: number;
  comments: number;
  synthetic: boolean;
}

/** The `coverage` table's rows (columns: COVERAGE_COLUMNS), from the documents, items, roll_calls and comments tables. */
export const COVERAGE_SQL = `
WITH d AS (
  SELECT meeting_date, list(document_id ORDER BY document_id) AS documents, bool_or(kind = 'agenda') AS agenda,
         bool_or(kind = 'minutes') AS minutes, sum(pages)::INTEGER AS pages, bool_and(synthetic) AS synthetic
  FROM documents GROUP BY meeting_date
),
i AS (SELECT meeting_date, count(*)::INTEGER AS n FROM items GROUP BY meeting_date),
r AS (SELECT meeting_date, count(*)::INTEGER AS n FROM roll_calls GROUP BY meeting_date),
c AS (SELECT meeting_date, count(*)::INTEGER AS n FROM comments GROUP BY meeting_date)
SELECT d.meeting_date, year(d.meeting_date)::INTEGER AS year, d.documents, d.agenda, d.minutes, d.pages,
       coalesce(i.n, 0)::INTEGER AS items, coalesce(r.n, 0)::INTEGER AS roll_calls, coalesce(c.n, 0)::INTEGER AS comments,
       d.synthetic
FROM d LEFT JOIN i USING (meeting_date) LEFT JOIN r USING (meeting_date) LEFT JOIN c USING (meeting_date)`;
