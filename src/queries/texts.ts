// Document text for snippets, read by offset from the release's text store (`index/<collection>_text.bin`, each
// text raw-deflated): a few small reads instead of decoding whole Parquet row groups of text. Where each text lies
// (`<collection>_docs`: doc_id, text_offset, text_bytes) is read once per release into sorted arrays, so a search
// spends no query on it.
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { Release } from '../lake/release.ts';
import { INDEX_DIR, indexTable, textStoreFile, type Collection } from '../../core/lake/format.ts';

export interface TextRef { offset: number; bytes: number }

async function readTexts(release: Release, collection: Collection, refs: TextRef[]): Promise<string[]> {
  const file = await release.memo<FileHandle>(`text:${collection}`, () => open(join(release.dir, INDEX_DIR, textStoreFile(collection)), 'r'), (f) => void f.close());
  return Promise.all(refs.map(async ({ offset, bytes }) => {
    const buf = Buffer.alloc(bytes);
    await file.read(buf, 0, bytes, offset);
    return inflateRawSync(buf).toString('utf8');
  }));
}

interface TextTable { ids: string[]; offsets: Float64Array; bytes: Uint32Array }

function textTable(release: Release, collection: Collection): Promise<TextTable> {
  return release.memo(`text-refs:${collection}`, async () => {
    const rows = await release.pool.with(async (c) => (await c.runAndReadAll(
      `SELECT doc_id, text_offset::DOUBLE, text_bytes::INTEGER FROM ${indexTable(collection, 'docs')} ORDER BY doc_id`)).getRows());
    return {
      ids: rows.map((r) => String(r[0])),
      offsets: Float64Array.from(rows, (r) => Number(r[1])),
      bytes: Uint32Array.from(rows, (r) => Number(r[2])),
    };
  });
}

/** Index of `id` in the sorted `ids`, or -1 (ids are ASCII: DuckDB's byte order is JavaScript's order). */
function find(ids: string[], id: string): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] === id) return mid;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The texts of some documents of a collection, by id (ids without an entry are left out). */
export async function textsById(release: Release, collection: Collection, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const table = await textTable(release, collection);
  const found = ids.map((id) => find(table.ids, id)).filter((i) => i >= 0);
  const texts = await readTexts(release, collection, found.map((i) => ({ offset: table.offsets[i], bytes: table.bytes[i] })));
  return new Map(found.map((i, k) => [table.ids[i], texts[k]]));
}
