// A collection's postings store (`index/<collection>_postings_store.bin`, lake/README.md; its bytes decoded by
// core/lake/codecs/postings-store.ts), read per release: the term
// directory and the doc table once (Release.memo), a term's impacts and document numbers, or its positions, by offset
// on the open file when a query first needs them, then kept decoded in a cache bounded in bytes (least recently used go).
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';

import {
  decodeFooter,
  decodePositionEntries,
  decodeTermPostings,
  f64View,
  FOOTER_TAIL,
  footerLength,
  type TermPositions,
  type TermPostings,
  termPostingsBytes,
  termPostingsStarts,
  u16View,
  u32View,
} from '../../core/lake/codecs/postings-store.ts';
import { type Collection, INDEX_DIR, postingsStoreFile, type PostingsStoreFooter } from '../../core/lake/format.ts';
import { ByteLru } from '../lake/lru.ts';
import type { EngineRelease } from './release.ts';

/** Decoded lists kept per collection and release at most (bytes). */
const CACHE_BYTES = 32 << 20;

export type { TermPositions, TermPostings };

export class PostingsStore {
  private readonly cache = new ByteLru<TermPostings | TermPositions>(CACHE_BYTES);

  private constructor(
    private readonly file: FileHandle,
    private readonly footer: PostingsStoreFooter,
    private readonly termEnds: Uint32Array,
    private readonly termBytes: Buffer,
    private readonly termDf: Uint32Array,
    private readonly termPositions: Float64Array,
    /** Where each term's postings start in the file (impacts, then document numbers). */
    private readonly termPostings: Float64Array,
    private readonly docIdEnds: Uint32Array,
    private readonly docIdBytes: Buffer,
    readonly docYear: Uint16Array,
    readonly docKind: Uint8Array,
  ) {}

  static async open(path: string): Promise<PostingsStore> {
    const file = await open(path, 'r');
    try {
      const size = (await file.stat()).size;
      const length = footerLength(await readAt(file, size - FOOTER_TAIL, FOOTER_TAIL));
      const footer = decodeFooter(await readAt(file, size - FOOTER_TAIL - length, length));
      const read = (key: keyof PostingsStoreFooter['sections']) => readAt(file, ...footer.sections[key]);
      const [termEnds, termBytes, termDf, termPositions, docIdEnds, docIdBytes, docYear, docKind] = await Promise.all(
        (
          ['termEnds', 'termBytes', 'termDf', 'termPositions', 'docIdEnds', 'docIdBytes', 'docYear', 'docKind'] as const
        ).map(read),
      );
      const df = u32View(termDf);
      return new PostingsStore(
        file,
        footer,
        u32View(termEnds),
        termBytes,
        df,
        f64View(termPositions),
        termPostingsStarts(df, footer.sections.postings[0]),
        u32View(docIdEnds),
        docIdBytes,
        u16View(docYear),
        docKind,
      );
    } catch (e) {
      await file.close();
      throw e;
    }
  }

  close(): Promise<void> {
    return this.file.close();
  }

  get docs(): number {
    return this.footer.docs;
  }

  /** The index of a document kind, or -1 when no document has it. */
  kind(name: string): number {
    return this.footer.kinds.indexOf(name);
  }

  docId(doc: number): string {
    return this.docIdBytes.toString('utf8', doc === 0 ? 0 : this.docIdEnds[doc - 1], this.docIdEnds[doc]);
  }

  /** The document number of an id, or -1. */
  docNo(id: string): number {
    return find(this.docIdBytes, this.docIdEnds, id);
  }

  /** Whether the document's id begins with these bytes. */
  docIdStartsWith(doc: number, prefix: Buffer): boolean {
    const start = doc === 0 ? 0 : this.docIdEnds[doc - 1];
    return (
      this.docIdEnds[doc] - start >= prefix.length &&
      this.docIdBytes.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0
    );
  }

  /** The term's index in the directory (terms in byte order), or -1. */
  term(term: string): number {
    return find(this.termBytes, this.termEnds, term);
  }

  /** A term's postings (empty for a term the collection lacks). */
  postings(term: string): Promise<TermPostings> {
    return this.cached(
      `p ${term}`,
      async () => {
        const t = this.term(term);
        const df = t < 0 ? 0 : this.termDf[t];
        const buf = df === 0 ? Buffer.alloc(0) : await readAt(this.file, this.termPostings[t], termPostingsBytes(df));
        return decodeTermPostings(buf, df);
      },
      (v) => v.impacts.byteLength + v.docs.byteLength,
    );
  }

  /** A term's positions, entry by entry in the order of its postings (none for a term the collection lacks). */
  positions(term: string): Promise<TermPositions> {
    return this.cached(
      `q ${term}`,
      async () => {
        const t = this.term(term);
        if (t < 0) return { bytes: Buffer.alloc(0), from: new Uint32Array(0), to: new Uint32Array(0) };
        const start = this.termPositions[t];
        const bytes = await readAt(
          this.file,
          this.footer.sections.positions[0] + start,
          this.termPositions[t + 1] - start,
        );
        return decodePositionEntries(bytes, this.termDf[t]);
      },
      (v) => v.bytes.length + 8 * v.from.length,
    );
  }

  private async cached<T extends TermPostings | TermPositions>(
    key: string,
    load: () => Promise<T>,
    size: (v: T) => number,
  ): Promise<T> {
    const hit = this.cache.get(key);
    if (hit) return hit as T;
    const value = await load();
    if (this.cache.has(key)) return this.cache.peek(key) as T; // another request loaded it meanwhile
    this.cache.set(key, value, size(value));
    return value;
  }
}

/** The release's postings store of a collection, opened once per release. */
export function postingsStore(release: EngineRelease, collection: Collection): Promise<PostingsStore> {
  return release.memo(
    `postings-store:${collection}`,
    () => PostingsStore.open(join(release.dir, INDEX_DIR, postingsStoreFile(collection))),
    (s) => void s.close(),
  );
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  // A fresh buffer of its own (aligned, not from Node's shared pool), so typed arrays can view it.
  const buf = Buffer.from(new ArrayBuffer(length));
  for (let done = 0; done < length;) {
    const { bytesRead } = await file.read(buf, done, length - done, position + done);
    if (bytesRead === 0) throw new Error(`postings store: ends before byte ${position + length}`);
    done += bytesRead;
  }
  return buf;
}

/** The index of `value` among strings stored in byte order (UTF-8 concatenated, each ending at `ends[i]`), or -1. */
function find(bytes: Buffer, ends: Uint32Array, value: string): number {
  const key = Buffer.from(value, 'utf8');
  let lo = 0;
  let hi = ends.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = bytes.compare(key, 0, key.length, mid === 0 ? 0 : ends[mid - 1], ends[mid]);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
