// One document's rows for every table (serialized as NDJSON) and its documents for every index collection (analysed):
// the work of turning a document into release rows, done in the extraction threads so the build's main thread only
// appends the results in corpus order.
import { type Collection, COLUMNS, type Table } from '../../core/lake/format.ts';
import { officialPageUrl, pageId } from '../../core/lake/ids.ts';
import { pageTitle } from '../../core/text/titles.ts';
import type { PageText } from '../extract/pages.ts';
import { EXTRACTOR } from '../extract/pdf.ts';
import { analyse, type AnalysedDoc } from '../index/bm25.ts';
import { parseDocument } from '../parse/document.ts';
import type { Problem, SupervisorRecord } from '../records.ts';
import type { SourceDocument } from '../sources.ts';
import { commentRow, itemRow, positionRow, problemRow, rollCallRow } from './table-rows.ts';

export interface DocumentRows {
  /** Each table's rows, one JSON line each. */
  tables: Record<Table, { ndjson: string; rows: number }>;
  indexes: Record<Collection, AnalysedDoc[]>;
  problemKinds: Record<string, number>;
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

function longDate(isoDate: string): string {
  return LONG_DATE.format(new Date(`${isoDate}T00:00:00Z`));
}

/**
 * The document's own running header names it (`Board of Supervisors  Meeting Minutes - Draft  11/1/2016`: its columns
 * but the last, the date); fall back to the kind.
 */
function documentTitle(source: SourceDocument, pages: PageText[]): string {
  const columns = pages.find((p) => p.header)?.header.split(/\s{2,}/) ?? [];
  const header = (columns.length > 1 ? columns.slice(0, -1) : columns).join(' ');
  const name =
    header && /board of supervisors/i.test(header)
      ? header
      : `Board of Supervisors Meeting ${source.kind === 'minutes' ? 'Minutes' : 'Agenda'}`;
  return `${name}, ${longDate(source.meetingDate)}${source.synthetic ? ' (synthetic)' : ''}`;
}

export function documentRows(s: SourceDocument, pages: PageText[], roster: SupervisorRecord[]): DocumentRows {
  const tables = Object.fromEntries(
    Object.keys(COLUMNS).map((t) => [t, { ndjson: '', rows: 0 }]),
  ) as DocumentRows['tables'];
  const write = (table: Table, row: object) => {
    tables[table].ndjson += JSON.stringify(row) + '\n';
    tables[table].rows++;
  };
  const indexes: DocumentRows['indexes'] = { page: [], item: [], comment: [] };
  const problemKinds: Record<string, number> = {};
  const problem = (p: Problem) => {
    problemKinds[p.kind] = (problemKinds[p.kind] ?? 0) + 1;
    write('problems', problemRow(p));
  };

  const title = documentTitle(s, pages);
  const year = Number(s.meetingDate.slice(0, 4));
  for (const p of pages) {
    if (p.quality === 'garbage' || p.quality === 'repaired') {
      problem({
        documentId: s.id,
        page: p.page,
        kind: `${p.quality}-page`,
        detail:
          p.quality === 'garbage'
            ? 'page text is unreadable; kept but not indexed'
            : 'page text decoded from a shifted font encoding',
      });
    }
    const row = {
      page_id: pageId(s.id, p.page),
      document_id: s.id,
      meeting_date: s.meetingDate,
      year,
      kind: s.kind,
      page: p.page,
      title: pageTitle(title, p.page),
      header: p.header,
      footer: p.footer,
      text: p.lines.join('\n'),
      quality: p.quality,
      indexed: p.quality !== 'garbage',
      official_url: officialPageUrl(s.officialUrl, p.page),
    };
    write('pages', row);
    if (row.indexed) indexes.page.push(analyse({ doc_id: row.page_id, year, kind: s.kind, text: row.text }));
  }

  const result = parseDocument(
    s,
    pages.filter((p) => p.quality !== 'garbage'),
    roster,
  );
  write('documents', {
    document_id: s.id,
    meeting_date: s.meetingDate,
    year,
    kind: s.kind,
    title,
    file_name: s.fileName,
    official_url: s.officialUrl,
    archive_url: s.archiveUrl,
    sha256: s.sha256,
    bytes: s.bytes,
    pages: pages.length,
    synthetic: s.synthetic,
    extractor: EXTRACTOR,
    meeting_type: result.facts.meetingType,
    numbered_items: result.facts.numberedItems,
    members: result.facts.members,
    presiding: result.facts.presiding,
    called_to_order: result.facts.calledToOrder,
    adjourned_at: result.facts.adjournedAt,
    noted_present: result.facts.notedPresent,
  });
  for (const p of result.problems) problem(p);
  for (const [n, i] of result.items.entries()) {
    write('items', itemRow(i, s.officialUrl, n + 1));
    indexes.item.push(analyse({ doc_id: i.id, year: i.year, kind: i.kind, text: i.text }));
  }
  for (const r of result.rollCalls) write('roll_calls', rollCallRow(r, s.officialUrl));
  for (const p of result.positions) write('positions', positionRow(p));
  for (const c of result.comments) {
    write('comments', commentRow(c, s.officialUrl));
    indexes.comment.push(analyse({ doc_id: c.id, year: c.year, kind: s.kind, text: `${c.speaker}\n${c.statement}` }));
  }
  return { tables, indexes, problemKinds };
}
