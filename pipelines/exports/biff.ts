// A BIFF8 (Excel 97–2003) `.xls` → the rows of its first worksheet, with no dependency: the compound-file container
// ([MS-CFB]: header, FAT, directory, the mini stream for small streams) to find the `Workbook` stream, then its records
// ([MS-XLS]): the shared strings (SST and its CONTINUE records), and the cells of the first worksheet substream
// (LABELSST, LABEL, NUMBER, RK, MULRK; a formula's numeric result). What a grid export writes; anything else (BIFF5,
// an encrypted workbook, a damaged container) is an UnreadableExport naming what was found. Every chain walk is bounded
// by the file's sector count, so a crafted file cannot loop.
import { UnreadableExport } from './errors.ts';

const END = 0xfffffffe;
const FREE = 0xffffffff;

/** The `Workbook` stream of a compound file. */
function workbookStream(file: Buffer): Buffer {
  if (file.length < 512) throw new UnreadableExport('a compound file shorter than its header');
  const sectorSize = 1 << file.readUInt16LE(0x1e);
  const miniSize = 1 << file.readUInt16LE(0x20);
  if (sectorSize !== 512 && sectorSize !== 4096)
    throw new UnreadableExport(`a compound file with ${sectorSize}-byte sectors`);
  const sectors = Math.floor((file.length - 512) / sectorSize);
  const sector = (n: number) => {
    if (n >= sectors) throw new UnreadableExport(`a compound file pointing past its end (sector ${n} of ${sectors})`);
    return file.subarray(512 + n * sectorSize, 512 + (n + 1) * sectorSize);
  };
  // The FAT's own sectors: 109 in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(file.readUInt32LE(0x4c + i * 4));
  for (let d = file.readUInt32LE(0x44), guard = 0; d !== END && d !== FREE && guard < sectors; guard++) {
    const s = sector(d);
    for (let i = 0; i < sectorSize / 4 - 1; i++) fatSectors.push(s.readUInt32LE(i * 4));
    d = s.readUInt32LE(sectorSize - 4);
  }
  const fat: number[] = [];
  for (const f of fatSectors.slice(0, file.readUInt32LE(0x2c))) {
    const s = sector(f);
    for (let i = 0; i < sectorSize / 4; i++) fat.push(s.readUInt32LE(i * 4));
  }
  const chain = (start: number, table: number[], read: (n: number) => Buffer): Buffer => {
    const parts: Buffer[] = [];
    for (let n = start, guard = 0; n !== END; guard++) {
      if (guard > table.length || n >= table.length)
        throw new UnreadableExport('a compound file with a broken sector chain');
      parts.push(read(n));
      n = table[n];
    }
    return Buffer.concat(parts);
  };
  const directory = chain(file.readUInt32LE(0x30), fat, sector);
  const entries = Array.from({ length: directory.length / 128 }, (_, i) =>
    directory.subarray(i * 128, (i + 1) * 128),
  ).map((e) => ({
    name: e.toString('utf16le', 0, Math.max(0, e.readUInt16LE(0x40) - 2)),
    type: e[0x42],
    start: e.readUInt32LE(0x74),
    size: e.readUInt32LE(0x78),
  }));
  const root = entries[0];
  const book = entries.find((e) => e.type === 2 && e.name === 'Workbook');
  if (!root || !book) {
    const old = entries.some((e) => e.type === 2 && e.name === 'Book');
    throw new UnreadableExport(
      old
        ? 'a BIFF5 (Excel 5.0/95) workbook: save it as .xlsx or CSV'
        : 'a compound file without a Workbook stream: not an Excel workbook',
    );
  }
  if (book.size >= file.readUInt32LE(0x38)) return chain(book.start, fat, sector).subarray(0, book.size);
  const miniFat: number[] = [];
  const miniFatBytes = chain(file.readUInt32LE(0x3c), fat, sector);
  for (let i = 0; i + 4 <= miniFatBytes.length; i += 4) miniFat.push(miniFatBytes.readUInt32LE(i));
  const ministream = chain(root.start, fat, sector);
  const mini = (n: number) => {
    if ((n + 1) * miniSize > ministream.length)
      throw new UnreadableExport('a compound file pointing past its mini stream');
    return ministream.subarray(n * miniSize, (n + 1) * miniSize);
  };
  return chain(book.start, miniFat, mini).subarray(0, book.size);
}

/** An RK number (a packed integer or the high 30 bits of a double, optionally ×100). */
function rk(v: number): number {
  let n: number;
  if (v & 2) n = v >> 2;
  else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(v & 0xfffffffc, 4);
    n = b.readDoubleLE(0);
  }
  return v & 1 ? n / 100 : n;
}

