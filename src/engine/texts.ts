// Stores read by offset: document texts for snippets (`index/<collection>_text.bin`, each text raw-deflated) and item
// records (`index/item_records.bin`): a few small reads instead of decoding whole Parquet row groups. Where each entry
// lies (an id, an offset and a length, from `<collection>_docs` or `item_record_refs`) is read once per release into
// sorted arrays, so a lookup spends no query on it.
import { readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';

import { decodeItemRecord, type ItemRecord } from '../../core/lake/codecs/item-records.ts';
import { decodeText } from '../../core/lake/codecs/text-store.ts';
import {
  type Collection,
  COLLECTIONS,
  INDEX_DIR,
  indexTable,
  ITEM_RECORD_REFS,
  ITEM_RECORD_STORE,
  textStoreFile,
} from '../../core/lake/format.ts';
import type { EngineRelease } from './release.ts';

interface Refs {
  ids: string[];
  offsets: Float64Array;
  bytes: Uint32Array;
}

/** A store of the release's index directory: its file, opened once, and its entries' places, read once (SQL: id, offset, bytes). */
interface Store {
  file: string;
  refs: string;
}

function refsOf(release: EngineRelease, store: Store): Promise<Refs> {
  return release.memo(`refs:${store.file}`, async () => {
    const rows = await release.pool.with(async (c) => (await c.runAndReadAll(store.refs)).getRows());
    return {
      ids: rows.map((r) => String(r[0])),
      offsets: Float64Array.from(rows, (r) => Number(r[1])),
      bytes: Uint32Array.from(rows, (r) => Number(r[2])),
    };
  });
}

/** Index of `value` in the ascending `values`, or -1 (ids are ASCII: DuckDB's byte order is JavaScript's order). */
export function sortedIndexOf<T extends string | number>(values: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] === value) return mid;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A store's entries and its file, opened once per release. */
function opened(release: EngineRelease, store: Store): Promise<[Refs, FileHandle]> {
  return Promise.all([
    refsOf(release, store),
    release.memo<FileHandle>(
      `store:${store.file}`,
      () => open(join(release.dir, INDEX_DIR, store.file), 'r'),
      (f) => void f.close(),
    ),
  ]);
}

/** Opens every store ahead of the first request (warm.ts). */
export const warmStores = (release: EngineRelease): Promise<unknown> =>
  Promise.all([...COLLECTIONS.map((c) => opened(release, textStore(c))), opened(release, ITEM_RECORDS)]);

/** The entries of `ids` in a store, decoded, by id (ids without an entry are left out). */
async function readById<T>(
  release: EngineRelease,
  store: Store,
  ids: string[],
  decode: (entry: Uint8Array) => T,
): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  const [refs, file] = await opened(release, store);
  const found = ids.map((id) => sortedIndexOf(refs.ids, id)).filter((i) => i >= 0);
  // A few KB each from a file of the release, in the page cache once read: a synchronous read takes ~3 µs of this
  // thread, a promise's ~9 µs and a slot in the thread pool that DuckDB's queries wait for (one search reads 20).
  const texts = found.map((i) => {
    const buf = Buffer.allocUnsafe(refs.bytes[i]);
    const read = readSync(file.fd, buf, 0, buf.length, refs.offsets[i]);
    if (read !== buf.length) throw new Error(`${store.file}: ${read} of ${buf.length} bytes at ${refs.offsets[i]}`);
    return decode(buf);
  });
  return new Map(found.map((i, k) => [refs.ids[i], texts[k]]));
}

/** The texts of some documents of a collection, by id (ids without an entry are left out). */
export function textsById(release: EngineRelease, collection: Collection, ids: string[]): Promise<Map<string, string>> {
  return readById(release, textStore(collection), ids, decodeText);
}

const textStore = (collection: Collection): Store => ({
  file: textStoreFile(collection),
  refs: `SELECT doc_id, text_offset::DOUBLE, text_bytes::INTEGER FROM ${indexTable(collection, 'docs')} ORDER BY doc_id`,
});

const ITEM_RECORDS: Store = {
  file: ITEM_RECORD_STORE,
  refs: `SELECT item_id, record_offset::DOUBLE, record_bytes::INTEGER FROM ${ITEM_RECORD_REFS} ORDER BY item_id`,
};

/** Item records by id (ids without a record are left out). */
export function itemRecordsById(release: EngineRelease, ids: string[]): Promise<Map<string, ItemRecord>> {
  return readById(release, ITEM_RECORDS, ids, decodeItemRecord);
}
