// Legislative items: BM25 over item blocks, voter/position/final filters over recorded positions and roll calls,
// grouping by file or matter, and full item records with their roll calls.
import { POSITIONS, type ActionType, type Position, type Result } from '../../core/lake/format.ts';
import { itemFileNumber, itemFileNumberSql, itemMeetingDate, itemMeetingDateSql, meetingIdPrefix, rollCallSequence } from '../../core/lake/ids.ts';
import { LIST, listValue, VARCHAR } from '@duckdb/node-api';
import { positionTable, voterRows, type PositionFilters, type PositionTable } from './aggregates/positions.ts';
import type { Release } from '../lake/release.ts';
import { InvalidParameter } from './errors.ts';
import type { Links } from './links.ts';
import { bm25, interpreted, round, type Matches } from './bm25.ts';
import { snippet } from './snippet.ts';
import { matchBm25, rankBm25, TopK, type RankFilters } from './ranking.ts';
import { postingsStore } from './postings-store.ts';
import { Params } from './sql.ts';
import { itemRecordsById, textsById } from './texts.ts';
import type { ItemRecord } from '../../core/lake/codecs/item-records.ts';
import type { Supervisor } from '../../core/roster.ts';
import type { ParsedQuery } from '../../core/text/analysis.ts';
import { resolveVoter } from './supervisors.ts';
import { coverageOf } from './coverage.ts';
import { yearRange } from './years.ts';

/** Filters on an item's roll calls: one roll call must match them all. */
export interface RollCallFilters {
  final?: boolean;
  actionType?: ActionType;
  result?: Result;
}

export interface ItemSearchParams extends RollCallFilters {
  q: string;
  voter?: string;
  position?: Position;
  final: boolean;
  /** One meeting (`YYYY-MM-DD`). */
  date?: string;
  groupBy: 'none' | 'file' | 'matter';
  from: number;
  to: number;
  limit: number;
}

/** Per grouping: its key and the meeting date that orders a group, read from the item id where it can be (no join with items). */
const GROUPING = {
  file: { key: itemFileNumberSql('m.item_id'), date: itemMeetingDateSql('m.item_id'), join: '' },
  matter: { key: 'lower(i.matter)', date: 'i.meeting_date', join: 'JOIN items i USING (item_id)' },
} as const;

type Row = Record<string, any>;

const extracted = (r: Row) => ({
  amounts: (r.amounts ?? []).map((a: Row) => ({ raw: a.raw, value: Number(a.value), currency: 'USD', qualifier: a.qualifier })),
  housingUnits: r.housingUnits ?? [],
  addresses: r.addresses ?? [],
  parties: r.parties ?? [],
});

/** A roll call as answers show it, from its stored row (lake column names). */
export const rollCall = (r: Row) => ({
  id: r.roll_call_id, sequence: r.sequence, action: r.action, actionType: r.action_type, result: r.result, isFinal: r.is_final,
  rescindedBy: rollCallSequence(r.rescinded_by), ayes: r.ayes, noes: r.noes, absent: r.absent, excused: r.excused, page: r.page,
  sharedVote: r.shared_vote, countMismatch: r.count_mismatch,
});

/** An item record as answers show it (with its text, lists and roll calls; search results pick from it). */
const itemOf = ({ item: i, roll_calls }: ItemRecord): Row => ({
  id: i.item_id, documentId: i.document_id, meetingDate: i.meeting_date, year: i.year, kind: i.kind, fileNumber: i.file_number,
  title: i.title, sponsors: i.sponsors, longTitle: i.long_title, matter: i.matter, itemType: i.item_type, section: i.section,
  startPage: i.start_page, endPage: i.end_page, text: i.text, enactmentNumbers: i.enactment_numbers, statusLines: i.status_lines,
  amounts: i.amounts, housingUnits: i.housing_units, addresses: i.addresses, parties: i.parties, unitMentions: i.unit_mentions,
  officialUrl: i.official_url, rollCalls: roll_calls.map(rollCall),
});

/**
 * The SQL condition that the item `itemId` (a column) has one roll call matching the filters, with `voter`'s recorded
 * position (of `position`, when given) on it; '' when nothing is asked.
 */
