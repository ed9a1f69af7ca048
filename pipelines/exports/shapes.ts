// Every file under `CORPUS/legistar/` classified by its header row into a known shape, its rows normalised for the
// lake, or reported as a row-level problem naming the file and its columns. The shapes and where each comes from:
// - `scraped-legislation`, `scraped-history`: the CSVs of the shared corpus (`legistar/legislation_*.csv`,
//   `history_*.csv`), snake_case columns with a `file_number`;
// - `legislation-grid`: the Legislation search grid's Export (`File #, Enactment #, Name, Type, Status, Introduced,
//   Final Action, Title`; the Board's site labels the intro date `Introduced`, other Legistar sites `Intro Date`; `Ver.`,
//   `In Control`, `Sponsors`, … may be added or left out by the grid's column chooser);
// - `history-grid`: an action history (`File #, Date, Ver., Action By, Action, Result`), or a file's own history grid
//   (`Date, Ver., Action By, Action, Result, Action Details, Meeting Details, Video`: the labels of LegislationDetail.aspx
//   as the public python-legistar-scraper project (opencivicdata) reads them), which names no file: its file number is
//   then taken from the file name (`legistar/231274_history.xls`);
// - `member-votes`: a member's votes (`File #, Action Date, Title, Vote, Meeting Body`): read, not used (see README);
// - `meeting-items`: `legistar/meeting_items.csv`, written by the fetcher from MeetingDetail.aspx pages
//   (pipelines/fetch/source.ts MeetingItem).
// Legistar writes dates M/D/YYYY; a workbook may hold them as day serials, turned into M/D/YYYY here.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { legistarOutcome } from '../enrich/legistar-actions.ts';
import type { RowFiles } from '../store/row-files.ts';
import { type Format, readSheet, UnreadableExport } from './tables.ts';

export type Shape =
  'scraped-legislation' | 'scraped-history' | 'legislation-grid' | 'history-grid' | 'member-votes' | 'meeting-items';

/** One legislative file as an export lists it (values as printed; the SQL of publish/legistar.ts types them). */
export interface LegislationRow {
  file_number: string;
  type: string | null;
  status: string | null;
  name: string | null;
  title: string | null;
  introduced: string | null;
  final_action: string | null;
  enactment_date: string | null;
  enactment_number: string | null;
  sponsors: string | null;
  in_control: string | null;
  related_files: string | null;
  url: string | null;
  source: string;
  /** The export's place in corpus order: the first export listing a file wins a tie. */
  rank: number;
}

export interface HistoryRow {
  file_number: string;
  date: string | null;
  ver: string | null;
  action_by: string | null;
  action: string | null;
  result: string | null;
  /** Newest first within one export (Legistar's grids and the scraped `id` list the newest action first). */
  seq: number;
  source: string;
  rank: number;
}

export interface MeetingItemRow {
  meeting_date: string;
  file_number: string;
  version: string | null;
  agenda_number: string | null;
  name: string | null;
  title: string | null;
  action: string | null;
  result: string | null;
  action_type: string;
  outcome: string;
  meeting_url: string | null;
  source: string;
}

/** A row of the `problems` table: a non-PDF source is named by its corpus-relative path, page 0. */
export interface ExportProblem {
  document_id: string;
  page: 0;
  kind: 'unknown-export' | 'unreadable-export' | 'unused-export';
  detail: string;
}

export interface ExportFile {
  /** Corpus-relative path, e.g. `legistar/Legislation.xls`. */
  path: string;
  format: Format | null;
  shape: Shape | null;
  columns: string[];
  rows: number;
}

export interface Exports {
  files: ExportFile[];
  legislation: LegislationRow[];
  history: HistoryRow[];
  meetingItems: MeetingItemRow[];
  problems: ExportProblem[];
}

const FORMAT_LABEL: Record<Format, string> = {
  csv: 'CSV',
  'html-table': 'HTML table',
  spreadsheetml: 'SpreadsheetML',
  xlsx: 'xlsx workbook',
  biff: 'BIFF8 workbook',
};

/** Header cell → a canonical name: lower case, single spaces, no BOM or trailing colon. */
const canon = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .replace(/\s+/g, ' ')
    .replace(/:$/, '')
    .trim()
    .toLowerCase();

