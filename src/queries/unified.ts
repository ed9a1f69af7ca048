// The reference page's unified search (`/api/search` with `type`): one ranked list of mixed result types.
// With `type=all`, legislative files (grouped by file, each with its matched action and roll call), public comments
// and pages are merged by their score relative to the best of their kind, files first on ties; a page whose match
// is a file already listed is left out, so files are not repeated as PDF-page matches. `type=votes` lists every
// roll call of the matching files on its own.
import type { ActionType, Position, Result } from '../../core/lake/format.ts';
import { pageId } from '../../core/lake/ids.ts';
import type { Release } from '../lake/release.ts';
import { searchComments } from './comments.ts';
import { coverageOf } from './coverage.ts';
import { searchItems } from './items.ts';
import type { Links } from './links.ts';
import { type PageSearchParams, searchPages } from './pages.ts';
import { type LooseRow, Params } from './sql.ts';
import { resolveVoter } from './supervisors.ts';
import { yearRange } from './years.ts';

export type ResultType = 'all' | 'legislation' | 'votes' | 'comments' | 'pages';

export interface UnifiedParams extends PageSearchParams {
  type?: ResultType;
  supervisor?: string;
  position?: Position;
  final: boolean;
  actionType?: ActionType;
  result?: Result;
}

type Row = LooseRow;

const latest = (rollCalls: Row[]) => rollCalls[rollCalls.length - 1];
const compactRollCall = (rc: Row) => ({
  sequence: rc.sequence,
  action: rc.action,
  actionType: rc.actionType,
  result: rc.result,
  isFinal: rc.isFinal,
  rescindedBy: rc.rescindedBy,
  ayes: rc.ayes,
  noes: rc.noes,
  absent: rc.absent,
  excused: rc.excused,
});

/** Votes need a legislative record: with a supervisor, position, final, actionType or result filter, pages and comments are left out. */
export const voteFiltered = (p: UnifiedParams) =>
  Boolean(p.supervisor || p.position || p.final || p.actionType || p.result);

const TYPE_RANK: Record<string, number> = { legislation: 0, vote: 1, comment: 2, page: 3 };

/** Scores of different collections are not comparable; each is taken relative to the best of its own type. */
function mergeByRelativeScore(results: Row[]): Row[] {
  const best = new Map<string, number>();
  for (const r of results) best.set(r.resultType, Math.max(best.get(r.resultType) ?? 0, r.score));
  const rel = (r: Row) => (best.get(r.resultType) ? r.score / best.get(r.resultType)! : 0);
  return results
    .map((r, i) => ({ r, i, rel: Math.round(rel(r) * 100) / 100 }))
    .sort((a, b) => b.rel - a.rel || TYPE_RANK[a.r.resultType] - TYPE_RANK[b.r.resultType] || a.i - b.i)
    .map((x) => x.r);
}

