// The corpus folder → the list of source documents, each checked against its sha256.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';

import { isIsoDate } from '../core/dates.ts';
import type { DocumentKind, ExcludedInput, ExclusionKind } from '../core/lake/format.ts';
import { documentId } from '../core/lake/ids.ts';
import { officialUrl, SYNTHETIC_BASE } from '../core/official-urls.ts';

export interface SourceDocument {
  /** Stable id: meeting date and kind, e.g. `2016-11-01-minutes`. */
  id: string;
  meetingDate: string;
  kind: DocumentKind;
  path: string;
  /** The path inside the corpus folder, as MANIFEST.tsv lists it (`pdfs/bag110116_minutes.pdf`). */
  file: string;
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
  return {
    meetingDate: `20${m[3]}-${m[1]}-${m[2]}`,
    kind: m[4].toLowerCase() as DocumentKind,
    synthetic: Boolean(m[5]),
  };
}

function readTsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const cols = head.split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v])));
}

/** The documents a build reads, and those it leaves out with the reason (each a problem row; the rest publish). */
export interface Corpus {
  documents: SourceDocument[];
  excluded: ExcludedInput[];
  /** Problems of documents kept: a manifest URL that is not the Board's (not published; the default URL stands). */
  problems: { document_id: string; page: 0; kind: 'bad-url'; detail: string }[];
}

const PDF_MAGIC = Buffer.from('%PDF-');

/** Why the bytes cannot be a PDF, or null: empty, or no `%PDF-` header within the first KB (where readers accept it). */
function notAPdf(buf: Buffer): { kind: ExclusionKind; detail: string } | null {
  if (buf.length === 0) return { kind: 'empty-document', detail: 'the file is empty (0 bytes)' };
  const at = buf.subarray(0, 1024).indexOf(PDF_MAGIC);
  if (at < 0)
    return {
      kind: 'not-a-pdf',
      detail: `no %PDF- header in the first 1024 bytes (starts ${JSON.stringify(buf.subarray(0, 16).toString('latin1'))})`,
    };
  return null;
}

/** Reads `MANIFEST.tsv` when present, otherwise every `bagMMDDYY_{agenda|minutes}.pdf` under `pdfs/` (or the folder itself). */
export async function readCorpus(dir: string): Promise<Corpus> {
  if (!existsSync(dir))
    throw new SourceError(
      `CORPUS: no corpus folder at ${dir}; set CORPUS=dir to a folder holding MANIFEST.tsv and pdfs/`,
    );
  const manifest = join(dir, 'MANIFEST.tsv');
  const docs: SourceDocument[] = [];
  const excluded: ExcludedInput[] = [];
  const exclude = (file: string, documentId: string | null, kind: ExclusionKind, detail: string) =>
    excluded.push({ file, documentId, kind, detail: `${file}: ${detail}` });
  const problems: Corpus['problems'] = [];
  /** A manifest URL when it is the Board's (a synthetic document's may be under SYNTHETIC_BASE); otherwise a problem, and null. */
  const urlOf = (
    file: string,
    id: string,
    column: string,
    text: string | undefined,
    synthetic: boolean,
  ): string | null => {
    if (!text) return null;
    const url = synthetic && text.startsWith(SYNTHETIC_BASE) && !text.includes('..') ? text : officialUrl(text);
    if (!url)
      problems.push({
        document_id: id,
        page: 0,
        kind: 'bad-url',
        detail: `${file}: ${column} ${JSON.stringify(text.slice(0, 200))} is not an http(s) URL on the Board's hosts; not published`,
      });
    return url;
  };
  /** The document, unless its bytes are not a PDF's. */
  const add = async (doc: Omit<SourceDocument, 'sha256' | 'bytes'>, expectedSha: string | null) => {
    const buf = await readFile(doc.path);
    const sha256 = createHash('sha256').update(buf).digest('hex');
    const bad = notAPdf(buf);
    if (bad) return exclude(doc.file, doc.id, bad.kind, bad.detail);
    if (expectedSha && expectedSha !== sha256)
      return exclude(
        doc.file,
        doc.id,
        'checksum-mismatch',
        `sha256 ${sha256} does not match MANIFEST.tsv (${expectedSha})`,
      );
    docs.push({ ...doc, sha256, bytes: buf.length });
  };
  if (existsSync(manifest)) {
    for (const row of readTsv(await readFile(manifest, 'utf8'))) {
      const file = row.file ?? '';
      const path = join(dir, file);
      const kind = row.kind as DocumentKind;
      const dated = isIsoDate(row.meeting_date ?? '');
      const id = dated && (kind === 'agenda' || kind === 'minutes') ? documentId(row.meeting_date, kind) : null;
      if (!file) exclude('MANIFEST.tsv', id, 'bad-manifest-row', 'a row without a file');
      else if (kind !== 'agenda' && kind !== 'minutes')
        exclude(file, null, 'bad-manifest-row', `unknown kind '${row.kind}' in MANIFEST.tsv`);
      else if (!id) exclude(file, null, 'bad-manifest-row', `bad meeting_date '${row.meeting_date}' in MANIFEST.tsv`);
      else if (!existsSync(path)) exclude(file, id, 'missing-document', 'listed in MANIFEST.tsv but missing');
      else {
        const synthetic = row.synthetic === 'true' || /synthetic/i.test(file);
        await add(
          {
            id,
            meetingDate: row.meeting_date,
            kind,
            path,
            file,
            fileName: basename(file),
            officialUrl:
              urlOf(file, id, 'official_url', row.official_url, synthetic) ??
              (synthetic ? SYNTHETIC_BASE : OFFICIAL_BASE) + basename(file),
            archiveUrl: urlOf(file, id, 'archive_url', row.archive_url, synthetic),
            declaredPages: row.pages ? Number(row.pages) : null,
            synthetic,
          },
          row.sha256 || null,
        );
      }
    }
  } else {
    const pdfDir = existsSync(join(dir, 'pdfs')) ? join(dir, 'pdfs') : dir;
    for (const name of (await readdir(pdfDir)).sort()) {
      const parsed = parseFileName(name);
      if (!parsed) continue;
      const path = join(pdfDir, name);
      await add(
        {
          id: documentId(parsed.meetingDate, parsed.kind),
          ...parsed,
          path,
          file: relative(dir, path),
          fileName: name,
          officialUrl: OFFICIAL_BASE + name,
          archiveUrl: null,
          declaredPages: null,
        },
        null,
      );
    }
  }
  // Two documents for one meeting and kind: the first listed is kept, the later one left out.
  const seen = new Set<string>();
  const documents = docs.filter((d) => {
    if (!seen.has(d.id)) return seen.add(d.id);
    exclude(d.file, d.id, 'duplicate-document', `a second ${d.kind} for ${d.meetingDate}`);
    return false;
  });
  if (documents.length === 0) {
    const why = excluded.length
      ? `; left out: ${excluded.map((e) => e.detail).join('; ')}`
      : ' (expected MANIFEST.tsv or pdfs/bagMMDDYY_{agenda|minutes}.pdf)';
    throw new SourceError(`CORPUS: no readable documents in ${dir}${why}`);
  }
  return { documents: documents.sort((a, b) => a.id.localeCompare(b.id)), excluded, problems };
}
