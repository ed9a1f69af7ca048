// The postings store's bytes (format.ts postingsStoreFile, lake/README.md): the pieces the pipeline writes
// (pipelines/index/postings-store.ts, streaming) and the server reads (src/engine/postings.ts, by offset), side by
// side, and the whole store in memory from the same pieces (encodePostingsStore, decodePostingsStore: the round trip
// test/codecs.test.ts checks). Sections in file order: per term its impacts (float64) then document numbers (u32);
// the positions, per posting an entry of varints (its byte length, then the first position and the gaps after it);
// the term directory (termEnds, termBytes, termDf, termPositions); the doc table (docIdEnds, docIdBytes, docYear,
// docKind); then the footer's JSON, its byte length (u32) and the magic. Little-endian throughout.
import { POSTINGS_STORE_MAGIC, POSTINGS_STORE_SECTIONS, type PostingsStoreFooter } from '../format.ts';
import { readVarint, VARINT_MAX_BYTES, writeVarint } from './varint.ts';

export type Section = (typeof POSTINGS_STORE_SECTIONS)[number];

/** A term's postings: impacts and document numbers, in document order. */
export interface TermPostings {
  impacts: Float64Array;
  docs: Uint32Array;
}

/** A term's positions: posting i's entry is `bytes[from[i]..to[i])`, varints of the first position and the gaps. */
export interface TermPositions {
  bytes: Uint8Array;
  from: Uint32Array;
  to: Uint32Array;
}