export function rollCallFilter(p: RollCallFilters & { voter?: string; position?: Position }, q: Params, itemId: string): string {
  if (p.voter && !p.actionType && !p.result) {
    // Positions carry is_final: no join with roll calls needed.
    return `EXISTS (SELECT 1 FROM positions v WHERE v.item_id = ${itemId} AND v.supervisor_id = ${q.add(p.voter)}${p.position ? ` AND v.position = ${q.add(p.position)}` : ''}${p.final ? ' AND v.is_final' : ''})`;
  }
  const where: string[] = [];
  if (p.final) where.push('r.is_final');
  if (p.actionType) where.push(`r.action_type = ${q.add(p.actionType)}`);
  if (p.result) where.push(`r.result = ${q.add(p.result)}`);
  if (p.voter) where.push(`v.supervisor_id = ${q.add(p.voter)}`);
  if (p.position) where.push(`v.position = ${q.add(p.position)}`);
  if (where.length === 0) return '';
  const join = p.voter ? ' JOIN positions v ON v.roll_call_id = r.roll_call_id' : '';
  return `EXISTS (SELECT 1 FROM roll_calls r${join} WHERE r.item_id = ${itemId} AND ${where.join(' AND ')})`;
}

/** Item records with their roll calls, by id, from the release's item record store (src/queries/texts.ts). */
async function itemsById(release: Release, ids: string[]): Promise<Map<string, Row>> {
  const stored = await itemRecordsById(release, ids);
  return new Map([...stored].map(([id, r]) => [id, itemOf(r)]));
}

export type Ranked = { item_id: string; score: number; group_count: number; total: number }[];

/**
 * The ranking from the postings store (src/queries/ranking.ts): the voter's filters walk their slice of the position
 * table, `final` keeps the release's items with a final roll call, and groupBy=file takes the file number and date
 * from the item id. Null where DuckDB ranks (groupBy=matter, actionType or result filters), as the SQL of
 * rankInDuckDB does.
 */
export async function rankInMemory(release: Release, m: Matches, f: RankFilters, p: ItemSearchParams, voter: { table: PositionTable; voter: string } | null): Promise<Ranked | null> {
  if (p.groupBy === 'matter' || p.actionType || p.result) return null;
  const store = await postingsStore(release, 'item');
  // The voter's (or the final) items, by their number in the store: the ranking returns no other.
  let docs: Uint8Array | undefined;
  if (voter) {
    const mine = voterItems(voter.table, voter.voter, { ...f, position: p.position, final: p.final });
    const docOf = await tableItemDocs(release, voter.table);
    docs = new Uint8Array(store.docs);
    for (let k = 0; k < mine.length; k++) if (mine[k] === 1 && docOf[k] >= 0) docs[docOf[k]] = 1;
  } else if (p.final) docs = await finalItemDocs(release);
  if (p.groupBy === 'file') return byFile(release, m.query, { ...f, docs });
  const ranked = await rankBm25(release, 'item', m.query, { ...f, docs });
  return ranked.ids.map((h) => ({ item_id: h.id, score: h.score, group_count: 1, total: ranked.total }));
}

/** Per item (an index into the table's `items`): 1 when the voter has a matching position on it. */
function voterItems(t: PositionTable, voter: string, f: PositionFilters): Uint8Array {
  const mine = new Uint8Array(t.items.values.length);
  for (const row of voterRows(t, voter, f)) mine[t.item[row]] = 1;
  return mine;
}

/** The item filters' and grouping's per-release tables, read ahead of the first request (src/queries/warm.ts). */
export const warmItems = async (release: Release): Promise<unknown> =>
  Promise.all([tableItemDocs(release, await positionTable(release)), finalItemDocs(release), itemFiles(release)]);

/** Each item of the position table by its number in the item postings store (-1: not indexed), once per release. */
function tableItemDocs(release: Release, t: PositionTable): Promise<Int32Array> {
  return release.memo('table-item-docs', async () => {
    const store = await postingsStore(release, 'item');
    return Int32Array.from(t.items.values, (id) => store.docNo(id));
  });
}

/** The release's items with a final roll call (rescinded votes are not final), by number in the store, read once. */
function finalItemDocs(release: Release): Promise<Uint8Array> {
  return release.memo('final-item-docs', async () => {
    const store = await postingsStore(release, 'item');
    const docs = new Uint8Array(store.docs);
    for (const r of await release.pool.rows('SELECT DISTINCT item_id FROM roll_calls WHERE is_final')) {
      const d = store.docNo(String(r.item_id));
      if (d >= 0) docs[d] = 1;
    }
    return docs;
  });
}

