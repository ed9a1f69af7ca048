// Meetings as records: the list of meetings the lake holds (by year), and one meeting with its documents, its items in
// agenda order with their actions and roll calls, and its public commenters in order.
import type { MeetingCoverage } from '../../core/lake/coverage.ts';
import { itemRecordsById } from '../engine/texts.ts';
import type { Release } from '../lake/release.ts';
import type { MeetingFacts } from '../schema-types.ts';
import { meetingsCoverage, spanOf } from './coverage.ts';
import { InvalidParameter } from './errors.ts';
import { rollCall, rollCallFilter, type RollCallFilters } from './items.ts';
import type { Links } from './links.ts';
import { type DocumentMeta, documentsOf } from './pages.ts';
import { Params } from './sql.ts';
import { yearRange } from './years.ts';

/** A meeting date as given in a path or a tool call: a real calendar date, 2012–2026. */
export function meetingDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (
    !/^(201[2-9]|202[0-6])-\d{2}-\d{2}$/.test(date) ||
    Number.isNaN(d.getTime()) ||
    d.toISOString().slice(0, 10) !== date
  )
    throw new InvalidParameter([
      {
        parameter: 'date',
        rule: 'format',
        message: `date must be a meeting date YYYY-MM-DD in 2012–2026 (got '${date.slice(0, 40)}')`,
      },
    ]);
  return date;
}

export interface MeetingListParams {
  year?: number;
  from?: number;
  to?: number;
  after?: string;
  limit: number;
}

export async function listMeetings(release: Release, links: Links, p: MeetingListParams) {
  const range = yearRange(p);
  const all = await meetingsCoverage(release);
  const inSpan = all.filter((m) => m.year >= range.from && m.year <= range.to);
  const page = inSpan.filter((m) => !p.after || m.date > p.after).slice(0, p.limit);
  const docs = await documentsOf(release);
  const last = page.at(-1);
  return {
    filters: { year: p.year ?? null, from: range.from, to: range.to, after: p.after ?? null },
    coverage: spanOf(all, range.from, range.to),
    total: inSpan.length,
    returned: page.length,
    nextAfter: last && inSpan.at(-1)!.date > last.date ? last.date : null,
    meetings: page.map((m) => ({
      ...m,
      documents: m.documents.map((id) => ({ id, kind: docs.get(id)?.kind, officialUrl: docs.get(id)?.officialUrl })),
      transcriptUrl: links.meeting(m.date),
      markdownUrl: links.meeting(m.date, true),
    })),
  };
}

export type MeetingParams = RollCallFilters;

/** What the meeting's documents state about it (meeting-facts.json): the agenda's cover and numbered items, the minutes' opening and closing. */
function meetingFacts(documents: (DocumentMeta | undefined)[]): MeetingFacts {
  const agenda = documents.find((d) => d?.kind === 'agenda')?.facts;
  const minutes = documents.find((d) => d?.kind === 'minutes')?.facts;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
  const roll = list<string>(minutes?.members);
  return {
    meetingType: text(agenda?.meeting_type) ?? text(minutes?.meeting_type),
    agendaItems: agenda?.numbered_items == null ? null : Number(agenda.numbered_items),
    members: roll.length ? roll : list<string>(agenda?.members),
    presiding: text(minutes?.presiding),
    calledToOrder: text(minutes?.called_to_order),
    adjournedAt: text(minutes?.adjourned_at),
    notedPresent: list<{ name: string; time: string }>(minutes?.noted_present),
  };
}

/**
 * One meeting, or null when the lake holds no document of that date. Its items are the minutes' when it has them;
 * `kind` asks for another document's (the meeting page's way to the agenda's items), when the meeting has one.
 */
export async function getMeeting(
  release: Release,
  links: Links,
  date: string,
  p: MeetingParams,
  kind?: 'agenda' | 'minutes',
) {
  const all = await meetingsCoverage(release);
  const meeting: MeetingCoverage | undefined = all.find((m) => m.date === date);
  if (!meeting) return null;
  const docs = await documentsOf(release);
  // The minutes record what happened; without them, the agenda says what was to be taken up.
  const itemsFrom =
    meeting.documents.find((id) => docs.get(id)?.kind === (kind ?? 'minutes')) ??
    meeting.documents.find((id) => docs.get(id)?.kind === 'minutes') ??
    meeting.documents[0];
  const qi = new Params();
  const filter = rollCallFilter(p, qi, 'i.item_id');
  const qc = new Params();
  const [items, comments] = await Promise.all([
    release.pool.rows(
      `
      SELECT i.item_id AS id, i.sequence::INTEGER AS sequence, i.file_number AS "fileNumber", i.title, i.item_type AS "itemType",
             i.section, i.start_page::INTEGER AS "startPage", i.end_page::INTEGER AS "endPage", i.status_lines AS actions,
             i.official_url AS "officialUrl"
      FROM items i WHERE i.document_id = ${qi.add(itemsFrom)} AND i.year = ${qi.add(meeting.year)}${filter ? ` AND ${filter}` : ''}
      ORDER BY i.sequence`,
      qi,
    ),
    release.pool.rows(
      `
      SELECT comment_id AS id, sequence::INTEGER AS sequence, speaker, statement, file_number AS "fileNumber", page::INTEGER AS page,
             official_url AS "officialUrl"
      FROM comments WHERE meeting_date = ${qc.add(date)}::DATE AND year = ${qc.add(meeting.year)} ORDER BY document_id, sequence`,
      qc,
    ),
  ]);
  const facts = meetingFacts(meeting.documents.map((id) => docs.get(id)));
  const records = await itemRecordsById(
    release,
    items.map((i) => String(i.id)),
  );
  const { date: _date, year: _year, documents: _documents, ...holds } = meeting;
  return {
    date,
    year: meeting.year,
    documents: meeting.documents.map((id) => {
      const { kind, title, pages, officialUrl } = docs.get(id)!;
      return { id, kind, title, pages, officialUrl };
    }),
    facts,
    holds,
    coverage: spanOf(all, meeting.year, meeting.year, date),
    filters: { actionType: p.actionType ?? null, result: p.result ?? null },
    itemsFrom,
    items: items.map((i) => ({
      ...i,
      transcriptUrl: links.item(String(i.id)),
      rollCalls: (records.get(String(i.id))?.roll_calls ?? []).map(rollCall),
    })),
    comments: comments.map((c) => ({ ...c, transcriptUrl: links.comment(String(c.id)) })),
    transcriptUrl: links.meeting(date),
    markdownUrl: links.meeting(date, true),
    release: release.id,
  };
}
