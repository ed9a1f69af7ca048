// Public comment: BM25 over speakers and the Clerk's summaries (src/engine/rank.ts), with a speaker filter; single
// comment records.
import { parseQuery } from '../../core/text/analysis.ts';
import { rank, roundScore } from '../engine/rank.ts';
import type { Release } from '../lake/release.ts';
import { coverageOf } from './coverage.ts';
import type { Links } from './links.ts';
import { Params } from './sql.ts';
import { yearRange } from './years.ts';

export interface CommentSearchParams {
  q: string;
  speaker?: string;
  date?: string;
  from: number;
  to: number;
  limit: number;
}

const COLUMNS = `c.comment_id AS id, c.document_id AS "documentId", strftime(c.meeting_date, '%Y-%m-%d') AS "meetingDate", c.year::INTEGER AS year,
  c.page::INTEGER AS page, c.speaker, c.statement, c.file_number AS "fileNumber", c.sequence::INTEGER AS sequence, c.official_url AS "officialUrl"`;

export async function searchComments(release: Release, links: Links, p: CommentSearchParams) {
  const range = yearRange(p, p.date);
  const ranked = await rank(release, {
    collection: 'comment',
    query: parseQuery(p.q),
    ...range,
    date: p.date,
    limit: p.limit,
    ids: p.speaker ? await spokenBy(release, p.speaker) : undefined,
  });
  const q = new Params();
  const rows = ranked.hits.length
    ? await release.pool.rows(
        `SELECT ${COLUMNS} FROM comments c WHERE c.comment_id IN (${q.list(ranked.hits.map((h) => h.id))})`,
        q,
      )
    : [];
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  const results = ranked.hits
    .filter((h) => byId.has(h.id))
    .map((h) => {
      const { documentId, sequence, ...r } = byId.get(h.id)!;
      return {
        ...r,
        score: roundScore(h.score),
        transcriptUrl: links.comment(h.id),
        markdownUrl: links.comment(h.id, true),
        meetingUrl: links.meeting(String(r.meetingDate)),
      };
    });
  return {
    coverage: await coverageOf(release, range, p.date),
    query: p.q,
    interpretedQueries: ranked.interpreted,
    filters: { speaker: p.speaker ?? null, date: p.date ?? null, from: p.from, to: p.to },
    total: results.length ? ranked.total : 0,
    returned: results.length,
    results,
  };
}

/** The comments whose speaker contains the words asked (case aside). */
async function spokenBy(release: Release, speaker: string): Promise<string[]> {
  const q = new Params();
  const rows = await release.pool.rows(
    `SELECT comment_id FROM comments c WHERE contains(lower(c.speaker), lower(${q.add(speaker.trim())}))`,
    q,
  );
  return rows.map((r) => String(r.comment_id));
}

export async function getComment(release: Release, links: Links, id: string) {
  const q = new Params();
  const [row] = await release.pool.rows(`SELECT ${COLUMNS} FROM comments c WHERE c.comment_id = ${q.add(id)}`, q);
  if (!row) return null;
  return {
    ...row,
    transcriptUrl: links.comment(id),
    markdownUrl: links.comment(id, true),
    meetingUrl: links.meeting(String(row.meetingDate)),
    release: release.id,
  };
}
