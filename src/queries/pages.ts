// Page search (BM25 over the release's page index) and page records.
import type { DuckDBValue } from '@duckdb/node-api';
import type { Release } from '../lake/release.ts';
import { parseQuery, termString } from '../text/analysis.ts';
import type { Urls } from '../http/urls.ts';
import { snippet } from './snippet.ts';

export interface PageSearchParams {
  q: string;
  year?: number;
  from?: number;
  to?: number;
  kind?: 'agenda' | 'minutes';
  limit: number;
  mode: 'lexical' | 'hybrid';
}

export interface PageHit {
  id: string;
  meetingDate: string;
  year: number;
  kind: 'agenda' | 'minutes';
  title: string;
  transcriptUrl: string;
  markdownUrl: string;
  officialUrl: string;
  page: number;
  snippet: string;
  score: number;
}

export interface YearRange { from: number; to: number }

/** `year` pins both ends; `from`/`to` narrow further (the intersection of all that is given). */
export function yearRange(p: { year?: number; from?: number; to?: number }): YearRange {
  return {
    from: Math.max(p.year ?? 2012, p.from ?? 2012),
    to: Math.min(p.year ?? 2026, p.to ?? 2026),
  };
}

const round = (x: number) => Math.round(x * 10000) / 10000;

/**
 * BM25 top-k: a sum of precomputed posting impacts over the query terms, filtered by year and kind in the postings
 * themselves. Quoted phrases keep only pages whose term sequence holds the phrase.
 */
export async function rankPages(release: Release, p: { q: string; kind?: string; limit: number; offset?: number } & YearRange): Promise<{ ids: { id: string; score: number }[]; total: number; terms: string[]; phrases: string[][] }> {
  const { terms, phrases } = parseQuery(p.q);
  if (terms.length === 0 || p.from > p.to) return { ids: [], total: 0, terms, phrases };
  const params: DuckDBValue[] = [...terms, p.from, p.to];
  let where = `term IN (${terms.map(() => '?').join(', ')}) AND year BETWEEN ? AND ?`;
  if (p.kind) {
    where += ' AND kind = ?';
    params.push(p.kind);
  }
  let phraseJoin = '';
  if (phrases.length) {
    phraseJoin = `JOIN page_docs d USING (doc_id) WHERE ${phrases.map(() => 'contains(d.term_string, ?)').join(' AND ')}`;
    params.push(...phrases.map(termString));
  }
  params.push(p.limit, p.offset ?? 0);
  const rows = await release.pool.rows(`
    WITH hits AS (SELECT doc_id, sum(impact) AS score FROM page_postings WHERE ${where} GROUP BY doc_id),
         kept AS (SELECT hits.* FROM hits ${phraseJoin})
    SELECT doc_id AS id, score, (count(*) OVER ())::INTEGER AS total FROM kept ORDER BY score DESC, doc_id LIMIT ? OFFSET ?`, params);
  return { ids: rows.map((r) => ({ id: String(r.id), score: Number(r.score) })), total: rows.length ? Number(rows[0].total) : 0, terms, phrases };
}

export async function searchPages(release: Release, urls: Urls, p: PageSearchParams) {
  const range = yearRange(p);
  const ranked = await rankPages(release, { q: p.q, kind: p.kind, limit: p.limit, ...range });
  const pages = await pagesById(release, ranked.ids.map((r) => r.id));
  const results: PageHit[] = ranked.ids.map(({ id, score }) => {
    const row = pages.get(id)!;
    return {
      id,
      meetingDate: row.meetingDate,
      year: row.year,
      kind: row.kind,
      title: row.title,
      transcriptUrl: urls.page(id),
      markdownUrl: urls.page(id, true),
      officialUrl: row.officialUrl,
      page: row.page,
      snippet: snippet(row.text, ranked.terms),
      score: round(score),
    };
  });
  return {
    query: p.q,
    interpretedQueries: [ranked.terms.join(' '), ...ranked.phrases.map((ph) => `"${ph.join(' ')}"`)].filter((s) => s.length > 0),
    filters: { year: p.year ?? null, from: range.from, to: range.to, kind: p.kind ?? null },
    total: ranked.total,
    returned: results.length,
    source: release.manifest.preview ? ('preview' as const) : ('lake' as const),
    retrieval: {
      requested: p.mode,
      used: 'lexical' as const,
      embeddingModel: null,
      semanticCoverage: 0,
      fallbackReason: p.mode === 'hybrid' ? 'this release has no page embeddings and no embedding endpoint is configured' : null,
    },
    results,
  };
}

export interface PageRow {
  id: string;
  documentId: string;
  meetingDate: string;
  year: number;
  kind: 'agenda' | 'minutes';
  page: number;
  pages: number;
  title: string;
  header: string;
  footer: string;
  text: string;
  quality: 'ok' | 'repaired' | 'garbage' | 'empty';
  officialUrl: string;
}

export async function pagesById(release: Release, ids: string[]): Promise<Map<string, PageRow>> {
  if (ids.length === 0) return new Map();
  const rows = await release.pool.rows(`
    SELECT p.page_id AS id, p.document_id AS "documentId", strftime(p.meeting_date, '%Y-%m-%d') AS "meetingDate", p.year::INTEGER AS year,
           p.kind, p.page::INTEGER AS page, d.pages::INTEGER AS pages, p.title, p.header, p.footer, p.text, p.quality, p.official_url AS "officialUrl"
    FROM pages p JOIN documents d USING (document_id)
    WHERE p.page_id IN (${ids.map(() => '?').join(', ')})`, ids);
  return new Map(rows.map((r) => [String(r.id), r as unknown as PageRow]));
}

export async function getPage(release: Release, urls: Urls, id: string) {
  const row = (await pagesById(release, [id])).get(id);
  if (!row) return null;
  return { ...row, transcriptUrl: urls.page(id), markdownUrl: urls.page(id, true), release: release.id };
}
