// Legislative items: BM25 over item blocks, voter/position/final filters over recorded positions and roll calls,
// grouping by file or matter, and full item records with their roll calls.
import type { ActionType, Position, Result } from '../../core/lake/format.ts';
import { meetingIdPrefix, rollCallSequenceSql, yearOfId } from '../../core/lake/ids.ts';
import type { Release } from '../lake/release.ts';
import { InvalidParameter } from './errors.ts';
import type { Links } from './links.ts';
import { bm25, interpreted, round } from './bm25.ts';
import { snippet } from './snippet.ts';
import { Params } from './sql.ts';
import { textsById } from './texts.ts';
import type { Supervisor } from '../../core/roster.ts';
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

const GROUP_KEY = { file: 'i.file_number', matter: 'lower(i.matter)' } as const;

export const ROLL_CALL_COLUMNS = `r.roll_call_id AS id, r.item_id AS "itemId", r.sequence::INTEGER AS sequence, r.action, r.action_type AS "actionType",
  r.result, r.is_final AS "isFinal", ${rollCallSequenceSql('r.rescinded_by')} AS "rescindedBy",
  r.ayes, r.noes, r.absent, r.excused, r.page::INTEGER AS page, r.shared_vote AS "sharedVote", r.count_mismatch AS "countMismatch"`;

const ITEM_COLUMNS = `i.item_id AS id, i.document_id AS "documentId", strftime(i.meeting_date, '%Y-%m-%d') AS "meetingDate", i.year::INTEGER AS year,
  i.kind, i.file_number AS "fileNumber", i.title, i.sponsors, i.long_title AS "longTitle", i.matter, i.item_type AS "itemType",
  i.section, i.start_page::INTEGER AS "startPage", i.end_page::INTEGER AS "endPage", i.text, i.enactment_numbers AS "enactmentNumbers",
  i.status_lines AS "statusLines", i.amounts, i.housing_units AS "housingUnits", i.addresses, i.parties, i.unit_mentions AS "unitMentions",
  i.official_url AS "officialUrl"`;

/** What a search result shows of an item: no texts, none of the lists only the record carries (each list column costs decoding). */
const ITEM_SUMMARY_COLUMNS = `i.item_id AS id, strftime(i.meeting_date, '%Y-%m-%d') AS "meetingDate", i.year::INTEGER AS year, i.kind,
  i.file_number AS "fileNumber", i.title, i.sponsors, i.matter, i.item_type AS "itemType", i.start_page::INTEGER AS "startPage",
  i.end_page::INTEGER AS "endPage", i.amounts, i.housing_units AS "housingUnits", i.addresses, i.parties, i.official_url AS "officialUrl"`;

type Row = Record<string, any>;

const extracted = (r: Row) => ({
  amounts: (r.amounts ?? []).map((a: Row) => ({ raw: a.raw, value: Number(a.value), currency: 'USD', qualifier: a.qualifier })),
  housingUnits: r.housingUnits ?? [],
  addresses: r.addresses ?? [],
  parties: r.parties ?? [],
});

export const rollCall = ({ itemId, ...r }: Row) => r;

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

/** Item rows with their roll calls: whole records, or `summary` for search results (their text is in the text store). */
async function itemsById(release: Release, ids: string[], summary = false): Promise<Map<string, Row>> {
  if (ids.length === 0) return new Map();
  const q = new Params();
  const marks = q.list(ids);
  const years = [...new Set(ids.map(yearOfId))];
  const inYears = years.includes(null) ? '' : `AND year IN (${q.list(years as number[])})`;
  const [items, rolls] = await Promise.all([
    release.pool.rows(`SELECT ${summary ? ITEM_SUMMARY_COLUMNS : ITEM_COLUMNS} FROM items i WHERE i.item_id IN (${marks}) ${inYears}`, q),
    release.pool.rows(`SELECT ${ROLL_CALL_COLUMNS} FROM roll_calls r WHERE r.item_id IN (${marks}) ${inYears} ORDER BY r.item_id, r.sequence`, q),
  ]);
  const byId = new Map(items.map((r) => [String(r.id), { ...r, rollCalls: [] as Row[] }]));
  for (const r of rolls) byId.get(String(r.itemId))?.rollCalls.push(rollCall(r));
  return byId;
}

export async function searchItems(release: Release, links: Links, p: ItemSearchParams) {
  if (p.position && !p.voter) throw new InvalidParameter([{ parameter: 'position', rule: 'requires-voter', message: 'position requires voter (whose recorded position to filter on)' }]);
  const voter: Supervisor | null = p.voter ? await resolveVoter(release, 'voter', p.voter, p.from, p.to) : null;
  const q = new Params();
  const range = yearRange(p, p.date);
  const m = await bm25(release, q, 'item', p.q, range);
  const conditions: string[] = [];
  if (p.date) conditions.push(`starts_with(h.doc_id, ${q.add(meetingIdPrefix(p.date))})`);
  const rolls = rollCallFilter({ ...p, voter: voter?.id }, q, 'h.doc_id');
  if (rolls) conditions.push(rolls);
  const matched = `SELECT h.doc_id AS item_id, h.score FROM (${m.sql}) h ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}`;
  const limit = q.add(p.limit);
  // Ungrouped, every match is its own group: rank the matches as they are, without reading the items table.
  const ranked = m.empty ? [] : await release.pool.rows(p.groupBy === 'none' ? `
    SELECT item_id, score, 1 AS group_count, (count(*) OVER ())::INTEGER AS total
    FROM (${matched}) ORDER BY score DESC, item_id LIMIT ${limit}` : `
    WITH grouped AS (
      SELECT m.item_id, m.score, (count(*) OVER (PARTITION BY ${GROUP_KEY[p.groupBy]}))::INTEGER AS group_count,
             row_number() OVER (PARTITION BY ${GROUP_KEY[p.groupBy]} ORDER BY m.score DESC, i.meeting_date DESC, m.item_id) AS rank_in_group
      FROM (${matched}) m JOIN items i USING (item_id)
    )
    SELECT item_id, score, group_count, (count(*) OVER ())::INTEGER AS total
    FROM grouped WHERE rank_in_group = 1 ORDER BY score DESC, item_id LIMIT ${limit}`, q);

  const ids = ranked.map((r) => String(r.item_id));
  const [records, texts, coverage] = await Promise.all([itemsById(release, ids, true), textsById(release, 'item', ids), coverageOf(release, range, p.date)]);
  const positions = voter ? await voterPositions(release, voter.id, ranked.map((r) => String(r.item_id))) : new Map<string, Row[]>();
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

async function voterPositions(release: Release, supervisorId: string, itemIds: string[]): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  if (itemIds.length === 0) return out;
  const q = new Params();
  const rows = await release.pool.rows(`
    SELECT item_id AS "itemId", roll_call_id AS "rollCallId", name_as_recorded AS "nameAsRecorded", position, action, action_type AS "actionType", is_final AS "isFinal", page::INTEGER AS page
    FROM positions WHERE supervisor_id = ${q.add(supervisorId)} AND item_id IN (${q.list(itemIds)}) ORDER BY roll_call_id`, q);
  for (const { itemId, ...r } of rows) (out.get(String(itemId)) ?? out.set(String(itemId), []).get(String(itemId))!).push(r);
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
