// A file a user drops under `CORPUS/legistar/` → its rows of cells (the header first), whatever its format: CSV (RFC
// 4180, UTF-8 with or without BOM), the `.xls` Legistar's Excel button gives (an HTML table: Telerik's grid export in
// its default Html format; or SpreadsheetML 2003, its ExcelML format), or an `.xlsx` workbook (a zip of XML, read here
// with node:zlib), or a BIFF8 (Excel 97–2003) workbook (biff.ts). The format is told by the bytes, not by the
// extension: an `.xls` may hold any of them (ARCHITECTURE.md: why no spreadsheet library).
import { inflateRawSync } from 'node:zlib';

import { readBiff } from './biff.ts';
import { UnreadableExport } from './errors.ts';

export { UnreadableExport };

export type Format = 'csv' | 'html-table' | 'spreadsheetml' | 'xlsx' | 'biff';

export interface Sheet {
  format: Format;
  /** Rows of cell text, the header row first; trailing empty rows dropped. */
  rows: string[][];
}

/** Decompressed bytes allowed per workbook part: a zip bomb stops here. */
const MAX_PART_BYTES = 64 * 1024 * 1024;

/** Reads a table from a file's bytes (format by content); a damaged file is an UnreadableExport, never a crash. */
export function readSheet(bytes: Buffer): Sheet {
  try {
    return sniff(bytes);
  } catch (e) {
    if (e instanceof RangeError) throw new UnreadableExport(`a damaged file (${e.message})`);
    throw e;
  }
}

function sniff(bytes: Buffer): Sheet {
  if (bytes.length === 0) throw new UnreadableExport('the file is empty');
  if (bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')))
    return { format: 'xlsx', rows: trimRows(readXlsx(bytes)) };
  if (bytes.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex')))
    return { format: 'biff', rows: trimRows(readBiff(bytes)) };
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD')) throw new UnreadableExport('not UTF-8 text, nor a workbook');
  const head = text.slice(0, 4096).trimStart().toLowerCase();
  if (head.startsWith('<')) {
    if (
      /urn:schemas-microsoft-com:office:spreadsheet/.test(head) &&
      /<workbook\b/.test(text.slice(0, 65536).toLowerCase())
    )
      return { format: 'spreadsheetml', rows: trimRows(readSpreadsheetMl(text)) };
    if (/<table\b/i.test(text)) return { format: 'html-table', rows: trimRows(readHtmlTable(text)) };
    throw new UnreadableExport('markup without a table');
  }
  return { format: 'csv', rows: trimRows(readCsv(text)) };
}

const trimRows = (rows: string[][]): string[][] => {
  const kept = rows.filter((r) => r.some((c) => c.trim() !== ''));
  if (kept.length === 0) throw new UnreadableExport('no rows');
  return kept;
};

/** RFC 4180: fields separated by commas, quoted fields may hold commas, newlines and doubled quotes; CRLF or LF. */
export function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (quoted) throw new UnreadableExport('a quoted field is never closed');
  if (field !== '' || row.length) endRow();
  return rows;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decode = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e.toLowerCase()] ?? m),
  );
/** A cell's markup as text: line breaks kept, tags dropped, entities decoded, runs of spaces collapsed. */
const cellText = (html: string): string =>
  decode(html.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, ''))
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();

/** The largest `<table>` of a page (Telerik's export wraps the grid in one; a saved page may hold layout tables too). */
function readHtmlTable(html: string): string[][] {
  const body = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '');
  const tables = [...body.matchAll(/<table\b[^>]*>([\s\S]*?)<\/table>/gi)].map((m) =>
    [...m[1].matchAll(/<tr\b[^>]*>([\s\S]*?)(?=<tr\b|<\/tr>|<\/tbody>|<\/thead>|$)/gi)].map((r) =>
      [...r[1].matchAll(/<t[hd]\b[^>]*>([\s\S]*?)(?=<t[hd]\b|<\/t[hd]>|$)/gi)].map((c) => cellText(c[1])),
    ),
  );
  return tables.sort((a, b) => b.length - a.length)[0] ?? [];
}

