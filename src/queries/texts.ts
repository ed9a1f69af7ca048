// Document text for snippets, read by offset from the release's text store (`index/<collection>_text.bin`, each
// text raw-deflated): a few small reads instead of decoding whole Parquet row groups of text.
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { Release } from '../lake/release.ts';
import type { Collection } from './bm25.ts';

export interface TextRef { offset: number; bytes: number }

export async function readTexts(release: Release, collection: Collection, refs: TextRef[]): Promise<string[]> {
  const file = await release.memo<FileHandle>(`text:${collection}`, () => open(join(release.dir, 'index', `${collection}_text.bin`), 'r'), (f) => void f.close());
  return Promise.all(refs.map(async ({ offset, bytes }) => {
    const buf = Buffer.alloc(bytes);
    await file.read(buf, 0, bytes, offset);
    return inflateRawSync(buf).toString('utf8');
  }));
}

/** The texts of some documents of a collection, by id (ids without an entry are left out). */
export async function textsById(release: Release, collection: Collection, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await release.pool.rows(
    `SELECT doc_id, text_offset::BIGINT AS o, text_bytes::INTEGER AS b FROM ${collection}_docs WHERE doc_id IN (${ids.map(() => '?').join(', ')})`, ids);
  const texts = await readTexts(release, collection, rows.map((r) => ({ offset: Number(r.o), bytes: Number(r.b) })));
  return new Map(rows.map((r, i) => [String(r.doc_id), texts[i]]));
}
