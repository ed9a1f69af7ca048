// Page search (BM25 over the release's page index) and page records.
import type { DocumentKind } from '../../core/lake/format.ts';
import { officialPageUrl, parsePageId, yearOfId } from '../../core/lake/ids.ts';
import { coverageOf } from './coverage.ts';
import type { Release } from '../lake/release.ts';
import type { Links } from './links.ts';
import { bm25, interpreted, round } from './bm25.ts';
import { fileNumbersIn, numberedPages } from './numbers.ts';
import { rankBm25 } from './ranking.ts';
import { snippet } from './snippet.ts';
import { Params } from './sql.ts';
import { textsById } from './texts.ts';
import { pageTitle } from '../../core/text/titles.ts';
import { hybridRank, type Retrieval } from './vectors.ts';
import { yearRange, type YearRange } from './years.ts';

export interface PageSearchParams {
  q: string;
  year?: number;
  from?: number;
  to?: number;
  kind?: DocumentKind;
  /** One meeting (`YYYY-MM-DD`). */
  date?: string;
  limit: number;
  mode: 'lexical' | 'hybrid';
}

export interface PageHit {
  id: string;
  meetingDate: string;
  year: number;
  kind: DocumentKind;
  title: string;
  transcriptUrl: string;
  markdownUrl: string;
  officialUrl: string;
  page: number;
  meetingUrl: string;
  snippet: string;
  score: number;
}

/**
 * BM25 top-k over pages, with the total number of matching pages. A query naming a file (its file or enactment number,
 * src/queries/numbers.ts) ranks the pages where that file's item is printed first: its meetings by their best page's
 * score, each meeting's pages together by score; then every other match (a letter citing the file) by score.
 */
export async function rankPages(release: Release, p: { q: string; kind?: string; date?: string; limit: number } & YearRange) {
  const q = new Params();
  const m = await bm25(release, q, 'page', p.q, p, p.kind);
  if (m.empty) return { ids: [] as { id: string; score: number }[], total: 0, query: m.query };
  // Ranked in JavaScript from the postings store (src/queries/ranking.ts), as the SQL of m would rank.
  const top = (limit: number) => rankBm25(release, 'page', m.query, { ...p, limit });
  const files = await fileNumbersIn(release, p.q, m.query);
  if (files.length === 0) return { ...(await top(p.limit)), query: m.query };
  // The named files' pages and the BM25 ranking at once; the pinned pages' scores are read where the ranking missed them.
  const [numbered, ranked] = await Promise.all([numberedPages(release, files, p), top(2 * p.limit)]);
  const rows = ranked.ids;
  const scores = new Map(rows.map((r) => [r.id, r.score]));
  const missing = numbered.filter((n) => !scores.has(n.id)).map((n) => n.id);
  let extra = missing.length;
  if (missing.length) {
    const found = await rankBm25(release, 'page', m.query, { ...p, ids: missing, limit: missing.length });
    for (const r of found.ids) scores.set(r.id, r.score);
    extra -= found.total;
  }
  const score = (id: string) => scores.get(id) ?? 0;
  const best = new Map<string, number>();
  for (const n of numbered) best.set(`${n.file} ${n.meeting}`, Math.max(best.get(`${n.file} ${n.meeting}`) ?? 0, score(n.id)));
  const pinned = [...numbered].sort((a, b) => a.file - b.file || best.get(`${b.file} ${b.meeting}`)! - best.get(`${a.file} ${a.meeting}`)!
    || a.meeting.localeCompare(b.meeting) || score(b.id) - score(a.id) || a.id.localeCompare(b.id));
  const pinnedIds = new Set(pinned.map((n) => n.id));
  const ids = [...pinned.map((n) => ({ id: n.id, score: score(n.id) })), ...rows.filter((r) => !pinnedIds.has(r.id))];
  return { ids: ids.slice(0, p.limit), total: ranked.total + extra, query: m.query };
}

