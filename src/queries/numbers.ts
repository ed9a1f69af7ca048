// Numbers in a query resolved to the legislative files they name: a file number (`170240`) names its file, an
// enactment, resolution or motion number (`178-16`, `M16-152`) the file the lake records it for (printed in the minutes,
// or from Legistar). Page search ranks the pages where those files' items are printed first (namedPages), and so for
// the files whose items carry an address or a party the query names (entities.ts).
// File numbers are read from the query as typed, enactment numbers from its analysed terms. An enactment number the
// lake records for no file still names one where a page cites it with its file: `Motion No. M17-082 (File No. 170575)`.
import { pageId } from '../../core/lake/ids.ts';
import { type ParsedQuery, parseQuery, terms } from '../../core/text/analysis.ts';
import { type Pin, rank } from '../engine/rank.ts';
import { textsById } from '../engine/texts.ts';
import type { Release } from '../lake/release.ts';
import { namedByEntities } from './entities.ts';
import { Params } from './sql.ts';

/** An enactment number as analysed (core/text/analysis.ts): `178-16` (number-year), `m16-152` (motion: year-number). */
const ENACTMENT = /^\p{L}?\d{1,4}-\d{2,4}$/u;

/** The release's enactment numbers (as index terms) → their file numbers. */
export function enactmentsOf(release: Release): Promise<Map<string, string[]>> {
  return release.memo('enactment-numbers', async () => {
    const rows = await release.pool.rows(`
      SELECT file_number, list_concat(enactment_numbers, CASE WHEN legistar.enactment_number IS NULL THEN [] ELSE [legistar.enactment_number] END) AS numbers
      FROM legislative_files WHERE len(enactment_numbers) > 0 OR legistar.enactment_number IS NOT NULL`);
    const files = new Map<string, string[]>();
    for (const r of rows) {
      for (const printed of r.numbers as string[]) {
        for (const term of terms(printed).filter((t) => ENACTMENT.test(t))) {
          const list = files.get(term) ?? files.set(term, []).get(term)!;
          if (!list.includes(String(r.file_number))) list.push(String(r.file_number));
        }
      }
    }
    return files;
  });
}

/** Pages read for citations of one enactment number, at most. */
const CITING_PAGES = 20;

/**
 * The files that pages cite an enactment number for (`Ordinance No. 140-17 (File No. 170441)`), read from the pages
 * printing it, in order of their scores.
 */
async function citedFiles(release: Release, term: string): Promise<string[]> {
  const { hits } = await rank(release, {
    collection: 'page',
    query: parseQuery(term),
    from: 0,
    to: 9999,
    limit: CITING_PAGES,
  });
  const texts = await textsById(
    release,
    'page',
    hits.map((h) => h.id),
  );
  const [, letter, first, second] = /^(\p{L}?)(\d+)-(\d+)$/u.exec(term)!;
  const cited = new RegExp(
    `(?<![\\p{L}\\p{N}])${letter}0*${first}-${second}\\s*\\(\\s*File\\s+No\\.?\\s*(\\d{6})\\s*\\)`,
    'giu',
  );
  const files = hits.flatMap((h) => [...(texts.get(h.id) ?? '').matchAll(cited)].map((c) => c[1]));
  return [...new Set(files)];
}

/**
 * A Board file number (two digits of the year, four of the file: `YYNNNN`) as typed: six digits on their own, not an
 * amount (`$102480`; `$102,480` has no six-digit run, though analysis joins it) nor part of a longer number.
 */
const TYPED_FILE_NUMBER = /(?<![\d$]|\d[.,])\d{6}(?!\d|[.,]\d)/g;

/**
 * The file numbers a query names, in the order it names them: as typed, and for each enactment number the files the lake
 * records it for or, failing that, the files pages cite it with. A typed number may name no file of the lake.
 */
