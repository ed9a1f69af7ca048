// Legislative items: BM25 over item blocks, voter/position/final filters over recorded positions and roll calls,
// grouping by file or matter, and full item records with their roll calls.
import type { ItemRecord } from '../../core/lake/codecs/item-records.ts';
import { type ActionType, type Position, POSITIONS, type Result } from '../../core/lake/format.ts';
import { itemFileNumber, itemMeetingDate, rollCallSequence } from '../../core/lake/ids.ts';
import type { Supervisor } from '../../core/roster.ts';
import { type ParsedQuery, parseQuery } from '../../core/text/analysis.ts';
import { postingsStore } from '../engine/postings.ts';
import { type Grouping, type Pin, rank, type Ranking, roundScore } from '../engine/rank.ts';
import { itemRecordsById } from '../engine/texts.ts';
import type { Release } from '../lake/release.ts';
import { type PositionFilters, type PositionTable, positionTable, voterRows } from './aggregates/positions.ts';
import { coverageOf } from './coverage.ts';
import { namedByEntities } from './entities.ts';
import { checkPositionVoter } from './errors.ts';
import type { Links } from './links.ts';
import { type LooseRow, Params } from './sql.ts';
import { resolveVoter } from './supervisors.ts';
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

type Row = LooseRow;

const extracted = (r: Row) => ({
  amounts: (r.amounts ?? []).map((a: Row) => ({
    raw: a.raw,
    value: Number(a.value),
    currency: 'USD',
    qualifier: a.qualifier,
  })),
  housingUnits: r.housingUnits ?? [],
  addresses: r.addresses ?? [],
  parties: r.parties ?? [],
});

/** A roll call as answers show it, from its stored row (lake column names). */
export const rollCall = (r: Row) => ({
  id: r.roll_call_id,
  sequence: r.sequence,
  action: r.action,
  actionType: r.action_type,
  result: r.result,
  isFinal: r.is_final,
  rescindedBy: rollCallSequence(r.rescinded_by),
  ayes: r.ayes,
  noes: r.noes,
  absent: r.absent,
  excused: r.excused,
  page: r.page,
  sharedVote: r.shared_vote,
  countMismatch: r.count_mismatch,
});

/** An item record as answers show it (with its text, lists and roll calls; search results pick from it). */
const itemOf = ({ item: i, roll_calls }: ItemRecord): Row => ({
  id: i.item_id,
  documentId: i.document_id,
  meetingDate: i.meeting_date,
  year: i.year,
  kind: i.kind,
  fileNumber: i.file_number,
  title: i.title,
  sponsors: i.sponsors,
  longTitle: i.long_title,
  matter: i.matter,
  itemType: i.item_type,
  section: i.section,
  startPage: i.start_page,
  endPage: i.end_page,
  text: i.text,
  enactmentNumbers: i.enactment_numbers,
  statusLines: i.status_lines,
  amounts: i.amounts,
  housingUnits: i.housing_units,
  addresses: i.addresses,
  parties: i.parties,
  unitMentions: i.unit_mentions,
  officialUrl: i.official_url,
  rollCalls: roll_calls.map(rollCall),
});

/**
 * The SQL condition that the item `itemId` (a column) has one roll call matching the filters, with `voter`'s recorded
 * position (of `position`, when given) on it; '' when nothing is asked.
 */