/** Canonical header → field, per family (the grid labels and the scraped snake_case names alike). */
const LEGISLATION_COLUMNS: Record<string, keyof LegislationRow> = {
  'file #': 'file_number',
  file_number: 'file_number',
  'file number': 'file_number',
  type: 'type',
  status: 'status',
  name: 'name',
  title: 'title',
  introduced: 'introduced',
  'intro date': 'introduced',
  'final action': 'final_action',
  final_action: 'final_action',
  'enactment date': 'enactment_date',
  enactment_date: 'enactment_date',
  'enactment #': 'enactment_number',
  'enactment number': 'enactment_number',
  enactment_number: 'enactment_number',
  'law number': 'enactment_number',
  sponsors: 'sponsors',
  sponsor: 'sponsors',
  'in control': 'in_control',
  in_control: 'in_control',
  related_files: 'related_files',
  'related files': 'related_files',
  url: 'url',
};
const HISTORY_COLUMNS: Record<string, keyof HistoryRow> = {
  'file #': 'file_number',
  file_number: 'file_number',
  date: 'date',
  'action date': 'date',
  'ver.': 'ver',
  ver: 'ver',
  version: 'ver',
  'action by': 'action_by',
  action_by: 'action_by',
  action: 'action',
  result: 'result',
};
const MEETING_ITEM_HEADER = [
  'meeting date',
  'meeting details',
  'file #',
  'ver.',
  'agenda #',
  'name',
  'type',
  'status',
  'title',
  'action',
  'result',
];

/** The shape a header is, or null. Order matters: the most specific shapes first. */
export function classify(header: string[]): Shape | null {
  const h = new Set(header.map(canon));
  const has = (...cols: string[]) => cols.every((c) => h.has(c));
  if (MEETING_ITEM_HEADER.every((c) => h.has(c))) return 'meeting-items';
  if (has('file_number', 'action_by', 'action', 'date')) return 'scraped-history';
  if (has('file_number', 'type', 'status', 'title')) return 'scraped-legislation';
  if (has('file #', 'vote') && (h.has('action date') || h.has('meeting body'))) return 'member-votes';
  if (has('action', 'result') && (h.has('date') || h.has('action date')) && (h.has('action by') || h.has('file #')))
    return 'history-grid';
  if (
    has('file #', 'title') &&
    ['type', 'status', 'introduced', 'intro date', 'final action', 'enactment #', 'name'].some((c) => h.has(c))
  )
    return 'legislation-grid';
  return null;
}

const SHAPE_LABEL: Record<Shape, string> = {
  'scraped-legislation': 'scraped legislation',
  'scraped-history': 'scraped history',
  'legislation-grid': 'legislation grid',
  'history-grid': 'action history grid',
  'member-votes': "member's votes",
  'meeting-items': 'meeting items',
};

const clean = (v: string | undefined): string | null => {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
};

/** A workbook's day serial (days since 1899-12-30, the 1900 system) → M/D/YYYY; other text as it is. */
export function legistarDate(v: string | null): string | null {
  if (v === null || !/^\d{4,6}(\.\d+)?$/.test(v)) return v;
  const d = new Date(Date.UTC(1899, 11, 30) + Math.floor(Number(v)) * 86_400_000);
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
}