export async function fileNumbersIn(release: Release, text: string, query: ParsedQuery): Promise<string[]> {
  const files = [...text.matchAll(TYPED_FILE_NUMBER)].map((m) => m[0]);
  const numbers = query.terms.filter((t) => ENACTMENT.test(t));
  const enactments = numbers.length ? await enactmentsOf(release) : null;
  for (const t of numbers) files.push(...(enactments?.get(t) ?? (await citedFiles(release, t))));
  return [...new Set(files)];
}

/** The files of the lake a query names (fileNumbersIn, those the lake holds). */
export async function namedFiles(release: Release, text: string): Promise<string[]> {
  const files = await fileNumbersIn(release, text, parseQuery(text));
  if (files.length === 0) return [];
  const q = new Params();
  const rows = await release.pool.rows(
    `SELECT file_number FROM legislative_files WHERE file_number IN (${q.list(files)})`,
    q,
  );
  const held = new Set(rows.map((r) => String(r.file_number)));
  return files.filter((f) => held.has(f));
}

type Meeting = Record<string, unknown>;

const RECENT_MEETINGS = 1024;

/**
 * Each file's appearances (`legislative_files.meetings`; none for a file the release lacks). Reading them costs about
 * as much as the ranking itself (nested lists), so each release keeps the last RECENT_MEETINGS files asked for, least
 * recent first.
 */
async function meetingsOfFiles(release: Release, files: string[]): Promise<Map<string, Meeting[]>> {
  const recent = await release.memo('file-meetings', async () => new Map<string, Meeting[]>());
  const out = new Map<string, Meeting[]>();
  for (const f of files) {
    const hit = recent.get(f);
    if (hit) out.set(f, hit);
  }
  const missing = files.filter((f) => !out.has(f));
  if (missing.length) {
    const q = new Params();
    const rows = await release.pool.rows(
      `SELECT file_number, meetings FROM legislative_files WHERE file_number IN (${q.list(missing)})`,
      q,
    );
    const read = new Map(rows.map((r) => [String(r.file_number), r.meetings as Meeting[]]));
    for (const f of missing) out.set(f, read.get(f) ?? []);
  }
  for (const f of files) {
    recent.delete(f);
    recent.set(f, out.get(f)!);
  }
  for (const k of recent.keys()) {
    if (recent.size <= RECENT_MEETINGS) break;
    recent.delete(k);
  }
  return out;
}

/**
 * The pages a query names (see the head of this file) as the engine's pins (src/engine/rank.ts Pin): the pages where
 * the named files' items are printed, each item from its first page to its last, within the years (and kind, meeting)
 * asked; a page once, for its first file. The numbered files first, in order, each file's pages by meeting; then the
 * files of each named entity, their meetings by score. None for a query that cannot match (no term nor phrase, or an
 * empty year range).
 */
export async function namedPages(
  release: Release,
  text: string,
  query: ParsedQuery,
  p: { from: number; to: number; kind?: string; date?: string },
): Promise<Pin[]> {
  if (p.from > p.to || [...query.terms, ...query.phrases.flat()].length === 0) return [];
  const [numbered, entities] = await Promise.all([fileNumbersIn(release, text, query), namedByEntities(release, text)]);
  const named = new Map(numbered.map((file, order) => [file, { order, cluster: '' }]));
  for (const e of entities)
    if (!named.has(e.file)) named.set(e.file, { order: numbered.length + e.mention, cluster: `${e.file} ` });
  if (named.size === 0) return [];
  const meetingsOf = await meetingsOfFiles(release, [...named.keys()]);
  const out = new Map<string, Pin>();
  for (const [file, { order, cluster }] of named) {
    for (const m of meetingsOf.get(file)!) {
      const meeting = String(m.meeting_date);
      const year = Number(meeting.slice(0, 4));
      if (year < p.from || year > p.to || (p.kind && m.kind !== p.kind) || (p.date && meeting !== p.date)) continue;
      for (let page = Number(m.start_page); page <= Number(m.end_page); page++) {
        const id = pageId(String(m.document_id), page);
        if (!out.has(id)) out.set(id, { id, order, cluster: cluster + meeting });
      }
    }
  }
  return [...out.values()];
}
