// What a release is built from, as a key: the corpus manifest and the code that shapes a release (core/ and
// pipelines/). The test fixture and the benchmark rebuild their lakes when it changes and reuse them otherwise.
import { createHash, type Hash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { exportFiles } from './exports/shapes.ts';
import { popplerVersion } from './extract/pdftotext.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every source file under `dir` (.ts, .tsv, .json; not *.tmp.ts): its repository-relative path and its bytes, in order. */
function hashTree(hash: Hash, dir: string): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) hashTree(hash, path);
    else if (/\.(ts|tsv|json)$/.test(name) && !name.endsWith('.tmp.ts'))
      hash.update(relative(ROOT, path)).update(readFileSync(path));
  }
}

/** The code under these repository directories, as a key (12 hex digits). */
export function codeKey(dirs: string[]): string {
  const hash = createHash('sha256');
  for (const dir of dirs) hashTree(hash, join(ROOT, dir));
  return hash.digest('hex').slice(0, 12);
}

/**
 * The inputs of a release built from `corpus`: its MANIFEST.tsv, its Legistar exports, the code under core/ and
 * pipelines/ and the poppler version pdftotext reports (16 hex digits).
 */
export function buildInputKey(corpus: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(corpus, 'MANIFEST.tsv')));
  for (const name of exportFiles(corpus))
    hash.update(`legistar/${name}`).update(readFileSync(join(corpus, 'legistar', name)));
  for (const dir of ['core', 'pipelines']) hashTree(hash, join(ROOT, dir));
  hash.update(popplerVersion());
  return hash.digest('hex').slice(0, 16);
}