export async function searchPages(release: Release, links: Links, p: PageSearchParams) {
  const range = yearRange(p, p.date);
  const lexical = (limit: number) => rankPages(release, { q: p.q, kind: p.kind, date: p.date, limit, ...range });
  // mode=hybrid: BM25 and vector rankings fused (src/queries/vectors.ts), or BM25 with the reason it fell back.
  const { retrieval, ...ranked } = p.mode === 'hybrid'
    ? await hybridRank(release, { q: p.q, kind: p.kind, limit: p.limit, ...range }, lexical)
    : { ...(await lexical(p.limit)), retrieval: { requested: 'lexical', used: 'lexical', embeddingModel: null, semanticCoverage: 0, fallbackReason: null } as Retrieval };
  const ids = ranked.ids.map((r) => r.id);
  const [docs, texts, coverage] = await Promise.all([documentsOf(release), textsById(release, 'page', ids), coverageOf(release, range, p.date)]);
  const results: PageHit[] = ranked.ids.map(({ id, score }) => {
    const { documentId, page } = parsePageId(id)!;
    const doc = docs.get(documentId)!;
    return {
      id,
      meetingDate: doc.meetingDate,
      year: doc.year,
      kind: doc.kind,
      title: pageTitle(doc.title, page),
      transcriptUrl: links.page(id),
      markdownUrl: links.page(id, true),
      officialUrl: officialPageUrl(doc.officialUrl, page),
      page,
      meetingUrl: links.meeting(doc.meetingDate),
      snippet: snippet(texts.get(id) ?? '', ranked.query),
      score: retrieval.used === 'hybrid' ? score : round(score),
    };
  });
  return {
    coverage,
    query: p.q,
    interpretedQueries: interpreted(ranked.query),
    filters: { year: p.year ?? null, from: range.from, to: range.to, kind: p.kind ?? null, date: p.date ?? null },
    total: ranked.total,
    returned: results.length,
    source: release.manifest.preview ? ('preview' as const) : ('lake' as const),
    retrieval,
    results,
  };
}

export interface DocumentMeta { meetingDate: string; year: number; kind: DocumentKind; title: string; officialUrl: string; pages: number }

/** The release's documents (a few thousand rows), held per release: search results need only these and the page number. */
export function documentsOf(release: Release): Promise<Map<string, DocumentMeta>> {
  return release.memo('documents', async () => {
    const rows = await release.pool.rows(`SELECT document_id AS id, strftime(meeting_date, '%Y-%m-%d') AS "meetingDate", year::INTEGER AS year, kind, title, official_url AS "officialUrl", pages::INTEGER AS pages FROM documents`);
    return new Map(rows.map(({ id, ...d }) => [String(id), d as unknown as DocumentMeta]));
  });
}

/**
 * One page record. Its document comes from the per-release documents, its text from the text store (Parquet's text
 * column only for a page the index left out), and the year its id begins with keeps DuckDB to one year's file.
 */
export async function getPage(release: Release, links: Links, id: string) {
  const year = yearOfId(id);
  const q = new Params();
  const where = `WHERE page_id = ${q.add(id)}${year ? ` AND year = ${q.add(year)}` : ''}`;
  const [rows, docs, texts] = await Promise.all([
    release.pool.rows(`
      SELECT page_id AS id, document_id AS "documentId", strftime(meeting_date, '%Y-%m-%d') AS "meetingDate", year::INTEGER AS year, kind,
             page::INTEGER AS page, NULL AS pages, title, header, footer, NULL AS text, quality, official_url AS "officialUrl"
      FROM pages ${where}`, q),
    documentsOf(release),
    textsById(release, 'page', [id]),
  ]);
  if (rows.length === 0) return null;
  const text = texts.get(id) ?? String((await release.pool.rows(`SELECT text FROM pages ${where}`, q))[0].text);
  const { pages } = docs.get(String(rows[0].documentId))!;
  return { ...rows[0], pages, text, transcriptUrl: links.page(id), markdownUrl: links.page(id, true), meetingUrl: links.meeting(String(rows[0].meetingDate)), release: release.id };
}
