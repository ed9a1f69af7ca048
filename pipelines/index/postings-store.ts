// The postings store of one collection (core/lake/format.ts postingsStoreFile, lake/README.md): read back from the
// postings Parquet just written, part by part in term order, and laid out for ranking in JavaScript: per term its
// impacts (float64) and document numbers (u32), its positions in a section of their own (varints), then the term
// directory, the doc table and a JSON footer, each piece encoded by core/lake/codecs/postings-store.ts. Same tables in,
// same bytes out: every value is written in a fixed order.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';

import type { DuckDBConnection, DuckDBListVector } from '@duckdb/node-api';

import {
  encodeDocTable,
  encodeFooter,
  encodeTermPostings,
  f64Bytes,
  positionsEntryRoom,
  u32Bytes,
  writePositionsEntry,
} from '../../core/lake/codecs/postings-store.ts';
import {
  type Collection,
  POSTINGS_STORE_SECTIONS,
  postingsStoreFile,
  type PostingsStoreFooter,
} from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import { AppendFile, closeAll } from '../store/scratch.ts';

/** Positions bytes gathered before they go to their scratch file, in pieces of about this size. */
const POSITIONS_PIECE = 1 << 20;

/**
 * Writes `<dir>/<name>_postings_store.bin` from the collection's docs table (`docs`: doc_no, doc_id, year, kind) and
 * its postings part files under `<dir>/<postings>/` (`parts`: their part numbers, in term order).
 */
export async function writePostingsStore(
  db: DuckDBConnection,
  name: Collection,
  dir: string,
  scratch: string,
  tables: { docs: string; postings: string; parts: number[] },
): Promise<void> {
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
        for (const bytes of encodeTermPostings(impacts, docs)) await out.append(bytes);
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
          let first = 0;
          const positionAt = (i: number) => lists.childVector.getItem(first + i) as number;
          for (let r = 0; r < chunk.rowCount; r++) {
            const t = termColumn.getItem(r) as string;
            if (t !== term) {
              await flush();
              term = t;
            }
            impacts.push(impactColumn.getItem(r) as number);
            docs.push(docColumn.getItem(r) as number);
            const count = lists.getEntryLength(r);
            const room = positionsEntryRoom(count);
            if (used + room > piece.length) {
              await positions.append(piece.subarray(0, used)); // kept by the file until written: the next piece is new
              piece = Buffer.allocUnsafe(Math.max(POSITIONS_PIECE, room));
              used = 0;
            }
            if (room > body.length) body = Buffer.allocUnsafe(room);
            first = lists.getEntryOffset(r);
            used = writePositionsEntry(count, positionAt, piece, used, body);
          }
        }
      }
      await flush();
      await positions.append(piece.subarray(0, used));
      used = 0;
    });
    await closeAll([positions, termBytes]);
    await section('positions', () => copyInto(out, positionsPath));
    await section('termEnds', () => out.append(u32Bytes(termEnds)));
    await section('termBytes', () => copyInto(out, termsPath));
    await section('termDf', () => out.append(u32Bytes(termDf)));
    await section('termPositions', () => out.append(f64Bytes(termPositions)));
    const rows = (
      await db.runAndReadAll(`SELECT doc_id, year, kind FROM ${tables.docs} ORDER BY doc_no`)
    ).getRowsJS() as [string, number, string][];
    const docs = encodeDocTable(rows.map(([id, year, kind]) => ({ id, year, kind })));
    for (const key of ['docIdEnds', 'docIdBytes', 'docYear', 'docKind'] as const)
      await section(key, () => out.append(docs.sections[key]));
    await out.append(encodeFooter({ docs: rows.length, terms: termDf.length, postings, kinds: docs.kinds, sections }));
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
