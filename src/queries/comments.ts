// Public comment: BM25 over speakers and the Clerk's summaries, with a speaker filter; single comment records.
import type { Release } from '../lake/release.ts';
import type { Links } from './links.ts';
import { bm25, interpreted, round } from './bm25.ts';
import { Params } from './sql.ts';
import { meetingIdPrefix } from '../../core/lake/ids.ts';
import { coverageOf } from './coverage.ts';
import { yearRange } from './years.ts';

export interface CommentSearchParams { q: string; speaker?: string; date?: string; from: number; to: number; limit: number }

const COLUMNS = `c.comment_id AS id, c.document_id AS "documentId", strftime(c.meeting_date, '%Y-%m-%d') AS "meetingDate", c.year::INTEGER AS year,
  c.page::INTEGER AS page, c.speaker, c.statement, c.file_number AS "fileNumber", c.sequence::INTEGER AS sequence, c.official_url AS "officialUrl"`;

export async function searchComments(release: Release, links: Links, p: CommentSearchParams) {
  const q = new Params();
  const range = yearRange(p, p.date);
  const m = await bm25(release, q, 'comment', p.q, range);
  const conditions: string[] = [];
  if (p.speaker) conditions.push(`contains(lower(c.speaker), lower(${q.add(p.speaker.trim())}))`);
  if (p.date) conditions.push(`starts_with(h.doc_id, ${q.add(meetingIdPrefix(p.date))})`);
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const rows = m.empty ? [] : await release.pool.rows(`
    SELECT ${COLUMNS}, h.score, (count(*) OVER ())::INTEGER AS total
    FROM (${m.sql}) h JOIN comments c ON c.comment_id = h.doc_id ${where}
    ORDER BY h.score DESC, c.comment_id LIMIT ${q.add(p.limit)}`, q);
  const results = rows.map(({ total, documentId, sequence, ...r }) => ({
    ...r,
    score: round(Number(r.score)),
    transcriptUrl: links.comment(String(r.id)),
    markdownUrl: links.comment(String(r.id), true),
    meetingUrl: links.meeting(String(r.meetingDate)),
  }));
  return {
    coverage: await coverageOf(release, range, p.date),
    query: p.q,
    interpretedQueries: interpreted(m.query),
    filters: { speaker: p.speaker ?? null, date: p.date ?? null, from: p.from, to: p.to },
    total: rows.length ? Number(rows[0].total) : 0,
    returned: results.length,
    results,
  };
}

export async function getComment(release: Release, links: Links, id: string) {
  const q = new Params();
  const [row] = await release.pool.rows(`SELECT ${COLUMNS} FROM comments c WHERE c.comment_id = ${q.add(id)}`, q);
  if (!row) return null;
  return { ...row, transcriptUrl: links.comment(id), markdownUrl: links.comment(id, true), meetingUrl: links.meeting(String(row.meetingDate)), release: release.id };
}