/** Each indexed item's file (a group number) and meeting date (YYYYMMDD), by number in the store, once per release. */
function itemFiles(release: Release): Promise<{ file: Int32Array; date: Uint32Array; groups: number }> {
  return release.memo('item-files', async () => {
    const store = await postingsStore(release, 'item');
    const groups = new Map<string, number>();
    const file = new Int32Array(store.docs);
    const date = new Uint32Array(store.docs);
    for (let d = 0; d < store.docs; d++) {
      const id = store.docId(d);
      const number = itemFileNumber(id);
      file[d] = groups.get(number) ?? groups.set(number, groups.size).get(number)!;
      date[d] = Number(itemMeetingDate(id).replaceAll('-', ''));
    }
    return { file, date, groups: groups.size };
  });
}

/**
 * groupBy=file over every match: each file's best match (score, then latest meeting, then id) with the file's number
 * of matches, files ranked by their best match's score, then its id. Documents are numbered in id order. Per file
 * (group number) typed arrays, filled as the ranking visits the matches.
 */
async function byFile(release: Release, query: ParsedQuery, f: RankFilters): Promise<Ranked> {
  const store = await postingsStore(release, 'item');
  const { file, date, groups } = await itemFiles(release);
  const best = new Int32Array(groups);
  const score = new Float64Array(groups);
  const count = new Int32Array(groups);
  const seen: number[] = [];
  await matchBm25(release, 'item', query, f, (x, d) => {
    const g = file[d];
    if (count[g]++ === 0) {
      seen.push(g);
    } else {
      const b = best[g];
      if (!(x > score[g] || (x === score[g] && (date[d] > date[b] || (date[d] === date[b] && d < b))))) return;
    }
    best[g] = d;
    score[g] = x;
  });
  const top = new TopK(f.limit);
  for (const g of seen) top.add(score[g], best[g]);
  return top.sorted().map(([x, d]) => ({ item_id: store.docId(d), score: x, group_count: count[file[d]], total: seen.length }));
}

/** The ranking by SQL over the postings: every filter and grouping. */
export async function rankInDuckDB(release: Release, q: Params, m: Matches, p: ItemSearchParams, range: { from: number; to: number }, table: PositionTable | null, voter: Supervisor | null): Promise<Ranked> {
  const conditions: string[] = [];
  if (p.date) conditions.push(`starts_with(h.doc_id, ${q.add(meetingIdPrefix(p.date))})`);
  if (table && voter && !p.actionType && !p.result) {
    // The voter's items from the in-memory position table: no scan of the positions Parquet per request.
    const mine = voterItems(table, voter.id, { from: range.from, to: range.to, position: p.position, final: p.final });
    const ids = table.items.values.filter((_, k) => mine[k] === 1);
    conditions.push(`h.doc_id IN (SELECT unnest(${q.add(listValue(ids), LIST(VARCHAR))}))`);
  } else {
    const rolls = rollCallFilter({ ...p, voter: voter?.id }, q, 'h.doc_id');
    if (rolls) conditions.push(rolls);
  }
  const matched = `SELECT h.doc_id AS item_id, h.score FROM (${m.sql}) h ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}`;
  const limit = q.add(p.limit);
  // Ungrouped, every match is its own group: rank the matches as they are, without reading the items table.
  const rows = await release.pool.rows(p.groupBy === 'none' ? `
    SELECT item_id, score, 1 AS group_count, (count(*) OVER ())::INTEGER AS total
    FROM (${matched}) ORDER BY score DESC, item_id LIMIT ${limit}` : `
    WITH grouped AS (
      SELECT m.item_id, m.score, (count(*) OVER (PARTITION BY ${GROUPING[p.groupBy].key}))::INTEGER AS group_count,
             row_number() OVER (PARTITION BY ${GROUPING[p.groupBy].key} ORDER BY m.score DESC, ${GROUPING[p.groupBy].date} DESC, m.item_id) AS rank_in_group
      FROM (${matched}) m ${GROUPING[p.groupBy].join}
    )
    SELECT item_id, score, group_count, (count(*) OVER ())::INTEGER AS total
    FROM grouped WHERE rank_in_group = 1 ORDER BY score DESC, item_id LIMIT ${limit}`, q);
  return rows.map((r) => ({ item_id: String(r.item_id), score: Number(r.score), group_count: Number(r.group_count), total: Number(r.total) }));
}

