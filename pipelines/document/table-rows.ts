// Pipeline records → lake table rows (the tables and their columns: core/lake/format.ts COLUMNS).
import { officialPageUrl } from '../../core/lake/ids.ts';
import type {
  CommentRecord,
  ItemRecord,
  PositionRecord,
  Problem,
  RollCallRecord,
  SupervisorRecord,
} from '../records.ts';

export const itemRow = (i: ItemRecord, officialUrl: string, sequence: number) => ({
  item_id: i.id,
  sequence,
  document_id: i.documentId,
  meeting_date: i.meetingDate,
  year: i.year,
  kind: i.kind,
  file_number: i.fileNumber,
  title: i.title,
  sponsors: i.sponsors,
  long_title: i.longTitle,
  matter: i.matter,
  item_type: i.itemType,
  section: i.section,
  start_page: i.startPage,
  end_page: i.endPage,
  text: i.text,
  enactment_numbers: i.enactmentNumbers,
  status_lines: i.statusLines,
  amounts: i.extracted.amounts,
  housing_units: i.extracted.housingUnits,
  addresses: i.extracted.addresses,
  parties: i.extracted.parties,
  unit_mentions: i.unitMentions,
  official_url: officialPageUrl(officialUrl, i.startPage),
});

export const rollCallRow = (r: RollCallRecord, officialUrl: string) => ({
  roll_call_id: r.id,
  item_id: r.itemId,
  document_id: r.documentId,
  meeting_date: r.meetingDate,
  year: r.year,
  file_number: r.fileNumber,
  sequence: r.sequence,
  action: r.action,
  action_type: r.actionType,
  result: r.result,
  is_final: r.isFinal,
  rescinded_by: r.rescindedBy,
  page: r.page,
  ayes: r.ayes,
  noes: r.noes,
  absent: r.absent,
  excused: r.excused,
  declared_ayes: r.declaredCounts.ayes,
  declared_noes: r.declaredCounts.noes,
  declared_absent: r.declaredCounts.absent,
  declared_excused: r.declaredCounts.excused,
  count_mismatch: r.countMismatch,
  shared_vote: r.sharedVote,
  official_url: officialPageUrl(officialUrl, r.page),
});

export const positionRow = (p: PositionRecord) => ({
  position_id: p.id,
  roll_call_id: p.rollCallId,
  item_id: p.itemId,
  document_id: p.documentId,
  meeting_date: p.meetingDate,
  year: p.year,
  file_number: p.fileNumber,
  page: p.page,
  supervisor_id: p.supervisorId,
  name_as_recorded: p.nameAsRecorded,
  position: p.position,
  action: p.action,
  action_type: p.actionType,
  is_final: p.isFinal,
  rescinded_by: p.rescindedBy,
});

export const commentRow = (c: CommentRecord, officialUrl: string) => ({
  comment_id: c.id,
  document_id: c.documentId,
  meeting_date: c.meetingDate,
  year: c.year,
  page: c.page,
  speaker: c.speaker,
  statement: c.statement,
  file_number: c.fileNumber,
  sequence: c.sequence,
  official_url: officialPageUrl(officialUrl, c.page),
});

export const supervisorRow = (s: SupervisorRecord) => ({
  supervisor_id: s.id,
  surname: s.surname,
  full_name: s.fullName,
  district: s.district,
  term_from: s.termFrom,
  term_to: s.termTo,
  name_variants: s.nameVariants,
});

export const problemRow = (p: Problem) => ({ document_id: p.documentId, page: p.page, kind: p.kind, detail: p.detail });
