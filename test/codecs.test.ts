// The lake's binary codecs (core/lake/codecs/): what each store's encoder writes, its decoder reads back as it was,
// edge cases included. The bytes the pipeline writes stay reproducible (release.test.ts, archive.test.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import t from 'tap';

import { decodeItemRecord, encodeItemRecord } from '../core/lake/codecs/item-records.ts';
import {
  decodePositions,
  decodePostingsStore,
  encodePostingsStore,
  type PostingsStoreData,
} from '../core/lake/codecs/postings-store.ts';
import { decodeText, encodeText } from '../core/lake/codecs/text-store.ts';
import { readVarint, VARINT_MAX_BYTES, writeVarint } from '../core/lake/codecs/varint.ts';
import { COLLECTIONS, INDEX_DIR, postingsStoreFile } from '../core/lake/format.ts';
import { PostingsStore } from '../src/engine/postings.ts';
import { FIXTURE_LAKE, fixtureRelease } from './fixture.ts';

t.test('varints: every byte length, the largest value of each, and 2^32 - 1', async (t) => {
  const values = [0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 0x1fffff, 0x200000, 0xfffffff, 0x10000000, 2 ** 32 - 1, 2 ** 34];
  const out = new Uint8Array(VARINT_MAX_BYTES * values.length);
  let at = 0;
  const lengths = values.map((v) => -at + (at = writeVarint(out, at, v)));
  t.same(lengths, [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5], 'seven bits a byte');
  const cursor = { at: 0 };
  t.same(
    values.map(() => readVarint(out, cursor)),
    values,
  );
  t.equal(cursor.at, at, 'the reader ends where the writer did');
  t.same([...out.subarray(0, 3)], [0, 1, 0x7f]);
  t.same([...out.subarray(3, 5)], [0x80, 0x01], 'low bits first, the high bit on every byte but the last');
});

t.test('the postings store', async (t) => {
  const store: PostingsStoreData = {
    docs: [
      { id: '2012-01-10-minutes-p001', year: 2012, kind: 'minutes' },
      { id: '2024-05-07-agenda-p012', year: 2024, kind: 'agenda' },
      { id: '2026-12-31-minutes-p999', year: 2026, kind: 'minutes' },
    ],
    terms: [
      {
        term: 'board',
        postings: [
          { doc: 0, impact: 0.25, positions: [0, 7, 130] },
          { doc: 2, impact: 1.5e-9, positions: [3] },
        ],
      },
      { term: 'café', postings: [{ doc: 1, impact: 12.75, positions: [2 ** 20, 2 ** 31 - 1] }] },
      {
        term: 'of',
        postings: [
          { doc: 0, impact: 0, positions: [] },
          { doc: 1, impact: 0, positions: [1] },
          { doc: 2, impact: 0, positions: [0, 1, 2] },
        ],
      },
      { term: '東京', postings: [{ doc: 2, impact: Number.MAX_VALUE, positions: [5] }] },
    ],
  };
  t.same(
    decodePostingsStore(encodePostingsStore(store)),
    store,
    'terms, impacts, positions and documents (unicode, large and empty)',
  );
  t.same(
    decodePostingsStore(encodePostingsStore({ docs: [], terms: [] })),
    { docs: [], terms: [] },
    'an empty collection',
  );
  t.same(encodePostingsStore(store), encodePostingsStore(structuredClone(store)), 'the same store, the same bytes');
  t.throws(() => decodePostingsStore(Buffer.from('not a store at all')), /not a postings store/);
});

t.test('the text store', async (t) => {
  for (const text of [
    '',
    'BOARD OF SUPERVISORS\nCity Hall, Room 250',
    'Café — 東京 — 🏛️ ½ “quoted”',
    'x'.repeat(1 << 20),
  ]) {
    const entry = encodeText(text);
    t.equal(decodeText(entry), text, `${text.length} characters`);
    t.equal(entry.byteOffset, 0, 'an entry is exactly its bytes');
    t.equal(entry.buffer.byteLength, entry.byteLength);
  }
});

t.test('the item record store', async (t) => {
  const item = {
    item_id: '2024-05-07-minutes-240101-01',
    title: 'Résumé: “Housing” 東京',
    amounts: [{ raw: '$1,000,000', value: 1e6 }],
    file_number: null,
  };
  const rollCalls = [
    { roll_call_id: 'a', sequence: 1, ayes: 11 },
    { roll_call_id: 'b', sequence: 2, ayes: 0 },
  ];
  t.same(
    decodeItemRecord(
      encodeItemRecord(
        JSON.stringify(item),
        rollCalls.map((r) => JSON.stringify(r)),
      ),
    ),
    { item, roll_calls: rollCalls },
  );
  t.same(decodeItemRecord(encodeItemRecord('{}', [])), { item: {}, roll_calls: [] }, 'an item without roll calls');
});

t.test("the fixture release's postings stores: the codec re-encodes the pipeline's bytes exactly", async (t) => {
  const dir = join(FIXTURE_LAKE, 'releases', await fixtureRelease(), INDEX_DIR);
  for (const collection of COLLECTIONS) {
    const bytes = await readFile(join(dir, postingsStoreFile(collection)));
    const data = decodePostingsStore(bytes);
    t.ok(data.terms.length > 50, `${collection}: ${data.terms.length} terms`);
    t.ok(
      encodePostingsStore(data).equals(bytes),
      `${collection}: the streaming writer and the codec agree byte for byte`,
    );
    // The server's reader (src/engine/postings.ts) sees what the codec decodes: every 50th term, whole.
    const store = await PostingsStore.open(join(dir, postingsStoreFile(collection)));
    const out = new Int32Array(1 << 16);
    for (const { term, postings } of data.terms.filter((_, i) => i % 50 === 0)) {
      const read = await store.postings(term);
      const positions = await store.positions(term);
      const seen = postings.map((p, i) => ({
        doc: read.docs[i],
        impact: read.impacts[i],
        positions: [...out.subarray(0, decodePositions(positions, i, out))],
      }));
      t.same(seen, postings, `${collection}: ${term}`);
    }
    await store.close();
  }
});
