// Unsigned LEB128 varints: seven bits a byte, low bits first, the high bit set on every byte but the last. The one
// varint codec of the lake: the postings store's positions (codecs/postings-store.ts) are written and read with it.

/** Bytes a varint takes at most for a value below 2^35 (every value the lake writes is below 2^32). */
export const VARINT_MAX_BYTES = 5;

/** Writes `n` (a non-negative integer) at `out[at]`; returns the next free byte. */
export function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  out[at++] = n;
  return at;
}

/** Where a read stands in its bytes: `readVarint` moves it past the varint it reads. */
export interface Cursor {
  at: number;
}

/** The varint at `bytes[cursor.at]`. */
export function readVarint(bytes: Uint8Array, cursor: Cursor): number {
  let value = 0;
  for (let scale = 1; ; scale *= 0x80) {
    const b = bytes[cursor.at++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return value;
  }
}
