// Page search (BM25 over the release's page index) and page records.
import { COLUMNS, DOCUMENT_FACTS, type DocumentKind, FACTS_SINCE, schemaAtLeast } from '../../core/lake/format.ts';
import { officialPageUrl, parsePageId, yearOfId } from '../../core/lake/ids.ts';
import { parseQuery } from '../../core/text/analysis.ts';
import { pageTitle } from '../../core/text/titles.ts';
import { rank, roundScore } from '../engine/rank.ts';
import { textsById } from '../engine/texts.ts';
import type { Retrieval } from '../engine/vectors.ts';
import type { Release } from '../lake/release.ts';
import { coverageOf } from './coverage.ts';
import type { Links } from './links.ts';
import { namedPages } from './numbers.ts';
import { Params } from './sql.ts';
import { type YearRange, yearRange } from './years.ts';

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

const LEXICAL: Retrieval = {
  requested: 'lexical',
  used: 'lexical',
  embeddingModel: null,
  semanticCoverage: 0,
  fallbackReason: null,
};

/**
 * The pages of a query ranked by the engine (src/engine/rank.ts), with the total number of matching pages. A query
 * naming a file (its file or enactment number, numbers.ts) ranks the pages where that file's item is printed first:
 * its meetings by their best page's score, each meeting's pages together by score; then every other match (a letter
 * citing the file) by score. `hybrid`: fused with the page vectors; `snippets`: each hit with its snippet.
 */
export async function rankPages(
  release: Release,
  p: {
    q: string;
    kind?: string;
    date?: string;
    limit: number;
    hybrid?: boolean;
    snippets?: boolean;
    snippetWords?: number;
  } & YearRange,
) {
  const query = parseQuery(p.q);
  const pinned = namedPages(release, p.q, query, p); // its SQL runs while the engine ranks
  const ranking = await rank(release, {
    collection: 'page',
    query,
    from: p.from,
    to: p.to,
    kind: p.kind,
    date: p.date,
    limit: p.limit,
    pinned,
    hybrid: p.hybrid ? { text: p.q } : undefined,
    snippets: p.snippets,
    snippetWords: p.snippetWords,
  });
  return {
    ids: ranking.hits,
    total: ranking.total,
    retrieval: ranking.retrieval ?? LEXICAL,
    interpreted: ranking.interpreted,
  };
}

/** `snippetWords`: longer snippets than /api/search shows (the evidence bundle's passages). */
export async function searchPages(release: Release, links: Links, p: PageSearchParams, snippetWords?: number) {
  const range = yearRange(p, p.date);
  // mode=hybrid: BM25 and vector rankings fused (src/engine/vectors.ts), or BM25 with the reason it fell back.
  const ranked = await rankPages(release, {
    q: p.q,
    kind: p.kind,
    date: p.date,
    limit: p.limit,
    ...range,
    hybrid: p.mode === 'hybrid',
    snippets: true,
    snippetWords,
  });
  const { retrieval } = ranked;
  const [docs, coverage] = await Promise.all([documentsOf(release), coverageOf(release, range, p.date)]);
  const results: PageHit[] = ranked.ids.map(({ id, score, snippet }) => {
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
      snippet: snippet ?? '',
      score: retrieval.used === 'hybrid' ? score : roundScore(score),
    };
  });
  return {
    coverage,
    query: p.q,
    interpretedQueries: ranked.interpreted,
    filters: { year: p.year ?? null, from: range.from, to: range.to, kind: p.kind ?? null, date: p.date ?? null },
    total: ranked.total,
    returned: results.length,
    source: release.manifest.preview ? ('preview' as const) : ('lake' as const),
    retrieval,
    results,
  };
}

/** What a document states about its meeting: its fact columns as stored (null in a release built before them). */
export type DocumentFacts = Record<(typeof DOCUMENT_FACTS)[number], unknown>;

export interface DocumentMeta {
  meetingDate: string;
  year: number;
  kind: DocumentKind;
  title: string;
  officialUrl: string;
  pages: number;
  facts: DocumentFacts;
}

/** The documents' fact columns over `documents t`; typed NULLs in a release built before them, so every release has one shape. */
export const documentFacts = (r: Release) =>
  DOCUMENT_FACTS.map((c) =>
    schemaAtLeast(r.manifest.schemaVersion, FACTS_SINCE) ? `t.${c}` : `NULL::${COLUMNS.documents[c]} AS ${c}`,
  ).join(', ');

/** The release's documents (a few thousand rows), held per release: search results need only these and the page number. */
export function documentsOf(release: Release): Promise<Map<string, DocumentMeta>> {
  return release.memo('documents', async () => {
    const rows = await release.pool.rows(
      `SELECT t.document_id AS id, strftime(t.meeting_date, '%Y-%m-%d') AS "meetingDate", t.year::INTEGER AS year, t.kind, t.title,
              t.official_url AS "officialUrl", t.pages::INTEGER AS pages, ${documentFacts(release)} FROM documents t`,
    );
    return new Map(
      rows.map(({ id, meetingDate, year, kind, title, officialUrl, pages, ...facts }) => [
        String(id),
        { meetingDate, year, kind, title, officialUrl, pages, facts } as DocumentMeta,
      ]),
    );
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
    release.pool.rows(
      `
      SELECT page_id AS id, document_id AS "documentId", strftime(meeting_date, '%Y-%m-%d') AS "meetingDate", year::INTEGER AS year, kind,
             page::INTEGER AS page, NULL AS pages, title, header, footer, NULL AS text, quality, official_url AS "officialUrl"
      FROM pages ${where}`,
      q,
    ),
    documentsOf(release),
    textsById(release, 'page', [id]),
  ]);
  if (rows.length === 0) return null;
  const text = texts.get(id) ?? String((await release.pool.rows(`SELECT text FROM pages ${where}`, q))[0].text);
  const { pages } = docs.get(String(rows[0].documentId))!;
  return {
    ...rows[0],
    pages,
    text,
    transcriptUrl: links.page(id),
    markdownUrl: links.page(id, true),
    meetingUrl: links.meeting(String(rows[0].meetingDate)),
    release: release.id,
  };
}