export function rollCallFilter(
  p: RollCallFilters & { voter?: string; position?: Position },
  q: Params,
  itemId: string,
): string {
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

/** Item records with their roll calls, by id, from the release's item record store (src/engine/texts.ts). */
async function itemsById(release: Release, ids: string[]): Promise<Map<string, Row>> {
  const stored = await itemRecordsById(release, ids);
  return new Map([...stored].map(([id, r]) => [id, itemOf(r)]));
}

/**
 * The items of a query ranked by the engine (src/engine/rank.ts), with their snippets: the filters leave the voter's
 * slice of the position table, the items with a final roll call, or the items whose roll calls SQL finds for
 * actionType and result; groupBy=file takes the file number and date from the item id, groupBy=matter the matter and
 * date from the items table.
 */
export async function rankItems(
  release: Release,
  query: ParsedQuery,
  p: ItemSearchParams,
  range: { from: number; to: number },
  voter: { table: PositionTable; voter: Supervisor } | null,
): Promise<Ranking> {
  const [docs, grouping] = await Promise.all([
    itemFilter(release, p, range, voter),
    p.groupBy === 'file' ? itemFiles(release) : p.groupBy === 'matter' ? itemMatters(release) : undefined,
  ]);
  return rank(release, {
    collection: 'item',
    query,
    ...range,
    date: p.date,
    limit: p.limit,
    docs,
    grouping,
    pinned: entityPins(release, p.q, range, p.date, docs),
    snippets: true,
  });
}

/**
 * The items carrying an address or a party the query names (entities.ts) as the engine's pins, within the years,
 * meeting and filters asked: each named entity in the query's order, its files by their best item's score.
 */
async function entityPins(
  release: Release,
  text: string,
  range: { from: number; to: number },
  date: string | undefined,
  docs: Uint8Array | undefined,
): Promise<Pin[]> {
  const named = await namedByEntities(release, text);
  if (named.length === 0) return [];
  const store = await postingsStore(release, 'item');
  return named
    .filter(({ item }) => {
      const meeting = itemMeetingDate(item);
      const year = Number(meeting.slice(0, 4));
      const d = store.docNo(item);
      return (
        year >= range.from && year <= range.to && (!date || meeting === date) && d >= 0 && (!docs || docs[d] === 1)
      );
    })
    .map((n) => ({ id: n.item, order: n.mention, cluster: n.file }));
}

/** The items the roll call and voter filters leave, by their number in the store (none: every item). */
async function itemFilter(
  release: Release,
  p: ItemSearchParams,
  range: { from: number; to: number },
  voter: { table: PositionTable; voter: Supervisor } | null,
): Promise<Uint8Array | undefined> {
  const store = await postingsStore(release, 'item');
  if (p.actionType || p.result) {
    const q = new Params();
    const docs = new Uint8Array(store.docs);
    for (const r of await release.pool.rows(
      `SELECT item_id FROM items WHERE ${rollCallFilter({ ...p, voter: voter?.voter.id }, q, 'items.item_id')}`,
      q,
    )) {
      const d = store.docNo(String(r.item_id));
      if (d >= 0) docs[d] = 1;
    }
    return docs;
  }
  if (voter) {
    const mine = voterItems(voter.table, voter.voter.id, { ...range, position: p.position, final: p.final });
    const docOf = await tableItemDocs(release, voter.table);
    const docs = new Uint8Array(store.docs);
    for (let k = 0; k < mine.length; k++) if (mine[k] === 1 && docOf[k] >= 0) docs[docOf[k]] = 1;
    return docs;
  }
  return p.final ? finalItemDocs(release) : undefined;
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

/** The indexed items grouped by file (from the item id), the later meeting first among equals, once per release. */
function itemFiles(release: Release): Promise<Grouping> {
  return release.memo('item-files', async () => {
    const store = await postingsStore(release, 'item');
    const groups = new Map<string, number>();
    const of = new Int32Array(store.docs);
    const recency = new Uint32Array(store.docs);
    for (let d = 0; d < store.docs; d++) {
      const id = store.docId(d);
      const number = itemFileNumber(id);
      of[d] = groups.get(number) ?? groups.set(number, groups.size).get(number)!;
      recency[d] = Number(itemMeetingDate(id).replaceAll('-', ''));
    }
    return { of, groups: groups.size, recency };
  });
}

/**
 * The indexed items grouped by matter (lower-cased as DuckDB's lower() does; the items without one are a group), the
 * later meeting first among equals, from the items table once per release.
 */
function itemMatters(release: Release): Promise<Grouping> {
  return release.memo('item-matters', async () => {
    const store = await postingsStore(release, 'item');
    const rows = await release.pool.rows(
      `SELECT item_id, lower(matter) AS matter, strftime(meeting_date, '%Y%m%d')::INTEGER AS date FROM items`,
    );
    const groups = new Map<string | null, number>();
    const of = new Int32Array(store.docs).fill(-1);
    const recency = new Uint32Array(store.docs);
    for (const r of rows) {
      const d = store.docNo(String(r.item_id));
      if (d < 0) continue;
      const matter = r.matter === null ? null : String(r.matter);
      of[d] = groups.get(matter) ?? groups.set(matter, groups.size).get(matter)!;
      recency[d] = Number(r.date);
    }
    return { of, groups: groups.size, recency };
  });
}

export async function searchItems(release: Release, links: Links, p: ItemSearchParams) {
  checkPositionVoter(p.position, p.voter, 'voter');
  const voter: Supervisor | null = p.voter ? await resolveVoter(release, 'voter', p.voter, p.from, p.to) : null;
  const range = yearRange(p, p.date);
  const table = voter ? await positionTable(release) : null;
  const ranked = await rankItems(release, parseQuery(p.q), p, range, table && voter ? { table, voter } : null);

  const ids = ranked.hits.map((h) => h.id);
  const [records, coverage] = await Promise.all([itemsById(release, ids), coverageOf(release, range, p.date)]);
  const positions = table && voter ? voterPositions(table, voter.id, records) : new Map<string, Row[]>();
  const results = ranked.hits.map((r) => {
    const item = records.get(r.id)!;
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
      enactmentNumbers: item.enactmentNumbers,
      transcriptUrl: links.item(item.id),
      markdownUrl: links.item(item.id, true),
      officialUrl: item.officialUrl,
      meetingUrl: links.meeting(item.meetingDate),
      startPage: item.startPage,
      endPage: item.endPage,
      snippet: r.snippet ?? '',
      score: roundScore(r.score),
      groupCount: r.groupCount ?? 1,
      extracted: extracted(item),
      rollCalls: item.rollCalls,
      ...(voter ? { voterPositions: positions.get(item.id) ?? [] } : {}),
    };
  });
  return {
    coverage,
    query: p.q,
    interpretedQueries: ranked.interpreted,
    filters: {
      voter: voter?.id ?? null,
      position: p.position ?? null,
      final: p.final,
      groupBy: p.groupBy,
      from: p.from,
      to: p.to,
      date: p.date ?? null,
      actionType: p.actionType ?? null,
      result: p.result ?? null,
    },
    total: ranked.hits.length ? ranked.total : 0,
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
    const row = {
      rollCallId,
      nameAsRecorded: t.names[t.name[i]],
      position: POSITIONS[t.position[i]],
      action: rc.action,
      actionType: rc.actionType,
      isFinal: t.isFinal[i] === 1,
      page: rc.page,
    };
    (out.get(itemId) ?? out.set(itemId, []).get(itemId)!).push(row);
  }
  for (const list of out.values())
    list.sort((a, b) => (a.rollCallId < b.rollCallId ? -1 : a.rollCallId > b.rollCallId ? 1 : 0));
  return out;
}

export async function getItem(release: Release, links: Links, id: string) {
  const item = (await itemsById(release, [id])).get(id);
  if (!item) return null;
  const q = new Params();
  const comments = await release.pool.rows(
    `
    SELECT comment_id AS id, speaker, statement, page::INTEGER AS page FROM comments
    WHERE document_id = ${q.add(item.documentId)} AND file_number = ${q.add(item.fileNumber)} AND year = ${q.add(item.year)} ORDER BY sequence`,
    q,
  );
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
