// A collection's text store (format.ts textStoreFile): each document's text as UTF-8, raw-deflated, one entry after
// another; where each lies is in the collection's docs table (`text_offset`, `text_bytes`).
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** One document's entry: exactly its bytes (a copy, not a view of zlib's larger buffer, which a thread copy would carry). */
export function encodeText(text: string): Uint8Array {
  return new Uint8Array(deflateRawSync(Buffer.from(text, 'utf8'), { level: 6 }));
}

export function decodeText(entry: Uint8Array): string {
  return inflateRawSync(entry).toString('utf8');
}
