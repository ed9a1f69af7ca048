// The data-quality report: coverage (per document, and per year and kind), provenance, supervisor-name reconciliation
// and the row-level problem list, all counted from the release's tables.
import { pageId } from '../../core/lake/ids.ts';
import type { RefusedRelease } from '../lake/lake.ts';
import type { Release } from '../lake/release.ts';
import type { Row } from '../lake/pool.ts';
import type { Links } from './links.ts';
import { Params } from './sql.ts';

export const QUALITY_SCHEMA_VERSION = '1.0.0';

/** Problem rows listed in the report; the whole list is the release's problems.parquet. */
export const PROBLEM_ROWS = 5000;

const COUNTS = ['pages', 'pagesWithText', 'repairedPages', 'garbagePages', 'emptyPages', 'items', 'rollCalls', 'positions', 'comments', 'problems'] as const;

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
    const g = byYearKind.get(key) ?? { year: d.year, kind: d.kind, documents: 0, ...Object.fromEntries(COUNTS.map((c) => [c, 0])) };
    g.documents = Number(g.documents) + 1;
    for (const c of COUNTS) g[c] = Number(g[c]) + Number(d[c]);
    byYearKind.set(key, g);
  }
  const problemTotal = sum(byKind, 'n');
  const cite = (p: Row) => ({ ...p, pageUrl: links.page(pageId(String(p.documentId), p.page as number)) });
  const n = names[0];
  return {
    schemaVersion: QUALITY_SCHEMA_VERSION,
    release: release.id,
    createdAt: m.createdAt,
    refusedReleases: refused,
    totals: {
      documents: docs.length,
      ...Object.fromEntries(COUNTS.map((c) => [c, sum(docs, c)])),
      legislativeFiles: m.tables.legislative_files.rows,
      supervisors: m.tables.supervisors.rows,
    },
    coverage: {
      byYearKind: [...byYearKind.values()].sort((a, b) => Number(a.year) - Number(b.year) || String(a.kind).localeCompare(String(b.kind))),
      documents: docs.map((d) => Object.fromEntries(['documentId', 'meetingDate', 'year', 'kind', ...COUNTS].map((k) => [k, d[k]]))),
    },
    provenance: docs.map((d) => ({
      documentId: d.documentId, fileName: d.fileName, officialUrl: d.officialUrl, archiveUrl: d.archiveUrl, sha256: d.sha256, bytes: d.bytes,
      extractor: d.extractor, parser,
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
  };
}
