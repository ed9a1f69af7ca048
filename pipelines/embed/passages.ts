// What the embedding stage embeds: each legislative item's block (the item's own text, attributed to every page it is
// printed on) and short overlapping chunks of each page, with the standing text that repeats across pages and items
// removed (the agenda's instructions, "making findings of consistency with the General Plan…", "Question: Shall this
// Ordinance be PASSED…"). Whole padded pages drowned the signal: a page about one item shares most of its words with
// every other agenda page. A page's similarity to a query is its best passage's.
//
// Boilerplate is learnt from a sample of the corpus's units (page texts and item texts): every run of `NGRAM` words
// printed in at least `share` of the distinct units (and at least `minUnits` of them) is standing text, and the words
// such runs cover are dropped from a passage before it is embedded.
import { createHash } from 'node:crypto';

import { parsePageId } from '../../core/lake/ids.ts';
import { words } from '../../core/text/analysis.ts';

export const CHUNK = { words: 100, overlap: 20 } as const;
export const BOILERPLATE = { ngram: 6, share: 0.02, minUnits: 5, sampleUnits: 5000 } as const;

export interface PageInput {
  page_id: string;
  document_id?: string;
  year: number;
  kind: string;
  text: string;
  indexed: boolean;
}
export interface ItemInput {
  document_id: string;
  start_page: number;
  end_page: number;
  title: string | null;
  long_title: string | null;
  text: string;
}

/**
 * What an item is about: its short and long titles (the block's sponsors, earlier actions and standing question are
 * not); the block text when it has no title.
 */
export const itemText = (i: ItemInput): string => [i.title, i.long_title].filter(Boolean).join('. ') || i.text;
/** One document's pages (every one, indexed or not) and its items' blocks. */
export interface DocumentInput {
  pages: PageInput[];
  items: ItemInput[];
}

export interface Passage {
  page_id: string;
  passage: number;
  year: number;
  kind: string;
  text: string;
  hash: string;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
/** Each word's two 32-bit hashes (cyrb53's lanes over its characters, mixed), at 2i and 2i + 1. */
function wordHashes(ws: string[]): Uint32Array {
  const out = new Uint32Array(ws.length * 2);
  ws.forEach((w, i) => {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let j = 0; j < w.length; j++) {
      const c = w.charCodeAt(j);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    out[2 * i] = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    out[2 * i + 1] = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  });
  return out;
}

/**
 * The n-gram of words from `i` as a 53-bit number, combined from its words' hashes (wordHashes): the sample's counts
 * stay numbers, not strings, and each word is hashed once however many n-grams hold it.
 */
function gramKey(hashes: Uint32Array, i: number): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let k = 2 * i; k < 2 * (i + BOILERPLATE.ngram); k += 2) {
    h1 = Math.imul(h1 ^ hashes[k], 2654435761);
    h2 = Math.imul(h2 ^ hashes[k + 1], 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The standing text of a corpus: n-grams common across its distinct units. */
export class Boilerplate {
  private constructor(private readonly grams: Set<number>) {}

  static readonly none = new Boilerplate(new Set());

  /** Learns it from unit texts (duplicates count once). */
  static learn(texts: Iterable<string>): Boilerplate {
    const seen = new Set<string>();
    const df = new Map<number, number>();
    for (const text of texts) {
      const h = hashOf(text);
      if (seen.has(h)) continue;
      seen.add(h);
      const ws = words(text);
      const hashes = wordHashes(ws);
      const grams = new Set<number>();
      for (let i = 0; i + BOILERPLATE.ngram <= ws.length; i++) grams.add(gramKey(hashes, i));
      for (const g of grams) df.set(g, (df.get(g) ?? 0) + 1);
    }
    const min = Math.max(BOILERPLATE.minUnits, BOILERPLATE.share * seen.size);
    return new Boilerplate(new Set([...df].filter(([, n]) => n >= min).map(([g]) => g)));
  }

  get size(): number {
    return this.grams.size;
  }

  /** The text's words without those standing text covers, joined by spaces. */
  strip(text: string): string {
    const ws = words(text);
    const drop = new Uint8Array(ws.length);
    if (this.grams.size) {
      const hashes = wordHashes(ws);
      for (let i = 0; i + BOILERPLATE.ngram <= ws.length; i++)
        if (this.grams.has(gramKey(hashes, i))) drop.fill(1, i, i + BOILERPLATE.ngram);
    }
    return ws.filter((_, i) => !drop[i]).join(' ');
  }
}

/** The texts boilerplate is learnt from: an indexed page's text, an item's block. */
export function unitTexts(doc: DocumentInput): string[] {
  return [...doc.pages.filter((p) => p.indexed).map((p) => p.text), ...doc.items.map(itemText)];
}

/** Windows of `CHUNK.words` words advancing by words − overlap; one window up to words + overlap. */
export function chunks(text: string): string[] {
  const w = text.split(' ').filter(Boolean);
  if (w.length === 0) return [];
  if (w.length <= CHUNK.words + CHUNK.overlap) return [w.join(' ')];
  const out: string[] = [];
  for (let s = 0; ; s += CHUNK.words - CHUNK.overlap) {
    const e = Math.min(w.length, s + CHUNK.words);
    out.push(w.slice(s, e).join(' '));
    if (e === w.length) return out;
  }
}

/**
 * A document's passages, per indexed page in page order: the blocks of the items printed on it (in the document's
 * order), then its chunks; numbered from 1 per page. Empty passages (all standing text) are left out.
 */
export function passagesOf(doc: DocumentInput, boilerplate: Boilerplate): Passage[] {
  const itemTexts = doc.items.map((i) => ({ ...i, text: boilerplate.strip(itemText(i)) }));
  const out: Passage[] = [];
  for (const page of doc.pages) {
    if (!page.indexed) continue;
    const n = parsePageId(page.page_id)?.page ?? 0;
    const texts = [
      ...itemTexts.filter((i) => i.start_page <= n && n <= i.end_page && i.text).map((i) => i.text),
      ...chunks(boilerplate.strip(page.text)),
    ];
    texts.forEach((text, i) =>
      out.push({ page_id: page.page_id, passage: i + 1, year: page.year, kind: page.kind, text, hash: hashOf(text) }),
    );
  }
  return out;
}

/**
 * Documents from two streams in the same document order (the build's scratch files are written a document at a time):
 * every page, and the items, grouped by document. An item whose document never comes is an error, not a silent drop.
 */
export async function* byDocument(
  pages: AsyncIterable<PageInput>,
  items: AsyncIterable<ItemInput>,
): AsyncGenerator<DocumentInput> {
  const it = items[Symbol.asyncIterator]();
  let next = await it.next();
  let doc: DocumentInput | null = null;
  let id: string | null = null;
  const flush = async () => {
    const out = doc;
    while (!next.done && next.value.document_id === id) {
      out!.items.push(next.value);
      next = await it.next();
    }
    return out;
  };
  for await (const page of pages) {
    const pageDoc = parsePageId(page.page_id)?.documentId ?? page.page_id;
    if (pageDoc !== id) {
      if (doc) yield (await flush())!;
      doc = { pages: [], items: [] };
      id = pageDoc;
    }
    doc!.pages.push(page);
  }
  if (doc) yield (await flush())!;
  if (!next.done)
    throw new Error(
      `embedding: item of ${next.value.document_id} has no pages before it (pages and items are not in the same document order)`,
    );
}
