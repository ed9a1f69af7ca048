// The item record store (format.ts ITEM_RECORD_STORE): each item's row and its roll calls in order, as one JSON record
// (`{"item": {…}, "roll_calls": [{…}]}`, lake column names) raw-deflated; where each lies is in `item_record_refs`.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** A row as the lake's JSON holds it (lake column names). */
export type LakeRow = Record<string, unknown>;

export interface ItemRecord {
  item: LakeRow;
  roll_calls: LakeRow[];
}

/** One item's entry from its row and its roll calls, each already JSON (as DuckDB's to_json writes them, in order). */
export function encodeItemRecord(itemJson: string, rollCallJsons: string[]): Buffer {
  return deflateRawSync(Buffer.from(`{"item":${itemJson},"roll_calls":[${rollCallJsons.join(',')}]}`, 'utf8'), {
    level: 6,
  });
}

export function decodeItemRecord(entry: Uint8Array): ItemRecord {
  return JSON.parse(inflateRawSync(entry).toString('utf8')) as ItemRecord;
}
