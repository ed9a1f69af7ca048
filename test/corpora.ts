// Small corpora for release-to-release tests: a few PDFs from ../shared/corpus copied into a temp folder with a
// MANIFEST.tsv, optionally with one document's bytes replaced by another PDF's (a "modified" document).
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRelease, type BuildResult } from '../pipelines/build.ts';
import { CORPUS, ROOT } from './fixture.ts';

/** file name in the corpus → the corpus file whose bytes it gets (itself unless replaced). */
export async function makeCorpus(files: Record<string, string> | string[]): Promise<string> {
  const map = Array.isArray(files) ? Object.fromEntries(files.map((f) => [f, f])) : files;
  const dir = await mkdtemp(join(tmpdir(), 'corpus-'));
  await mkdir(join(dir, 'pdfs'));
  const [head, ...rows] = (await readFile(join(CORPUS, 'MANIFEST.tsv'), 'utf8')).split('\n').filter(Boolean);
  const cols = head.split('\t');
  const out = [head];
  for (const [name, source] of Object.entries(map)) {
    const row = rows.find((r) => r.startsWith(`pdfs/${name}\t`));
    if (!row) throw new Error(`${name} is not in the corpus`);
    await copyFile(join(CORPUS, 'pdfs', source), join(dir, 'pdfs', name));
    const values = row.split('\t');
    if (source !== name) {
      // Another PDF's bytes under this name: the declared size, pages and sha256 no longer apply.
      for (const c of ['pages', 'bytes', 'sha256']) values[cols.indexOf(c)] = '';
    }
    out.push(values.join('\t'));
  }
  await writeFile(join(dir, 'MANIFEST.tsv'), out.join('\n') + '\n');
  return dir;
}

export const newLake = () => mkdtemp(join(tmpdir(), 'lake-'));

export function build(corpus: string, lake: string, createdAt?: string): Promise<BuildResult> {
  return buildRelease({ corpus, lake, cacheDir: join(ROOT, '.cache', 'extract'), keep: 5, quiet: true, createdAt });
}
