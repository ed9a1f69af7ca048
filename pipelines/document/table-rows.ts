// Lake tables: each table's columns (name → DuckDB type, in order) and the mapping from pipeline records to rows.
// lake/README.md documents every column listed here.
import type { CommentRecord, ItemRecord, PositionRecord, Problem, RollCallRecord, SupervisorRecord } from '../records.ts';

export const COLUMNS = {
  documents: {
    document_id: 'VARCHAR', meeting_date: 'DATE', year: 'INTEGER', kind: 'VARCHAR', title: 'VARCHAR', file_name: 'VARCHAR',
    official_url: 'VARCHAR', archive_url: 'VARCHAR', sha256: 'VARCHAR', bytes: 'BIGINT', pages: 'INTEGER', synthetic: 'BOOLEAN',
    extractor: 'VARCHAR',
  },
  pages: {
    page_id: 'VARCHAR', document_id: 'VARCHAR', meeting_date: 'DATE', year: 'INTEGER', kind: 'VARCHAR', page: 'INTEGER',
    title: 'VARCHAR', header: 'VARCHAR', footer: 'VARCHAR', text: 'VARCHAR', quality: 'VARCHAR', indexed: 'BOOLEAN',
    official_url: 'VARCHAR',
  },
  items: {
    item_id: 'VARCHAR', document_id: 'VARCHAR', meeting_date: 'DATE', year: 'INTEGER', kind: 'VARCHAR', file_number: 'VARCHAR',
    title: 'VARCHAR', sponsors: 'VARCHAR[]', long_title: 'VARCHAR', matter: 'VARCHAR', item_type: 'VARCHAR', section: 'VARCHAR',
    start_page: 'INTEGER', end_page: 'INTEGER', text: 'VARCHAR', enactment_numbers: 'VARCHAR[]', status_lines: 'VARCHAR[]',
    amounts: 'STRUCT(raw VARCHAR, value BIGINT, currency VARCHAR, qualifier VARCHAR)[]', housing_units: 'INTEGER[]',
    addresses: 'VARCHAR[]', parties: 'VARCHAR[]', unit_mentions: 'STRUCT(units INTEGER, sentence VARCHAR)[]', official_url: 'VARCHAR',
  },
  roll_calls: {
    roll_call_id: 'VARCHAR', item_id: 'VARCHAR', document_id: 'VARCHAR', meeting_date: 'DATE', year: 'INTEGER', file_number: 'VARCHAR',
    sequence: 'INTEGER', action: 'VARCHAR', action_type: 'VARCHAR', is_final: 'BOOLEAN', page: 'INTEGER', ayes: 'VARCHAR[]',
    noes: 'VARCHAR[]', absent: 'VARCHAR[]', excused: 'VARCHAR[]', declared_ayes: 'INTEGER', declared_noes: 'INTEGER',
    declared_absent: 'INTEGER', declared_excused: 'INTEGER', count_mismatch: 'BOOLEAN', shared_vote: 'BOOLEAN', official_url: 'VARCHAR',
  },
  positions: {
    position_id: 'VARCHAR', roll_call_id: 'VARCHAR', item_id: 'VARCHAR', document_id: 'VARCHAR', meeting_date: 'DATE', year: 'INTEGER',
    file_number: 'VARCHAR', page: 'INTEGER', supervisor_id: 'VARCHAR', name_as_recorded: 'VARCHAR', position: 'VARCHAR',
    action: 'VARCHAR', action_type: 'VARCHAR', is_final: 'BOOLEAN',
  },
  comments: {
    comment_id: 'VARCHAR', document_id: 'VARCHAR', meeting_date: 'DATE', year: 'INTEGER', page: 'INTEGER', speaker: 'VARCHAR',
    statement: 'VARCHAR', file_number: 'VARCHAR', sequence: 'INTEGER', official_url: 'VARCHAR',
  },
  supervisors: {
    supervisor_id: 'VARCHAR', surname: 'VARCHAR', full_name: 'VARCHAR', district: 'INTEGER', term_from: 'VARCHAR', term_to: 'VARCHAR',
    name_variants: 'VARCHAR[]',
  },
  problems: { document_id: 'VARCHAR', page: 'INTEGER', kind: 'VARCHAR', detail: 'VARCHAR' },
} as const;

export type Table = keyof typeof COLUMNS;

const pdfPage = (officialUrl: string, page: number) => `${officialUrl}#page=${page}`;

export const itemRow = (i: ItemRecord, officialUrl: string) => ({
  item_id: i.id, document_id: i.documentId, meeting_date: i.meetingDate, year: i.year, kind: i.kind, file_number: i.fileNumber,
  title: i.title, sponsors: i.sponsors, long_title: i.longTitle, matter: i.matter, item_type: i.itemType, section: i.section,
  start_page: i.startPage, end_page: i.endPage, text: i.text, enactment_numbers: i.enactmentNumbers, status_lines: i.statusLines,
  amounts: i.extracted.amounts, housing_units: i.extracted.housingUnits, addresses: i.extracted.addresses, parties: i.extracted.parties,
  unit_mentions: i.unitMentions, official_url: pdfPage(officialUrl, i.startPage),
});

export const rollCallRow = (r: RollCallRecord, officialUrl: string) => ({
  roll_call_id: r.id, item_id: r.itemId, document_id: r.documentId, meeting_date: r.meetingDate, year: r.year, file_number: r.fileNumber,
  sequence: r.sequence, action: r.action, action_type: r.actionType, is_final: r.isFinal, page: r.page, ayes: r.ayes, noes: r.noes,
  absent: r.absent, excused: r.excused, declared_ayes: r.declaredCounts.ayes, declared_noes: r.declaredCounts.noes,
  declared_absent: r.declaredCounts.absent, declared_excused: r.declaredCounts.excused, count_mismatch: r.countMismatch,
  shared_vote: r.sharedVote, official_url: pdfPage(officialUrl, r.page),
});

export const positionRow = (p: PositionRecord) => ({
  position_id: p.id, roll_call_id: p.rollCallId, item_id: p.itemId, document_id: p.documentId, meeting_date: p.meetingDate, year: p.year,
  file_number: p.fileNumber, page: p.page, supervisor_id: p.supervisorId, name_as_recorded: p.nameAsRecorded, position: p.position,
  action: p.action, action_type: p.actionType, is_final: p.isFinal,
});

export const commentRow = (c: CommentRecord, officialUrl: string) => ({
  comment_id: c.id, document_id: c.documentId, meeting_date: c.meetingDate, year: c.year, page: c.page, speaker: c.speaker,
  statement: c.statement, file_number: c.fileNumber, sequence: c.sequence, official_url: pdfPage(officialUrl, c.page),
});

export const supervisorRow = (s: SupervisorRecord) => ({
  supervisor_id: s.id, surname: s.surname, full_name: s.fullName, district: s.district, term_from: s.termFrom, term_to: s.termTo,
  name_variants: s.nameVariants,
});

export const problemRow = (p: Problem) => ({ document_id: p.documentId, page: p.page, kind: p.kind, detail: p.detail });
