// MANIFEST.tsv: `file, meeting_date, kind, pages, bytes, sha256, official_url, archive_url`, rows sorted by file.
// Rows already there are kept (with any extra columns); fetched rows replace the row for the same file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { writeFileAtomic } from './atomic.ts';

export const COLUMNS = [
  'file',
  'meeting_date',
  'kind',
  'pages',
  'bytes',
  'sha256',
  'official_url',
  'archive_url',
] as const;

export type ManifestRow = Record<string, string>;

export interface Manifest {
  columns: string[];
  rows: Map<string, ManifestRow>;
}

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, 'MANIFEST.tsv'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { columns: [...COLUMNS], rows: new Map() };
    throw err;
  }
  const [head, ...lines] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const cols = head.split('\t');
  const rows = new Map<string, ManifestRow>();
  for (const line of lines) {
    const row = Object.fromEntries(line.split('\t').map((v, i) => [cols[i], v]));
    if (row.file) rows.set(row.file, row);
  }
  return { columns: [...COLUMNS, ...cols.filter((c) => !(COLUMNS as readonly string[]).includes(c))], rows };
}

export function formatManifest(m: Manifest): string {
  const clean = (v: string | undefined) => (v ?? '').replace(/[\t\r\n]/g, ' ');
  const body = [...m.rows.values()]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((r) => m.columns.map((c) => clean(r[c])).join('\t'));
  return [m.columns.join('\t'), ...body].join('\n') + '\n';
}

export function writeManifest(dir: string, m: Manifest): Promise<void> {
  return writeFileAtomic(join(dir, 'MANIFEST.tsv'), formatManifest(m));
}
