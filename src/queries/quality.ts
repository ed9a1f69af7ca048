// The data-quality report: coverage (per document, and per year and kind), provenance, supervisor-name reconciliation
// and the row-level problem list, all counted from the release's tables.
import { FAILING_RESULTS } from '../../core/lake/format.ts';
import { pageId } from '../../core/lake/ids.ts';
import { sqlString } from '../../core/sql.ts';
import type { RefusedRelease } from '../lake/lake.ts';
import type { Row } from '../lake/pool.ts';
import type { Release } from '../lake/release.ts';
import type { Links } from './links.ts';
import { Params } from './sql.ts';

export const QUALITY_SCHEMA_VERSION = '1.2.0';

/** Problem rows listed in the report; the whole list is the release's problems.parquet. */
export const PROBLEM_ROWS = 5000;

const COUNTS = [
  'pages',
  'pagesWithText',
  'repairedPages',
  'garbagePages',
  'emptyPages',
  'items',
  'rollCalls',
  'positions',
  'comments',
  'problems',
] as const;

const PER_DOCUMENT = `
WITH pg AS (
  SELECT document_id, count(*) AS pages, count(*) FILTER (quality IN ('ok', 'repaired')) AS with_text,
    count(*) FILTER (quality = 'repaired') AS repaired, count(*) FILTER (quality = 'garbage') AS garbage, count(*) FILTER (quality = 'empty') AS empty
  FROM pages GROUP BY ALL),
it AS (SELECT document_id, count(*) AS n FROM items GROUP BY ALL),
rc AS (SELECT document_id, count(*) AS n FROM roll_calls GROUP BY ALL),
po AS (SELECT document_id, count(*) AS n FROM positions GROUP BY ALL),
co AS (SELECT document_id, count(*) AS n FROM comments GROUP BY ALL),
pr AS (SELECT document_id, count(*) AS n FROM problems GROUP BY ALL)
SELECT d.document_id AS "documentId", d.meeting_date AS "meetingDate", d.year::INTEGER AS year, d.kind,
  coalesce(pg.pages, 0)::INTEGER AS pages, coalesce(pg.with_text, 0)::INTEGER AS "pagesWithText",
  coalesce(pg.repaired, 0)::INTEGER AS "repairedPages", coalesce(pg.garbage, 0)::INTEGER AS "garbagePages", coalesce(pg.empty, 0)::INTEGER AS "emptyPages",
  coalesce(it.n, 0)::INTEGER AS items, coalesce(rc.n, 0)::INTEGER AS "rollCalls", coalesce(po.n, 0)::INTEGER AS positions,
  coalesce(co.n, 0)::INTEGER AS comments, coalesce(pr.n, 0)::INTEGER AS problems,
  d.file_name AS "fileName", d.official_url AS "officialUrl", d.archive_url AS "archiveUrl", d.sha256, d.bytes::INTEGER AS bytes, d.extractor
FROM documents d LEFT JOIN pg USING (document_id) LEFT JOIN it USING (document_id) LEFT JOIN rc USING (document_id)
  LEFT JOIN po USING (document_id) LEFT JOIN co USING (document_id) LEFT JOIN pr USING (document_id)
ORDER BY d.document_id`;

// The official URL of a page is ids.ts officialPageUrl, written in SQL.
const PROBLEMS = `SELECT p.document_id AS "documentId", p.page::INTEGER AS page, p.kind, p.detail, d.official_url || '#page=' || p.page AS "officialUrl"
  FROM problems p LEFT JOIN documents d USING (document_id) ORDER BY p.document_id, p.page, p.kind, p.detail`;