/** M/D/YYYY → YYYY-MM-DD, or null when it is not a date. */
const isoDate = (v: string | null): string | null => {
  const m = v === null ? null : /^(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(v);
  return m ? `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}` : null;
};

const MAX_EXPORT_BYTES = 256 * 1024 * 1024;

/** Every file under `CORPUS/legistar/` (dot files aside), sorted by name: what readExports reads. */
export function exportFiles(corpus: string): string[] {
  const folder = join(corpus, 'legistar');
  return existsSync(folder)
    ? readdirSync(folder, { withFileTypes: true })
        .filter((e) => e.isFile() && !e.name.startsWith('.'))
        .map((e) => e.name)
        .sort()
    : [];
}

/** Reads and classifies every file under `CORPUS/legistar/` (sorted by name); never throws for a file's content. */
export async function readExports(corpus: string): Promise<Exports> {
  const out: Exports = { files: [], legislation: [], history: [], meetingItems: [], problems: [] };
  const folder = join(corpus, 'legistar');
  for (const [rank, name] of exportFiles(corpus).entries()) {
    const path = `legistar/${name}`;
    const problem = (kind: ExportProblem['kind'], detail: string) =>
      out.problems.push({ document_id: path, page: 0, kind, detail: `${path}: ${detail}` });
    let sheet;
    try {
      const bytes = await readFile(join(folder, name));
      if (bytes.length > MAX_EXPORT_BYTES)
        throw new UnreadableExport(`${bytes.length} bytes, over the ${MAX_EXPORT_BYTES} read`);
      sheet = readSheet(bytes);
    } catch (e) {
      if (!(e instanceof UnreadableExport)) throw e;
      out.files.push({ path, format: null, shape: null, columns: [], rows: 0 });
      problem('unreadable-export', `not read: ${e.message}`);
      continue;
    }
    // The header is the first row of a known shape among the first few (an export may put a caption row above it).
    const at = sheet.rows.slice(0, 5).findIndex((r) => classify(r.map((c) => c.trim())) !== null);
    const [header, ...rows] = sheet.rows.slice(Math.max(at, 0));
    const columns = header.map((c) => c.trim());
    const shape = classify(columns);
    out.files.push({ path, format: sheet.format, shape, columns, rows: rows.length });
    const listed = columns.map((c) => JSON.stringify(c)).join(', ');
    if (shape === null) {
      problem(
        'unknown-export',
        `${FORMAT_LABEL[sheet.format]} with columns ${listed}: not a Legistar export shape this build reads (legislation grid, action history, meeting items); not used`,
      );
      continue;
    }
    const source = `${path} (${SHAPE_LABEL[shape]}, ${FORMAT_LABEL[sheet.format]})`;
    const index = new Map(columns.map((c, i) => [canon(c), i] as const));
    const cell = (row: string[], col: string) => clean(index.has(col) ? row[index.get(col)!] : undefined);
    const mapped = <K extends string>(row: string[], table: Record<string, K>): Partial<Record<K, string | null>> => {
      const r: Partial<Record<K, string | null>> = {};
      for (const [col, i] of index) if (table[col] && r[table[col]] == null) r[table[col]] = clean(row[i]);
      return r;
    };
    if (shape === 'member-votes') {
      problem(
        'unused-export',
        `${SHAPE_LABEL[shape]} export (${listed}), ${rows.length} rows read, not used: it does not name the member, and the lake's votes are the roll calls printed in the minutes`,
      );
    } else if (shape === 'scraped-legislation' || shape === 'legislation-grid') {
      for (const row of rows) {
        const r = mapped(row, LEGISLATION_COLUMNS);
        if (!r.file_number) continue;
        out.legislation.push({
          file_number: r.file_number,
          type: r.type ?? null,
          status: r.status ?? null,
          name: r.name ?? null,
          title: r.title ?? null,
          introduced: legistarDate(r.introduced ?? null),
          final_action: legistarDate(r.final_action ?? null),
          enactment_date: legistarDate(r.enactment_date ?? null),
          enactment_number: r.enactment_number ?? null,
          sponsors: r.sponsors ?? null,
          in_control: r.in_control ?? null,
          related_files: r.related_files ?? null,
          url: r.url ?? null,
          source,
          rank,
        });
      }
    } else if (shape === 'scraped-history' || shape === 'history-grid') {
      const named = /(?:^|\D)(\d{6})(?:\D|$)/.exec(name)?.[1] ?? null;
      if (!index.has('file #') && !index.has('file_number') && named === null) {
        problem(
          'unknown-export',
          `${SHAPE_LABEL[shape]} with columns ${listed} but no File # column, and no six-digit file number in its name: name it after its file (e.g. legistar/231274_history.xls); not used`,
        );
        continue;
      }
      rows.forEach((row, i) => {
        const r = mapped(row, HISTORY_COLUMNS);
        const file = r.file_number ?? named;
        if (!file) return;
        const id = shape === 'scraped-history' ? Number(cell(row, 'id')) : NaN;
        out.history.push({
          file_number: file,
          date: legistarDate(r.date ?? null),
          ver: r.ver ?? null,
          action_by: r.action_by ?? null,
          action: r.action ?? null,
          result: r.result ?? null,
          seq: Number.isInteger(id) ? id : i + 1,
          source,
          rank,
        });
      });
    } else {
      for (const row of rows) {
        const file = cell(row, 'file #');
        const date = isoDate(legistarDate(cell(row, 'meeting date')));
        if (!file || !date) continue;
        const action = cell(row, 'action');
        const result = cell(row, 'result');
        const { actionType, result: outcome } = legistarOutcome(action ?? '', result ?? '');
        out.meetingItems.push({
          meeting_date: date,
          file_number: file,
          version: cell(row, 'ver.'),
          agenda_number: cell(row, 'agenda #'),
          name: cell(row, 'name'),
          title: cell(row, 'title'),
          action,
          result,
          action_type: actionType,
          outcome,
          meeting_url: cell(row, 'meeting details'),
          source,
        });
      }
    }
  }
  return out;
}

/** The exports' rows of the release's own tables (`problems`, `legistar_meeting_items`), added to the build's row files. */
export async function writeExportRows(out: RowFiles, exports: Exports): Promise<void> {
  for (const p of exports.problems) {
    await out.problem(p);
  }
  for (const item of exports.meetingItems) await out.write('legistar_meeting_items', item);
}
