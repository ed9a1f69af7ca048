// The item record store (core/lake/format.ts ITEM_RECORD_STORE): every item's row with its roll calls, one deflated
// JSON record per item in item_id order, and where each lies (`item_record_refs`). Items and roll calls come from one
// sorted stream (DuckDB's sort spills; no list aggregate holds every item's roll calls at once), grouped here by item.
import { join } from 'node:path';

import type { DuckDBConnection } from '@duckdb/node-api';

import { encodeItemRecord } from '../../core/lake/codecs/item-records.ts';
import { ITEM_RECORD_REF_COLUMNS, ITEM_RECORD_REFS, ITEM_RECORD_STORE } from '../../core/lake/format.ts';
import { AppendFile, closeAll, NdjsonWriter } from './scratch.ts';
import { copyOut, ndjsonQuery } from './tables.ts';

/** Writes `<dir>/item_records.bin` and `<dir>/item_record_refs.parquet` from the loaded `items` and `roll_calls` tables. */
export async function writeItemRecords(db: DuckDBConnection, dir: string, scratch: string): Promise<void> {
  const store = await AppendFile.create(join(dir, ITEM_RECORD_STORE));
  const refs = await NdjsonWriter.create(join(scratch, `${ITEM_RECORD_REFS}.ndjson`));
  let id: string | null = null;
  let item = '';
  let rollCalls: string[] = [];
  const flush = async () => {
    if (id === null) return;
    const bytes = encodeItemRecord(item, rollCalls);
    await refs.write({ item_id: id, record_offset: store.length, record_bytes: bytes.length });
    await store.append(bytes);
  };
  try {
    const rows = await db.stream(`
      SELECT item_id, 0 AS k, 0 AS s, to_json(i)::VARCHAR AS j FROM items i
      UNION ALL SELECT item_id, 1, sequence, to_json(r)::VARCHAR FROM roll_calls r
      ORDER BY item_id, k, s`);
    for await (const chunk of rows.yieldRows()) {
      for (const [itemId, k, , json] of chunk) {
        if (Number(k) === 0) {
          await flush();
          id = String(itemId);
          item = String(json);
          rollCalls = [];
        } else if (String(itemId) === id) rollCalls.push(String(json)); // a roll call always has its item
      }
    }
    await flush();
  } finally {
    await closeAll([store, refs]);
  }
  await copyOut(db, ndjsonQuery(ITEM_RECORD_REF_COLUMNS, refs.path), join(dir, ITEM_RECORD_REFS), {
    orderBy: 'item_id',
  });
}
