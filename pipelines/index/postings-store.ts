// The postings store of one collection (core/lake/format.ts postingsStoreFile, lake/README.md): read back from the
// postings Parquet just written, part by part in term order, and laid out for ranking in JavaScript: per term its
// impacts (float64) and document numbers (u32), its positions in a section of their own (varints), then the term
// directory, the doc table and a JSON footer. Same tables in, same bytes out: every value is written in a fixed order.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBListVector, DuckDBVector } from '@duckdb/node-api';
import { POSTINGS_STORE_MAGIC, POSTINGS_STORE_SECTIONS, postingsStoreFile, type Collection, type PostingsStoreFooter } from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import { AppendFile, closeAll } from '../store/scratch.ts';

/** Appends `n` as an unsigned LEB128 varint to `out` at `at`; returns the next free byte. */
function varint(out: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[at++] = n;
  return at;
}

/**
 * Appends one posting's positions to `out` at `at` (room for `5 + 5 × count` bytes needed): its entry's byte length,
 * then the first position and the gaps to the next ones, all varints; `body` is scratch room for the gaps. Returns the
 * next free byte.
 */
function encodePositions(child: DuckDBVector, from: number, count: number, out: Buffer, at: number, body: Buffer): number {
  let length = 0;
  let last = 0;
  for (let i = from; i < from + count; i++) {
    const p = child.getItem(i) as number;
    length = varint(body, length, p - last);
    last = p;
  }
  at = varint(out, at, length);
  body.copy(out, at, 0, length);
  return at + length;
}

/** Positions bytes gathered before they go to their scratch file, in pieces of about this size. */
const POSITIONS_PIECE = 1 << 20;

const bytesOf = (a: Float64Array | Uint32Array | Uint16Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Writes `<dir>/<name>_postings_store.bin` from the collection's docs table (`docs`: doc_no, doc_id, year, kind) and
 * its postings part files under `<dir>/<postings>/` (`parts`: their part numbers, in term order).
 */
export async function writePostingsStore(db: DuckDBConnection, name: Collection, dir: string, scratch: string, tables: { docs: string; postings: string; parts: number[] }): Promise<void> {
  if (endianness() !== 'LE') throw new Error('the postings store is little-endian; this machine is not');
  const target = join(dir, postingsStoreFile(name));
  const out = await AppendFile.create(target);
  const positionsPath = join(scratch, `${name}_positions.scratch`);
  const termsPath = join(scratch, `${name}_terms.scratch`);
  const positions = await AppendFile.create(positionsPath);
  const termBytes = await AppendFile.create(termsPath);
  const sections = {} as PostingsStoreFooter['sections'];
  const section = async (key: (typeof POSTINGS_STORE_SECTIONS)[number], write: () => Promise<void>) => {
    const start = out.length;
    await write();
    sections[key] = [start, out.length - start];
  };
  const termEnds: number[] = [];
  const termDf: number[] = [];
  const termPositions: number[] = [0];
  let postings = 0;
  // Positions are gathered in pieces before they go to their scratch file: they end at positions.length + used.
  let piece = Buffer.allocUnsafe(POSITIONS_PIECE);
  let used = 0;
  let body = Buffer.allocUnsafe(1 << 16);
  try {
    await section('postings', async () => {
      let term: string | null = null;
      let impacts: number[] = [];
      let docs: number[] = [];
      const flush = async () => {
        if (term === null) return;
        await out.append(bytesOf(Float64Array.from(impacts)));
        await out.append(bytesOf(Uint32Array.from(docs)));
        await termBytes.append(term);
        termEnds.push(termBytes.length);
        termDf.push(docs.length);
        termPositions.push(positions.length + used);
        postings += docs.length;
        impacts = [];
        docs = [];
      };
      // Read column by column from DuckDB's chunks: a JavaScript row (and an array of positions) per posting was most
      // of the index stage's time on the main thread, and its garbage.
      for (const part of tables.parts) {
        const files = sqlString(join(dir, tables.postings, `part=${part}`, '*.parquet'));
        const reader = await db.stream(`
          SELECT p.term, d.doc_no, p.impact, coalesce(p.positions, []) AS positions FROM read_parquet(${files}, hive_partitioning = false) p JOIN ${tables.docs} d USING (doc_id)
          ORDER BY p.term, d.doc_no`);
        for (let chunk = await reader.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await reader.fetchChunk()) {
          const [termColumn, docColumn, impactColumn] = [0, 1, 2].map((c) => chunk.getColumnVector(c));
          const lists = chunk.getColumnVector(3) as DuckDBListVector;
          for (let r = 0; r < chunk.rowCount; r++) {
            const t = termColumn.getItem(r) as string;
            if (t !== term) {
              await flush();
              term = t;
            }
            impacts.push(impactColumn.getItem(r) as number);
            docs.push(docColumn.getItem(r) as number);
            const count = lists.getEntryLength(r);
            const room = 5 + 5 * count;
            if (used + room > piece.length) {
              await positions.append(piece.subarray(0, used)); // kept by the file until written: the next piece is new
              piece = Buffer.allocUnsafe(Math.max(POSITIONS_PIECE, room));
              used = 0;
            }
            if (room > body.length) body = Buffer.allocUnsafe(room);
            used = encodePositions(lists.childVector, lists.getEntryOffset(r), count, piece, used, body);
          }
        }
      }
      await flush();
      await positions.append(piece.subarray(0, used));
      used = 0;
    });
    await closeAll([positions, termBytes]);
    await section('positions', () => copyInto(out, positionsPath));
    await section('termEnds', () => out.append(bytesOf(Uint32Array.from(termEnds))));
    await section('termBytes', () => copyInto(out, termsPath));
    await section('termDf', () => out.append(bytesOf(Uint32Array.from(termDf))));
    await section('termPositions', () => out.append(bytesOf(Float64Array.from(termPositions))));
    const docs = (await db.runAndReadAll(`SELECT doc_id, year, kind FROM ${tables.docs} ORDER BY doc_no`)).getRowsJS() as [string, number, string][];
    const kinds = [...new Set(docs.map((d) => d[2]))].sort();
    const ids = docs.map((d) => Buffer.from(d[0], 'utf8'));
    let end = 0;
    await section('docIdEnds', () => out.append(bytesOf(Uint32Array.from(ids, (id) => (end += id.length)))));
    await section('docIdBytes', () => out.append(Buffer.concat(ids)));
    await section('docYear', () => out.append(bytesOf(Uint16Array.from(docs, (d) => d[1]))));
    await section('docKind', () => out.append(bytesOf(Uint8Array.from(docs, (d) => kinds.indexOf(d[2])))));
    const footer: PostingsStoreFooter = { docs: docs.length, terms: termDf.length, postings, kinds, sections };
    const json = Buffer.from(JSON.stringify(footer), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length);
    await out.append(Buffer.concat([json, length, Buffer.from(POSTINGS_STORE_MAGIC, 'latin1')]));
  } finally {
    await closeAll([out, positions, termBytes]);
    await rm(positionsPath, { force: true });
    await rm(termsPath, { force: true });
  }
}

/** Appends a scratch file's bytes to `out`. */
async function copyInto(out: AppendFile, path: string): Promise<void> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) await out.append(chunk as Buffer);
}