export interface StoredDoc {
  id: string;
  year: number;
  kind: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Encoding

export const u32Bytes = (values: ArrayLike<number>): Buffer => bytesOf(Uint32Array.from(values));
export const f64Bytes = (values: ArrayLike<number>): Buffer => bytesOf(Float64Array.from(values));
const bytesOf = (a: Float64Array | Uint32Array | Uint16Array | Uint8Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** A term's postings section: its impacts, then its document numbers. */
export const encodeTermPostings = (impacts: ArrayLike<number>, docs: ArrayLike<number>): Buffer[] => [
  f64Bytes(impacts),
  u32Bytes(docs),
];

/** Bytes one posting's positions entry may take (`count` positions). */
export const positionsEntryRoom = (count: number): number => VARINT_MAX_BYTES * (count + 1);

/**
 * Writes one posting's positions entry at `out[at]` (room: positionsEntryRoom): `count` ascending positions, the i-th
 * `positionAt(i)`; `body` is scratch room for the gaps. Returns the next free byte.
 */
export function writePositionsEntry(
  count: number,
  positionAt: (i: number) => number,
  out: Uint8Array,
  at: number,
  body: Uint8Array,
): number {
  let length = 0;
  let last = 0;
  for (let i = 0; i < count; i++) {
    const p = positionAt(i);
    length = writeVarint(body, length, p - last);
    last = p;
  }
  at = writeVarint(out, at, length);
  out.set(body.subarray(0, length), at);
  return at + length;
}

/** The doc table's sections, documents in doc number order, and the kinds `docKind` indexes (sorted). */
export function encodeDocTable(docs: StoredDoc[]): {
  kinds: string[];
  sections: Record<'docIdEnds' | 'docIdBytes' | 'docYear' | 'docKind', Buffer>;
} {
  const kinds = [...new Set(docs.map((d) => d.kind))].sort();
  const ids = docs.map((d) => Buffer.from(d.id, 'utf8'));
  let end = 0;
  return {
    kinds,
    sections: {
      docIdEnds: u32Bytes(ids.map((id) => (end += id.length))),
      docIdBytes: Buffer.concat(ids),
      docYear: bytesOf(Uint16Array.from(docs, (d) => d.year)),
      docKind: bytesOf(Uint8Array.from(docs, (d) => kinds.indexOf(d.kind))),
    },
  };
}

/** The store's last bytes: the footer's JSON (keys in a fixed order), its byte length and the magic. */
export function encodeFooter(f: PostingsStoreFooter): Buffer {
  const sections = Object.fromEntries(POSTINGS_STORE_SECTIONS.map((k) => [k, f.sections[k]]));
  const json = Buffer.from(
    JSON.stringify({ docs: f.docs, terms: f.terms, postings: f.postings, kinds: f.kinds, sections }),
    'utf8',
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  return Buffer.concat([json, length, Buffer.from(POSTINGS_STORE_MAGIC, 'latin1')]);
}

// ---------------------------------------------------------------------------------------------------------------
// Decoding

/** Bytes at the end of the store that say where its footer lies. */
export const FOOTER_TAIL = 12;

/** The footer's byte length, from the store's last FOOTER_TAIL bytes; throws for a file that is not a postings store. */
export function footerLength(tail: Buffer): number {
  if (tail.length !== FOOTER_TAIL || tail.toString('latin1', 4) !== POSTINGS_STORE_MAGIC)
    throw new Error('not a postings store');
  return tail.readUInt32LE(0);
}

export const decodeFooter = (json: Buffer): PostingsStoreFooter =>
  JSON.parse(json.toString('utf8')) as PostingsStoreFooter;

// Views of a section's bytes (aligned: read into a buffer of their own).
export const u32View = (b: Uint8Array): Uint32Array => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
export const f64View = (b: Uint8Array): Float64Array => new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
export const u16View = (b: Uint8Array): Uint16Array => new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2);

/** Bytes of a term's postings section (`df` postings). */
export const termPostingsBytes = (df: number): number => 12 * df;

/** Where each term's postings begin in the file, from the terms' document frequencies and the section's offset. */
export function termPostingsStarts(df: Uint32Array, offset: number): Float64Array {
  const starts = new Float64Array(df.length);
  for (let i = 0; i < df.length; i++) starts[i] = i === 0 ? offset : starts[i - 1] + termPostingsBytes(df[i - 1]);
  return starts;
}

/** A term's postings from its section's bytes (aligned). */
export function decodeTermPostings(bytes: Uint8Array, df: number): TermPostings {
  return {
    impacts: new Float64Array(bytes.buffer, bytes.byteOffset, df),
    docs: new Uint32Array(bytes.buffer, bytes.byteOffset + 8 * df, df),
  };
}

/** A term's positions from its `df` entries' bytes: where each entry's varints lie. */
export function decodePositionEntries(bytes: Uint8Array, df: number): TermPositions {
  const from = new Uint32Array(df);
  const to = new Uint32Array(df);
  const cursor = { at: 0 };
  for (let i = 0; i < df; i++) {
    const length = readVarint(bytes, cursor);
    from[i] = cursor.at;
    to[i] = cursor.at += length;
  }
  return { bytes, from, to };
}

/** Posting i's positions into `out` (room: `to[i] - from[i]` at least); returns how many. */
export function decodePositions(p: TermPositions, i: number, out: Int32Array): number {
  // On the phrase check's hot path: readVarint inlined with shifts (positions stay far below 2^28), no cursor object.
  const { bytes } = p;
  const end = p.to[i];
  let at = p.from[i];
  let count = 0;
  let last = 0;
  while (at < end) {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      value |= (b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    out[count++] = last += value;
  }
  return count;
}

// ---------------------------------------------------------------------------------------------------------------
// The whole store in memory

/** What a postings store holds: documents in doc number order, terms in UTF-8 byte order, postings in doc order. */
export interface PostingsStoreData {
  docs: StoredDoc[];
  terms: { term: string; postings: { doc: number; impact: number; positions: number[] }[] }[];
}

export function encodePostingsStore(data: PostingsStoreData): Buffer {
  const postings: Buffer[] = [];
  const positions: Buffer[] = [];
  const termPositions = [0];
  let positionBytes = 0;
  for (const { postings: list } of data.terms) {
    postings.push(
      ...encodeTermPostings(
        list.map((p) => p.impact),
        list.map((p) => p.doc),
      ),
    );
    for (const p of list) {
      const room = positionsEntryRoom(p.positions.length);
      const entry = Buffer.alloc(room);
      const length = writePositionsEntry(p.positions.length, (i) => p.positions[i], entry, 0, Buffer.alloc(room));
      positions.push(entry.subarray(0, length));
      positionBytes += length;
    }
    termPositions.push(positionBytes);
  }
  const terms = data.terms.map((t) => Buffer.from(t.term, 'utf8'));
  let end = 0;
  const docTable = encodeDocTable(data.docs);
  const bytes: Record<Section, Buffer> = {
    postings: Buffer.concat(postings),
    positions: Buffer.concat(positions),
    termEnds: u32Bytes(terms.map((t) => (end += t.length))),
    termBytes: Buffer.concat(terms),
    termDf: u32Bytes(data.terms.map((t) => t.postings.length)),
    termPositions: f64Bytes(termPositions),
    ...docTable.sections,
  };
  const sections = {} as PostingsStoreFooter['sections'];
  let at = 0;
  for (const k of POSTINGS_STORE_SECTIONS) {
    sections[k] = [at, bytes[k].length];
    at += bytes[k].length;
  }
  const count = data.terms.reduce((n, t) => n + t.postings.length, 0);
  const footer = { docs: data.docs.length, terms: data.terms.length, postings: count, kinds: docTable.kinds, sections };
  return Buffer.concat([...POSTINGS_STORE_SECTIONS.map((k) => bytes[k]), encodeFooter(footer)]);
}

export function decodePostingsStore(store: Buffer): PostingsStoreData {
  const length = footerLength(store.subarray(store.length - FOOTER_TAIL));
  const footer = decodeFooter(store.subarray(store.length - FOOTER_TAIL - length, store.length - FOOTER_TAIL));
  // A copy of each section: typed arrays need their own alignment.
  const section = (k: Section) => {
    const [offset, bytes] = footer.sections[k];
    return Buffer.from(store.subarray(offset, offset + bytes));
  };
  const strings = (ends: Uint32Array, bytes: Buffer) =>
    Array.from(ends, (e, i) => bytes.toString('utf8', i === 0 ? 0 : ends[i - 1], e));
  const docYear = u16View(section('docYear'));
  const docKind = section('docKind');
  const docs = strings(u32View(section('docIdEnds')), section('docIdBytes')).map((id, d) => ({
    id,
    year: docYear[d],
    kind: footer.kinds[docKind[d]],
  }));
  const df = u32View(section('termDf'));
  const termPositions = f64View(section('termPositions'));
  const starts = termPostingsStarts(df, 0);
  const postings = section('postings');
  const positions = section('positions');
  const terms = strings(u32View(section('termEnds')), section('termBytes')).map((term, t) => {
    const list = decodeTermPostings(
      Buffer.from(postings.subarray(starts[t], starts[t] + termPostingsBytes(df[t]))),
      df[t],
    );
    const entries = decodePositionEntries(positions.subarray(termPositions[t], termPositions[t + 1]), df[t]);
    return {
      term,
      postings: Array.from(list.docs, (doc, i) => {
        const out = new Int32Array(entries.to[i] - entries.from[i]);
        return { doc, impact: list.impacts[i], positions: [...out.subarray(0, decodePositions(entries, i, out))] };
      }),
    };
  });
  return { docs, terms };
}