export async function searchItems(release: Release, links: Links, p: ItemSearchParams) {
  if (p.position && !p.voter) throw new InvalidParameter([{ parameter: 'position', rule: 'requires-voter', message: 'position requires voter (whose recorded position to filter on)' }]);
  const voter: Supervisor | null = p.voter ? await resolveVoter(release, 'voter', p.voter, p.from, p.to) : null;
  const q = new Params();
  const range = yearRange(p, p.date);
  const m = await bm25(release, q, 'item', p.q, range);
  const table = voter ? await positionTable(release) : null;
  const ranked = m.empty ? [] : ((await rankInMemory(release, m, { ...range, date: p.date, limit: p.limit }, p, table && voter ? { table, voter: voter.id } : null)) ?? (await rankInDuckDB(release, q, m, p, range, table, voter)));

  const ids = ranked.map((r) => String(r.item_id));
  const [records, texts, coverage] = await Promise.all([itemsById(release, ids), textsById(release, 'item', ids), coverageOf(release, range, p.date)]);
  const positions = table && voter ? voterPositions(table, voter.id, records) : new Map<string, Row[]>();
  const results = ranked.map((r) => {
    const item = records.get(String(r.item_id))!;
    return {
      id: item.id,
      meetingDate: item.meetingDate,
      year: item.year,
      kind: item.kind,
      fileNumber: item.fileNumber,
      matter: item.matter,
      title: item.title,
      itemType: item.itemType,
      sponsors: item.sponsors,
      transcriptUrl: links.item(item.id),
      markdownUrl: links.item(item.id, true),
      officialUrl: item.officialUrl,
      meetingUrl: links.meeting(item.meetingDate),
      startPage: item.startPage,
      endPage: item.endPage,
      snippet: snippet(texts.get(item.id) ?? '', m.query),
      score: round(Number(r.score)),
      groupCount: Number(r.group_count),
      extracted: extracted(item),
      rollCalls: item.rollCalls,
      ...(voter ? { voterPositions: positions.get(item.id) ?? [] } : {}),
    };
  });
  return {
    coverage,
    query: p.q,
    interpretedQueries: interpreted(m.query),
    filters: {
      voter: voter?.id ?? null, position: p.position ?? null, final: p.final, groupBy: p.groupBy, from: p.from, to: p.to,
      date: p.date ?? null, actionType: p.actionType ?? null, result: p.result ?? null,
    },
    total: ranked.length ? Number(ranked[0].total) : 0,
    returned: results.length,
    results,
    ...(voter ? { voter } : {}),
  };
}

/** Every recorded position of the voter on these items (whatever the filters), by roll call id, with its action. */
function voterPositions(t: PositionTable, supervisorId: string, records: Map<string, Row>): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  const shown = new Set([...records.keys()].map((id) => t.items.index.get(id)));
  const [start, end] = t.voters.get(supervisorId) ?? [0, 0];
  for (let i = start; i < end; i++) {
    if (!shown.has(t.item[i])) continue;
    const rollCallId = t.rollCalls[t.rollCall[i]];
    const itemId = t.items.values[t.item[i]];
    const rc = records.get(itemId)!.rollCalls.find((r: Row) => r.id === rollCallId);
    if (!rc) continue;
    const row = { rollCallId, nameAsRecorded: t.names[t.name[i]], position: POSITIONS[t.position[i]], action: rc.action, actionType: rc.actionType, isFinal: t.isFinal[i] === 1, page: rc.page };
    (out.get(itemId) ?? out.set(itemId, []).get(itemId)!).push(row);
  }
  for (const list of out.values()) list.sort((a, b) => (a.rollCallId < b.rollCallId ? -1 : a.rollCallId > b.rollCallId ? 1 : 0));
  return out;
}

export async function getItem(release: Release, links: Links, id: string) {
  const item = (await itemsById(release, [id])).get(id);
  if (!item) return null;
  const q = new Params();
  const comments = await release.pool.rows(`
    SELECT comment_id AS id, speaker, statement, page::INTEGER AS page FROM comments
    WHERE document_id = ${q.add(item.documentId)} AND file_number = ${q.add(item.fileNumber)} AND year = ${q.add(item.year)} ORDER BY sequence`, q);
  const { amounts, housingUnits, addresses, parties, ...rest } = item;
  return {
    ...rest,
    extracted: extracted(item),
    unitMentions: item.unitMentions ?? [],
    comments: comments.map((c) => ({ ...c, transcriptUrl: links.comment(String(c.id)) })),
    transcriptUrl: links.item(id),
    markdownUrl: links.item(id, true),
    meetingUrl: links.meeting(String(item.meetingDate)),
    release: release.id,
  };
}