/** `refused`: releases the server would not serve, and why, in the lake's terms (a missing file, a sha256 mismatch). */
export async function qualityReport(release: Release, links: Links, refused: RefusedRelease[]) {
  const m = release.manifest;
  const parser = m.parser ?? null;
  const limit = new Params();
  const [docs, problems, byKind, names, unresolvedNames, nameProblems] = await Promise.all([
    release.pool.rows(PER_DOCUMENT),
    release.pool.rows(`${PROBLEMS} LIMIT ${limit.add(PROBLEM_ROWS)}`, limit),
    release.pool.rows(`SELECT kind, count(*)::INTEGER AS n FROM problems GROUP BY ALL ORDER BY kind`),
    release.pool.rows(`SELECT count(*)::INTEGER AS recorded, count(supervisor_id)::INTEGER AS resolved,
        (SELECT count(*) FROM problems WHERE kind = 'ambiguous-name')::INTEGER AS ambiguous,
        (SELECT count(*) FROM problems WHERE kind = 'unresolved-name')::INTEGER AS unresolved,
        count(*) FILTER (supervisor_id IS NULL)::INTEGER AS "withoutSupervisor",
        count(DISTINCT name_as_recorded)::INTEGER AS "distinctNames"
      FROM positions`),
    release.pool.rows(`SELECT name_as_recorded AS name, count(*)::INTEGER AS positions, min(document_id) AS "documentId"
      FROM positions WHERE supervisor_id IS NULL GROUP BY ALL ORDER BY positions DESC, name LIMIT 20`),
    release.pool.rows(`SELECT * FROM (${PROBLEMS}) WHERE kind IN ('ambiguous-name', 'unresolved-name') LIMIT 20`),
  ]);
  const sum = (rows: Row[], k: string) => rows.reduce((n, r) => n + Number(r[k]), 0);
  const byYearKind = new Map<string, Row>();
  for (const d of docs) {
    const key = `${d.year}|${d.kind}`;
    const g = byYearKind.get(key) ?? {
      year: d.year,
      kind: d.kind,
      documents: 0,
      ...Object.fromEntries(COUNTS.map((c) => [c, 0])),
    };
    g.documents = Number(g.documents) + 1;
    for (const c of COUNTS) g[c] = Number(g[c]) + Number(d[c]);
    byYearKind.set(key, g);
  }
  const problemTotal = sum(byKind, 'n');
  // Page 0: a problem of a whole source (a Legistar export, a document left out), which has no page record.
  const cite = (p: Row) => ({
    ...p,
    pageUrl: Number(p.page) > 0 ? links.page(pageId(String(p.documentId), p.page as number)) : null,
  });
  const n = names[0];
  return {
    schemaVersion: QUALITY_SCHEMA_VERSION,
    release: release.id,
    createdAt: m.createdAt,
    refusedReleases: refused,
    totals: {
      documents: docs.length,
      ...Object.fromEntries(COUNTS.map((c) => [c, sum(docs, c)])),
      // Every problem, those of whole sources (page 0, not joined to a document) included.
      problems: problemTotal,
      legislativeFiles: m.tables.legislative_files.rows,
      supervisors: m.tables.supervisors.rows,
    },
    coverage: {
      byYearKind: [...byYearKind.values()].sort(
        (a, b) => Number(a.year) - Number(b.year) || String(a.kind).localeCompare(String(b.kind)),
      ),
      documents: docs.map((d) =>
        Object.fromEntries(['documentId', 'meetingDate', 'year', 'kind', ...COUNTS].map((k) => [k, d[k]])),
      ),
    },
    provenance: docs.map((d) => ({
      documentId: d.documentId,
      fileName: d.fileName,
      officialUrl: d.officialUrl,
      archiveUrl: d.archiveUrl,
      sha256: d.sha256,
      bytes: d.bytes,
      extractor: d.extractor,
      parser,
    })),
    reconciliation: {
      namesRecorded: n.recorded,
      resolved: n.resolved,
      ambiguous: n.ambiguous,
      unresolved: n.unresolved,
      distinctNames: n.distinctNames,
      resolvedShare: n.recorded ? Math.round((Number(n.resolved) / Number(n.recorded)) * 10000) / 10000 : null,
      unresolvedNames,
      examples: nameProblems.map(cite),
    },
    problems: {
      total: problemTotal,
      byKind: Object.fromEntries(byKind.map((r) => [r.kind, r.n])),
      returned: problems.length,
      truncated: problems.length < problemTotal,
      fileUrl: links.releaseFile(release.id, 'problems.parquet'),
      rows: problems.map(cite),
    },
    excluded: m.excluded ?? [],
    legistarMeetings: await legistarWitness(release, links),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Legistar's meeting pages as a second witness to the minutes

const FAILING = `(${FAILING_RESULTS.map(sqlString).join(', ')})`;
/**
 * Each Legistar meeting-item row of a meeting whose minutes the release holds, set beside the roll calls the minutes
 * print for that file at that meeting. It agrees when one of them has its action type and result, a motion's
 * `carried` (`failed`) standing for any result that went through (did not).
 */
const WITNESS = `
WITH li AS (SELECT DISTINCT meeting_date, file_number, action, result, action_type, outcome, meeting_url, source FROM legistar_meeting_items),
minutes AS (SELECT DISTINCT meeting_date FROM documents WHERE kind = 'minutes'),
both_ AS (SELECT DISTINCT meeting_date FROM li JOIN minutes USING (meeting_date)),
rc AS (SELECT r.* FROM roll_calls r JOIN documents d USING (document_id) WHERE d.kind = 'minutes' AND r.file_number IS NOT NULL),
compared AS (
  SELECT li.*,
    EXISTS (SELECT 1 FROM rc WHERE rc.meeting_date = li.meeting_date AND rc.file_number = li.file_number) AS in_minutes,
    EXISTS (SELECT 1 FROM rc WHERE rc.meeting_date = li.meeting_date AND rc.file_number = li.file_number AND rc.action_type = li.action_type
      AND (rc.result = li.outcome OR (rc.result = 'carried' AND li.outcome NOT IN ${FAILING}) OR (rc.result = 'failed' AND li.outcome IN ${FAILING}))) AS agrees
  FROM li WHERE meeting_date IN (SELECT meeting_date FROM both_))`;

async function legistarWitness(release: Release, links: Links) {
  if (!release.manifest.tables.legistar_meeting_items) return null; // a release built before the table
  const [byMeeting, disagreements, meetings, [{ legistarRows }]] = await Promise.all([
    release.pool.rows(`${WITNESS},
      only_minutes AS (SELECT meeting_date, count(*) AS n FROM (SELECT DISTINCT meeting_date, file_number FROM rc WHERE meeting_date IN (SELECT meeting_date FROM both_)
        EXCEPT SELECT meeting_date, file_number FROM li) GROUP BY ALL)
      SELECT strftime(meeting_date, '%Y-%m-%d') AS "meetingDate", count(*) FILTER (in_minutes)::INTEGER AS compared,
        count(*) FILTER (in_minutes AND agrees)::INTEGER AS agreeing, count(*) FILTER (in_minutes AND NOT agrees)::INTEGER AS disagreeing,
        count(*) FILTER (NOT in_minutes)::INTEGER AS "onlyInLegistar", coalesce(any_value(o.n), 0)::INTEGER AS "onlyInMinutes",
        min(meeting_url) AS "meetingUrl"
      FROM compared LEFT JOIN only_minutes o USING (meeting_date) GROUP BY meeting_date ORDER BY meeting_date`),
    release.pool.rows(`${WITNESS},
      last_rc AS (SELECT * FROM rc QUALIFY row_number() OVER (PARTITION BY meeting_date, file_number ORDER BY (rescinded_by IS NULL) DESC, sequence DESC) = 1)
      SELECT strftime(c.meeting_date, '%Y-%m-%d') AS "meetingDate", c.file_number AS "fileNumber",
        c.action AS l_action, c.result AS l_result, c.action_type AS l_type, c.outcome AS l_outcome, c.meeting_url AS l_url, c.source AS l_source,
        r.roll_call_id, r.document_id, r.action AS m_action, r.action_type AS m_type, r.result AS m_result, r.page::INTEGER AS page, r.official_url AS m_url
      FROM compared c JOIN last_rc r USING (meeting_date, file_number)
      WHERE c.in_minutes AND NOT c.agrees ORDER BY ALL LIMIT ${PROBLEM_ROWS}`),
    release.pool.rows(`WITH li AS (SELECT DISTINCT meeting_date FROM legistar_meeting_items),
        minutes AS (SELECT DISTINCT meeting_date FROM documents WHERE kind = 'minutes')
      SELECT strftime(meeting_date, '%Y-%m-%d') AS date, li.meeting_date IS NOT NULL AS legistar, m.meeting_date IS NOT NULL AS minutes
      FROM li FULL JOIN minutes m USING (meeting_date) ORDER BY 1`),
    release.pool.rows(
      `SELECT count(*)::INTEGER AS "legistarRows" FROM (SELECT DISTINCT meeting_date, file_number, action, result, action_type, outcome, meeting_url, source FROM legistar_meeting_items)`,
    ),
  ]);
  const total = (k: string) => byMeeting.reduce((n, m) => n + Number(m[k]), 0);
  const dates = (pick: (m: Row) => boolean) => meetings.filter(pick).map((m) => String(m.date));
  const both = dates((m) => Boolean(m.legistar && m.minutes));
  const legistarOnly = dates((m) => Boolean(m.legistar && !m.minutes));
  const minutesOnly = dates((m) => Boolean(!m.legistar && m.minutes));
  return {
    coverage: {
      meetingsCompared: both,
      legistarWithoutMinutes: legistarOnly,
      minutesWithoutLegistar: minutesOnly.length,
      statement: `${both.length} meeting${both.length === 1 ? '' : 's'} with both Legistar's meeting items and the minutes; ${legistarOnly.length} with Legistar's items only, ${minutesOnly.length} with minutes only (not compared).`,
    },
    counts: {
      ...Object.fromEntries(
        ['compared', 'agreeing', 'disagreeing', 'onlyInLegistar', 'onlyInMinutes'].map((k) => [k, total(k)]),
      ),
      legistarRows,
    },
    byMeeting,
    disagreements: disagreements.map((d) => ({
      meetingDate: d.meetingDate,
      fileNumber: d.fileNumber,
      legistar: {
        action: d.l_action,
        result: d.l_result,
        actionType: d.l_type,
        outcome: d.l_outcome,
        meetingUrl: d.l_url,
        source: d.l_source,
      },
      minutes: {
        rollCallId: d.roll_call_id,
        action: d.m_action,
        actionType: d.m_type,
        result: d.m_result,
        page: d.page,
        officialUrl: d.m_url,
        pageUrl: links.page(pageId(String(d.document_id), Number(d.page))),
      },
    })),
  };
}