export async function unifiedSearch(release: Release, links: Links, p: UnifiedParams) {
  const range = yearRange(p, p.date);
  const want = (t: ResultType) => p.type === t || p.type === 'all';
  // Resolved here so that a 400 names the parameter the caller used.
  const supervisor = p.supervisor
    ? await resolveVoter(release, 'supervisor', p.supervisor, range.from, range.to)
    : null;
  const itemQuery = {
    q: p.q,
    voter: supervisor?.id,
    position: p.position,
    final: p.final,
    actionType: p.actionType,
    result: p.result,
    date: p.date,
    from: range.from,
    to: range.to,
    limit: p.limit,
  };
  // Pages and votes are fetched beyond the limit (duplicates of listed files drop out): twice it, at most 50, or the
  // limit itself when the search page asks for a deeper page of results.
  const wider = Math.min(Math.max(50, p.limit), p.limit * 2);
  const [files, votes, comments, pages] = await Promise.all([
    want('legislation') ? searchItems(release, links, { ...itemQuery, groupBy: 'file' }) : null,
    p.type === 'votes' ? searchItems(release, links, { ...itemQuery, groupBy: 'none', limit: wider }) : null,
    want('comments') && !voteFiltered(p)
      ? searchComments(release, links, { q: p.q, date: p.date, from: range.from, to: range.to, limit: p.limit })
      : null,
    want('pages') && !voteFiltered(p) ? searchPages(release, links, { ...p, limit: wider }) : null,
  ]);
  const voter = supervisor;
  const results: Row[] = [];
  const filePages = new Set<string>();

  for (const r of files?.results ?? []) {
    // The voter's latest position that the filters asked for (the one that made the file match).
    const asked = (rc: Row) =>
      (!p.final || rc.isFinal) &&
      (!p.actionType || rc.actionType === p.actionType) &&
      (!p.result || rc.result === p.result);
    const mine: Row | undefined = ((r.voterPositions ?? []) as Row[])
      .filter(
        (v) =>
          (!p.position || v.position === p.position) &&
          asked(r.rollCalls.find((x: Row) => x.id === v.rollCallId) ?? {}),
      )
      .at(-1);
    const rc = mine
      ? r.rollCalls.find((x: Row) => x.id === mine.rollCallId)
      : ((r.rollCalls as Row[]).filter(asked).at(-1) ?? latest(r.rollCalls));
    results.push({
      resultType: 'legislation',
      id: r.id,
      meetingDate: r.meetingDate,
      year: r.year,
      kind: r.kind,
      title: `File ${r.fileNumber}: ${r.title}`,
      transcriptUrl: r.transcriptUrl,
      markdownUrl: r.markdownUrl,
      officialUrl: r.officialUrl,
      meetingUrl: r.meetingUrl,
      page: r.startPage,
      fileNumber: r.fileNumber,
      snippet: r.snippet,
      score: r.score,
      matter: r.matter,
      groupCount: r.groupCount,
      ...(rc
        ? { matchedAction: rc.action, actionType: rc.actionType, isFinal: rc.isFinal, rollCall: compactRollCall(rc) }
        : {}),
      ...(mine && voter ? { recordedPosition: mine.position, supervisor: voter.fullName } : {}),
      addresses: r.extracted.addresses,
      housingUnits: r.extracted.housingUnits,
      amounts: r.extracted.amounts,
      parties: r.extracted.parties,
    });
  }
  for (const r of votes?.results ?? []) {
    const positions: Row[] = r.voterPositions ?? [];
    for (const rc of r.rollCalls as Row[]) {
      const mine = positions.find((v) => v.rollCallId === rc.id);
      if (voter && !mine) continue;
      if (p.position && mine?.position !== p.position) continue;
      if (p.final && !rc.isFinal) continue;
      if (p.actionType && rc.actionType !== p.actionType) continue;
      if (p.result && rc.result !== p.result) continue;
      results.push({
        resultType: 'vote',
        id: rc.id,
        meetingDate: r.meetingDate,
        year: r.year,
        kind: r.kind,
        title: `Vote on file ${r.fileNumber}: ${r.title}`,
        transcriptUrl: r.transcriptUrl,
        markdownUrl: r.markdownUrl,
        officialUrl: r.officialUrl.replace(/#page=\d+$/, `#page=${rc.page}`),
        page: rc.page,
        fileNumber: r.fileNumber,
        meetingUrl: r.meetingUrl,
        snippet: rc.action,
        score: r.score,
        matter: r.matter,
        matchedAction: rc.action,
        actionType: rc.actionType,
        isFinal: rc.isFinal,
        rollCall: compactRollCall(rc),
        ...(mine && voter ? { recordedPosition: mine.position, supervisor: voter.fullName } : {}),
      });
    }
  }
  for (const r of (comments?.results ?? []) as Row[]) {
    results.push({
      resultType: 'comment',
      id: r.id,
      meetingDate: r.meetingDate,
      year: r.year,
      kind: 'minutes',
      title: `Public comment: ${r.speaker}`,
      transcriptUrl: r.transcriptUrl,
      markdownUrl: r.markdownUrl,
      officialUrl: r.officialUrl,
      meetingUrl: r.meetingUrl,
      page: r.page,
      snippet: r.statement,
      score: r.score,
      speaker: r.speaker,
    });
  }
  // Pages that print a listed file (in any of its grouped records) would only repeat it.
  const listed = (files?.results ?? []).map((r) => r.fileNumber);
  if (p.type === 'all' && listed.length) {
    const q = new Params();
    const spans = await release.pool.rows(
      `SELECT document_id, start_page::INTEGER AS s, end_page::INTEGER AS e FROM items WHERE file_number IN (${q.list(listed)})`,
      q,
    );
    for (const { document_id, s, e } of spans)
      for (let page = Number(s); page <= Number(e); page++) filePages.add(pageId(String(document_id), page));
  }
  for (const r of pages?.results ?? []) {
    if (p.type === 'all' && filePages.has(r.id)) continue;
    results.push({ resultType: 'page', ...r });
  }
  const kept = (p.type === 'all' ? mergeByRelativeScore(results) : results).slice(0, p.limit);
  return {
    coverage: await coverageOf(release, range, p.date),
    query: p.q,
    interpretedQueries: (pages ?? files ?? votes ?? comments)?.interpretedQueries ?? [],
    filters: {
      type: p.type,
      year: p.year ?? null,
      from: range.from,
      to: range.to,
      kind: p.kind ?? null,
      date: p.date ?? null,
      supervisor: voter?.id ?? null,
      position: p.position ?? null,
      final: p.final,
      actionType: p.actionType ?? null,
      result: p.result ?? null,
      ...(voteFiltered(p) && (p.type === 'all' || p.type === 'pages' || p.type === 'comments')
        ? {
            omitted:
              'pages and comments carry no votes, so supervisor, position, final, actionType and result leave them out',
          }
        : {}),
    },
    total:
      (files?.total ?? 0) +
      (votes ? results.filter((r) => r.resultType === 'vote').length : 0) +
      (comments?.total ?? 0) +
      (pages?.total ?? 0),
    returned: kept.length,
    source: release.manifest.preview ? ('preview' as const) : ('lake' as const),
    retrieval: pages?.retrieval ?? {
      requested: p.mode,
      used: 'lexical' as const,
      embeddingModel: null,
      semanticCoverage: 0,
      fallbackReason: p.mode === 'hybrid' ? 'hybrid reranking applies to page matches only' : null,
    },
    results: kept,
    ...(voter ? { voter } : {}),
  };
}
