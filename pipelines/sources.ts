// The corpus folder → the list of source documents, each checked against its sha256.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DocumentKind } from '../core/lake/format.ts';
import { documentId } from '../core/lake/ids.ts';

export interface SourceDocument {
  /** Stable id: meeting date and kind, e.g. `2016-11-01-minutes`. */
  id: string;
  meetingDate: string;
  kind: DocumentKind;
  path: string;
  fileName: string;
  officialUrl: string;
  archiveUrl: string | null;
  sha256: string;
  bytes: number;
  /** Page count the manifest declares, when it declares one. */
  declaredPages: number | null;
  synthetic: boolean;
}

export class SourceError extends Error {
  override name = 'SourceError';
}

export const OFFICIAL_BASE = 'https://sfbos.org/sites/default/files/';

const FILE_NAME = /^bag(\d{2})(\d{2})(\d{2})_(agenda|minutes)(_synthetic)?\.pdf$/i;

/** `bag110116_minutes.pdf` → 2016-11-01, minutes. Two-digit years are 20YY (the archive starts in 2012). */
export function parseFileName(name: string): { meetingDate: string; kind: DocumentKind; synthetic: boolean } | null {
  const m = FILE_NAME.exec(name);
  if (!m) return null;
  return { meetingDate: `20${m[3]}-${m[1]}-${m[2]}`, kind: m[4].toLowerCase() as DocumentKind, synthetic: Boolean(m[5]) };
}

export async function sha256File(path: string): Promise<{ sha256: string; bytes: number }> {
  const buf = await readFile(path);
  return { sha256: createHash('sha256').update(buf).digest('hex'), bytes: buf.length };
}

function readTsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const cols = head.split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v])));
}

/** The corpus's Legistar exports (`legistar/legislation_*.csv`, `legistar/history_*.csv`), sorted; none without the folder. */
export function legistarExports(dir: string): { legislation: string[]; history: string[] } {
  const folder = join(dir, 'legistar');
  const names = existsSync(folder) ? readdirSync(folder).sort() : [];
  const of = (prefix: string) => names.filter((n) => n.startsWith(`${prefix}_`) && n.endsWith('.csv')).map((n) => join(folder, n));
  return { legislation: of('legislation'), history: of('history') };
}

/** Reads `MANIFEST.tsv` when present, otherwise every `bagMMDDYY_{agenda|minutes}.pdf` under `pdfs/` (or the folder itself). */
export async function readCorpus(dir: string): Promise<SourceDocument[]> {
  if (!existsSync(dir)) throw new SourceError(`CORPUS: no corpus folder at ${dir}; set CORPUS=dir to a folder holding MANIFEST.tsv and pdfs/`);
  const manifest = join(dir, 'MANIFEST.tsv');
  const docs: SourceDocument[] = [];
  if (existsSync(manifest)) {
    for (const row of readTsv(await readFile(manifest, 'utf8'))) {
      const path = join(dir, row.file);
      if (!existsSync(path)) throw new SourceError(`${row.file}: listed in MANIFEST.tsv but missing`);
      const { sha256, bytes } = await sha256File(path);
      if (row.sha256 && row.sha256 !== sha256) throw new SourceError(`${row.file}: sha256 ${sha256} does not match MANIFEST.tsv (${row.sha256})`);
      const kind = row.kind as DocumentKind;
      if (kind !== 'agenda' && kind !== 'minutes') throw new SourceError(`${row.file}: unknown kind '${row.kind}' in MANIFEST.tsv`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(row.meeting_date)) throw new SourceError(`${row.file}: bad meeting_date '${row.meeting_date}'`);
      docs.push({
        id: documentId(row.meeting_date, kind),
        meetingDate: row.meeting_date,
        kind,
        path,
        fileName: basename(row.file),
        officialUrl: row.official_url || OFFICIAL_BASE + basename(row.file),
        archiveUrl: row.archive_url || null,
        sha256,
        bytes,
        declaredPages: row.pages ? Number(row.pages) : null,
        synthetic: row.synthetic === 'true' || /synthetic/i.test(row.file),
      });
    }
  } else {
    const pdfDir = existsSync(join(dir, 'pdfs')) ? join(dir, 'pdfs') : dir;
    for (const name of (await readdir(pdfDir)).sort()) {
      const parsed = parseFileName(name);
      if (!parsed) continue;
      const path = join(pdfDir, name);
      const { sha256, bytes } = await sha256File(path);
      docs.push({
        id: documentId(parsed.meetingDate, parsed.kind),
        ...parsed,
        path,
        fileName: name,
        officialUrl: OFFICIAL_BASE + name,
        archiveUrl: null,
        sha256,
        bytes,
        declaredPages: null,
      });
    }
  }
  if (docs.length === 0) throw new SourceError(`CORPUS: no documents found in ${dir} (expected MANIFEST.tsv or pdfs/bagMMDDYY_{agenda|minutes}.pdf)`);
  const seen = new Set<string>();
  for (const d of docs) {
    if (seen.has(d.id)) throw new SourceError(`${d.fileName}: a second ${d.kind} for ${d.meetingDate}`);
    seen.add(d.id);
  }
  return docs.sort((a, b) => a.id.localeCompare(b.id));
}