/** SpreadsheetML 2003 (`<Workbook><Worksheet><Table><Row><Cell ss:Index><Data>`): the first worksheet. */
function readSpreadsheetMl(xml: string): string[][] {
  const sheet = /<Worksheet\b[\s\S]*?<\/Worksheet>/i.exec(xml)?.[0] ?? '';
  return [...sheet.matchAll(/<Row\b[^>]*>([\s\S]*?)<\/Row>/gi)].map((r) => {
    const row: string[] = [];
    for (const c of r[1].matchAll(/<Cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/Cell>)/gi)) {
      const index = /ss:Index="(\d+)"/i.exec(c[1]);
      if (index) while (row.length < Number(index[1]) - 1) row.push('');
      row.push(cellText(/<Data\b[^>]*>([\s\S]*?)<\/Data>/i.exec(c[2] ?? '')?.[1] ?? ''));
    }
    return row;
  });
}

/** A zip's entries by name (central directory), each inflated on demand within MAX_PART_BYTES. */
function unzip(zip: Buffer): Map<string, () => Buffer> {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new UnreadableExport('a zip (.xlsx) without its central directory: truncated or damaged');
  const entries = new Map<string, () => Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50)
      throw new UnreadableExport('a damaged zip directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, () => {
      if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50)
        throw new UnreadableExport(`a damaged zip entry (${name})`);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      if (start + compressed > zip.length) throw new UnreadableExport(`a truncated zip entry (${name})`);
      const data = zip.subarray(start, start + compressed);
      if (method === 0) return data;
      if (method !== 8) throw new UnreadableExport(`a zip entry compressed with method ${method} (${name})`);
      try {
        return inflateRawSync(data, { maxOutputLength: Math.min(MAX_PART_BYTES, Math.max(size, 1)) });
      } catch (e) {
        throw new UnreadableExport(`${name} does not inflate (${(e as Error).message})`);
      }
    });
    at += 46 + skip;
  }
  return entries;
}

/** Column letters of a cell reference (`AB12`) → 0-based index. */
const columnOf = (ref: string): number =>
  [...(/^[A-Z]+/.exec(ref)?.[0] ?? 'A')].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
const xmlText = (xml: string): string =>
  decode([...xml.matchAll(/<t\b[^>]*>([\s\S]*?)<\/t>/g)].map((m) => m[1]).join(''));

/** The first worksheet of an .xlsx (workbook order), its shared strings resolved; numbers as written (dates: serials). */
function readXlsx(bytes: Buffer): string[][] {
  const zip = unzip(bytes);
  const part = (name: string): string | null => zip.get(name)?.().toString('utf8') ?? null;
  const workbook = part('xl/workbook.xml');
  if (workbook === null) throw new UnreadableExport('a zip without xl/workbook.xml: not an .xlsx workbook');
  const firstId = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(workbook)?.[1];
  const rels = part('xl/_rels/workbook.xml.rels') ?? '';
  const relation = [...rels.matchAll(/<Relationship\b[^>]*>/g)]
    .map((m) => m[0])
    .find((r) => firstId !== undefined && r.includes(`Id="${firstId}"`));
  const target = relation ? /Target="([^"]+)"/.exec(relation)?.[1] : undefined;
  const path = target ? (target.startsWith('/') ? target.slice(1) : `xl/${target}`) : 'xl/worksheets/sheet1.xml';
  const sheet = part(path);
  if (sheet === null) throw new UnreadableExport(`a workbook without its first sheet (${path})`);
  const shared = [...(part('xl/sharedStrings.xml') ?? '').matchAll(/<si\b[^>]*>([\s\S]*?)<\/si>/g)].map((m) =>
    xmlText(m[1]),
  );
  return [...sheet.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)].map((r) => {
    const row: string[] = [];
    for (const c of r[1].matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = /\br="([A-Z]+)\d+"/.exec(c[1])?.[1];
      const type = /\bt="(\w+)"/.exec(c[1])?.[1] ?? 'n';
      const inner = c[2] ?? '';
      const v = decode(/<v>([\s\S]*?)<\/v>/.exec(inner)?.[1] ?? '');
      const text = type === 's' ? (shared[Number(v)] ?? '') : type === 'inlineStr' ? xmlText(inner) : v;
      const index = ref ? columnOf(ref) : row.length;
      while (row.length < index) row.push('');
      row[index] = text;
    }
    return row;
  });
}
