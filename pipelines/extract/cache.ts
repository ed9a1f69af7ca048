// Extracted pages cached by PDF sha256 and extractor version: rebuilding a release after a small corpus change
// re-reads only the PDFs that changed.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

import { EXTRACTOR, extractPages, type RawPage } from './pdf.ts';

export async function cachedPages(path: string, sha256: string, cacheDir: string | null): Promise<RawPage[]> {
  if (!cacheDir) return extractPages(path);
  const file = join(cacheDir, `${sha256}-${EXTRACTOR.replace(/[^\w.-]/g, '_')}.json`);
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as RawPage[];
  const pages = await extractPages(path);
  await mkdir(cacheDir, { recursive: true });
  const tmp = `${file}.${process.pid}-${threadId}.tmp`;
  await writeFile(tmp, JSON.stringify(pages));
  await rename(tmp, file);
  return pages;
}