/** The rows of the first worksheet of a BIFF8 workbook. */
export function readBiff(file: Buffer): string[][] {
  const stream = workbookStream(file);
  const records: { type: number; data: Buffer }[] = [];
  for (let at = 0; at + 4 <= stream.length;) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    records.push({ type, data: stream.subarray(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  const first = records[0];
  if (!first || first.type !== 0x0809 || first.data.readUInt16LE(0) !== 0x0600)
    throw new UnreadableExport('a workbook that is not BIFF8 (Excel 97-2003)');
  if (records.some((r) => r.type === 0x002f)) throw new UnreadableExport('an encrypted workbook');
  const strings = sharedStrings(records);
  const rows: string[][] = [];
  const put = (row: number, col: number, value: string) => {
    while (rows.length <= row) rows.push([]);
    const r = rows[row];
    while (r.length < col) r.push('');
    r[col] = value;
  };
  const num = (n: number) => String(n);
  let sheets = 0;
  for (const { type, data } of records) {
    if (type === 0x0809) {
      if (data.readUInt16LE(2) === 0x0010) sheets++;
      continue;
    }
    if (sheets !== 1) continue; // the globals, or a later sheet
    if (type === 0x000a) break; // the first sheet's EOF
    if (type === 0x00fd) put(data.readUInt16LE(0), data.readUInt16LE(2), strings[data.readUInt32LE(6)] ?? '');
    else if (type === 0x0203) put(data.readUInt16LE(0), data.readUInt16LE(2), num(data.readDoubleLE(6)));
    else if (type === 0x027e) put(data.readUInt16LE(0), data.readUInt16LE(2), num(rk(data.readInt32LE(6))));
    else if (type === 0x0204) put(data.readUInt16LE(0), data.readUInt16LE(2), unicodeString(data, 6).text);
    else if (type === 0x00bd) {
      const row = data.readUInt16LE(0);
      for (let col = data.readUInt16LE(2), at = 4; at + 6 <= data.length - 2; col++, at += 6)
        put(row, col, num(rk(data.readInt32LE(at + 2))));
    } else if (type === 0x0006 && data.readUInt16LE(12) !== 0xffff)
      put(data.readUInt16LE(0), data.readUInt16LE(2), num(data.readDoubleLE(6)));
  }
  if (sheets === 0) throw new UnreadableExport('a workbook without a worksheet');
  return rows;
}

/** An XLUnicodeString at `at` (cch 16-bit, flags, characters), in one record. */
function unicodeString(data: Buffer, at: number): { text: string; end: number } {
  const cch = data.readUInt16LE(at);
  const high = data[at + 2] & 1;
  const start = at + 3;
  const end = start + cch * (high ? 2 : 1);
  return { text: high ? data.toString('utf16le', start, end) : data.toString('latin1', start, end), end };
}

/** The SST's strings, read across its CONTINUE records (a string's characters may resume in one, behind a new flags byte). */
function sharedStrings(records: { type: number; data: Buffer }[]): string[] {
  const i = records.findIndex((r) => r.type === 0x00fc);
  if (i < 0) return [];
  const parts = [records[i].data];
  for (let j = i + 1; j < records.length && records[j].type === 0x003c; j++) parts.push(records[j].data);
  let part = 0;
  let at = 8;
  /** Moves to the next record when this one is used up; fails when `n` bytes are not there. */
  const need = (n: number) => {
    while (at >= parts[part].length && part + 1 < parts.length) {
      part++;
      at = 0;
    }
    if (at + n > parts[part].length) throw new UnreadableExport('a damaged shared-string table');
  };
  const read = (n: number) => {
    need(n);
    at += n;
    return at - n;
  };
  const u8 = () => parts[part][read(1)];
  const u16 = () => parts[part].readUInt16LE(read(2));
  const u32 = () => parts[part].readUInt32LE(read(4));
  const skip = (n: number) => {
    for (let left = n; left > 0;) {
      if (at >= parts[part].length) need(1);
      const take = Math.min(left, parts[part].length - at);
      at += take;
      left -= take;
    }
  };
  const count = parts[0].readUInt32LE(4);
  const out: string[] = [];
  for (let s = 0; s < count; s++) {
    let cch = u16();
    const flags = u8();
    let high = flags & 1;
    const runs = flags & 8 ? u16() : 0;
    const ext = flags & 4 ? u32() : 0;
    let text = '';
    while (cch > 0) {
      if (at >= parts[part].length) {
        need(1);
        high = u8() & 1; // a string resumed in a CONTINUE record: its own flags byte
      }
      const width = high ? 2 : 1;
      const take = Math.min(cch, Math.floor((parts[part].length - at) / width));
      if (take <= 0) throw new UnreadableExport('a damaged shared-string table');
      text += high ? parts[part].toString('utf16le', at, at + take * 2) : parts[part].toString('latin1', at, at + take);
      at += take * width;
      cch -= take;
    }
    skip(runs * 4 + ext);
    out.push(text);
  }
  return out;
}
