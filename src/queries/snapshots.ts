// Bulk snapshots: each entity's records straight from its lake table, in key order, paged by position (a release never
// changes, so position paging is stable within it). JSON pages are read as rows; NDJSON pages are cut from read-ahead
// windows of records rendered by DuckDB (`to_json`), not per row in JavaScript (see WINDOW).
//
// Paging by position without `OFFSET` over the whole table: per release and entity, a sparse ordering (the key at every
// BLOCK-th position, built once on first use) turns a cursor into a key range [key at block start, key at the block after
// the page), so each page reads only the row groups holding that range (the files are written sorted by key, so Parquet
// min/max statistics prune the rest) and skips at most BLOCK - 1 rows. `ORDER BY key LIMIT ? OFFSET ?` re-read and
// re-sorted the whole table per page instead (page time grew with the cursor).
import type { DuckDBBlobValue } from '@duckdb/node-api';

import { type EntityName, MANIFEST_FILE, snapshotEntity } from '../../core/lake/format.ts';
import { ByteLru } from '../lake/lru.ts';
import type { Row } from '../lake/pool.ts';
import type { Release } from '../lake/release.ts';
import { schema } from '../schemas.ts';
import { CHANGES_SCHEMA_VERSION } from './changes.ts';
import type { Links } from './links.ts';
import { documentFacts } from './pages.ts';
import { Params } from './sql.ts';

/** Version of the snapshot record shapes (schemas/snapshot/*.json); bumped only on an incompatible change. */
export const SNAPSHOT_SCHEMA_VERSION = '1.0.0';

/** A snapshot entity of the lake (name, table, key: core/lake/format.ts) as the API serves it. */
interface Entity {
  name: EntityName;
  table: string;
  key: string;
  description: string;
  /** SELECT list over the table aliased `t` (casts keep every number a JSON number). */
  columns: (release: Release) => string;
  /** Extra FROM clause (joins). */
  joins?: (release: Release) => string;
}

// The release that first carried a document: its latest insert in the change log ('' stands for this release, whose own
// changes have a NULL release).
const FIRST_RELEASE = `LEFT JOIN (SELECT record_id, arg_max(coalesce(release, ''), sequence) AS first_release FROM changes
  WHERE entity = 'documents' AND operation = 'insert' GROUP BY record_id) f ON f.record_id = t.document_id`;

const hex = (id: string) => {
  if (!/^[0-9a-f]+$/.test(id)) throw new Error(`bad release id ${id}`);
  return id;
};

export const ENTITIES: Entity[] = [
  {
    ...snapshotEntity('documents'),
    description:
      'One record per PDF: meeting date, kind, pages, official URL, sha256, extractor, and the release that first carried it',
    columns: (
      r,
    ) => `t.document_id, t.meeting_date, t.year::INTEGER AS year, t.kind, t.title, t.file_name, t.official_url, t.archive_url, t.sha256,
      t.bytes::INTEGER AS bytes, t.pages::INTEGER AS pages, t.synthetic, t.extractor, ${documentFacts(r)},
      coalesce(nullif(f.first_release, ''), '${hex(r.id)}') AS first_release`,
    joins: () => FIRST_RELEASE,
  },
  {
    ...snapshotEntity('supervisors'),
    description:
      'Reconciled supervisor identities: full name, surname, district, term, and every name variant recorded',
    columns: () =>
      `t.supervisor_id, t.surname, t.full_name, t.district::INTEGER AS district, t.term_from, t.term_to, t.name_variants`,
  },
  {
    ...snapshotEntity('recorded-positions'),
    description:
      'One record per supervisor per roll call: the recorded name, the reconciled supervisor, the position and the action voted on',
    columns:
      () => `t.position_id, t.roll_call_id, t.item_id, t.document_id, t.meeting_date, t.year::INTEGER AS year, t.file_number,
      t.page::INTEGER AS page, t.supervisor_id, t.name_as_recorded, t.position, t.action, t.action_type, t.is_final, t.rescinded_by`,
  },
  {
    ...snapshotEntity('legislative-files'),
    description:
      'One record per file number: matter, titles, sponsors, every meeting it appeared at, its actions in order with roll-call tallies, the final action if any (from agendas and minutes); what Legistar says of it (legistar)',
    columns:
      () => `t.file_number, t.matter, t.item_type, t.titles, t.long_title, t.sponsors, t.enactment_numbers, t.first_meeting, t.last_meeting,
      t.meetings, t.actions, t.final_action, t.legistar`,
  },
];

export const entity = (name: string): Entity | undefined => ENTITIES.find((e) => e.name === name);

export const recordSchemaId = (name: EntityName) => `snapshot/${name}.json`;

/** The entity's records (`where` over the table aliased `t`) in no particular order. */
const unorderedSql = (e: Entity, release: Release, where: string) =>
  `SELECT ${e.columns(release)} FROM "${e.table}" t ${e.joins?.(release) ?? ''} ${where}`;

const selectSql = (e: Entity, release: Release, where: string) =>
  `${unorderedSql(e, release, where)} ORDER BY t."${e.key}"`;

/** Positions per block of the sparse ordering: a page skips fewer than this many rows of its first block. */
export const BLOCK = 1024;

/** The key at every BLOCK-th position in key order, or null when the keys are not unique and non-null (then OFFSET). */
type Ordering = string[] | null;

/** The entity's ordering, built once per release on first use. */
const orderingOf = (release: Release, e: Entity): Promise<Ordering> =>
  release.memo(`ordering:${e.name}`, () => buildOrdering(release, e));

async function buildOrdering(release: Release, e: Entity): Promise<Ordering> {
  const key = `t."${e.key}"`;
  const [check] = await release.pool.rows(
    `SELECT count(*)::BIGINT::VARCHAR AS n, count(DISTINCT ${key})::BIGINT::VARCHAR AS d FROM "${e.table}" t`,
  );
  if (check.n !== check.d) return null; // a NULL or repeated key: ranges could not split it, so page by OFFSET
  const rows = await release.pool
    .rows(`SELECT k FROM (SELECT ${key}::VARCHAR AS k, row_number() OVER (ORDER BY ${key}) - 1 AS rn FROM "${e.table}" t)
    WHERE rn % ${BLOCK} = 0 ORDER BY k`);
  return rows.map((r) => r.k as string);
}

/** The page's SELECT: a key range from the ordering when there is one, else LIMIT/OFFSET over the whole table. */
async function pageSql(release: Release, e: Entity, p: PageParams, q: Params): Promise<string> {
  const ordering = await orderingOf(release, e);
  if (!ordering) return `${selectSql(e, release, '')} LIMIT ${q.add(p.limit)} OFFSET ${q.add(p.cursor)}`;
  const first = Math.floor(p.cursor / BLOCK);
  const after = Math.floor((p.cursor + p.limit - 1) / BLOCK) + 1;
  const key = `t."${e.key}"`;
  const where =
    after < ordering.length
      ? `WHERE ${key} >= ${q.add(ordering[first])} AND ${key} < ${q.add(ordering[after])}`
      : `WHERE ${key} >= ${q.add(ordering[first])}`;
  return `${selectSql(e, release, where)} LIMIT ${q.add(p.limit)} OFFSET ${q.add(p.cursor - first * BLOCK)}`;
}

const pastEnd = (e: Entity, release: Release, p: PageParams) => p.cursor >= total(e, release);

// yyjson (DuckDB's to_json) writes \u001B where JSON.stringify writes \u001b; everything else (key order, null, dates
// as YYYY-MM-DD, integers, booleans, raw UTF-8, the short escapes) is the same, so the NDJSON stays byte-identical.
const ESCAPES = /\\(?:\\|u00[01][0-9A-F])/g;
export const lowerEscapes = (s: string) => (s.includes('\\u00') ? s.replace(ESCAPES, (m) => m.toLowerCase()) : s);

/** DuckDB's NDJSON bytes (`encode` of `to_json` lines) as JSON.stringify would write them, without a copy if it can. */
export function ndjsonBytes(blob: DuckDBBlobValue): Buffer {
  const bytes = Buffer.from(blob.bytes.buffer, blob.bytes.byteOffset, blob.bytes.length);
  return bytes.includes('\\u00') ? Buffer.from(lowerEscapes(bytes.toString('utf8'))) : bytes;
}

export const total = (e: Entity, release: Release) => release.manifest.tables[e.table].rows;

export interface PageParams {
  cursor: number;
  limit: number;
  format: 'json' | 'ndjson' | 'arrow' | 'csv';
  release?: string;
}

/** The cursor after a page: null when the page reaches the end. */
export const nextCursor = (e: Entity, release: Release, p: PageParams) =>
  p.cursor + p.limit < total(e, release) ? p.cursor + p.limit : null;

export async function snapshotPage(release: Release, e: Entity, p: PageParams) {
  let records: Row[] = [];
  if (!pastEnd(e, release, p)) {
    const q = new Params();
    records = await release.pool.rows(await pageSql(release, e, p, q), q);
  }
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    release: release.id,
    entity: e.name,
    cursor: p.cursor,
    limit: p.limit,
    nextCursor: nextCursor(e, release, p),
    total: total(e, release),
    returned: records.length,
    records,
  };
}

// NDJSON pages are cut from read-ahead windows: WINDOW consecutive records rendered by one query (each record's JSON
// built by DuckDB's `to_json`, the lines joined by `string_agg`, handed over as UTF-8 bytes by `encode`) and kept in a
// small per-release cache bounded by size. Consecutive pages share one read (DuckDB's cost per query, and the row
// groups a key range decodes, are paid once per window, not per page), and a page is a slice of the window's bytes.
// A page is at most 1000 records, so it is sent whole: the connection goes back to the pool before the first byte,
// and the socket sends the page as fast as the client reads it (a slow client holds its page, not a connection).

/** Records per read-ahead window (a multiple of BLOCK, so a window is a key range of the ordering). */
export const WINDOW = 8 * BLOCK;

/** Upper bound on the bytes one release's window cache holds, all entities together. */
const WINDOW_CACHE_BYTES = 32 * 2 ** 20;

/** One window's NDJSON bytes and where each of its lines starts (one more entry: the end). */
interface Window {
  bytes: Buffer;
  starts: number[];
}

/** A release's windows, least recently used first, evicted past WINDOW_CACHE_BYTES; it goes when the release closes. */
class WindowCache {
  private readonly windows = new ByteLru<Promise<Window>>(WINDOW_CACHE_BYTES);

  get(key: string, read: () => Promise<Window>): Promise<Window> {
    const hit = this.windows.get(key);
    if (hit) return hit;
    const w = read();
    this.windows.set(key, w, 0); // its bytes are counted once it is read
    w.then(
      (win) => this.windows.peek(key) === w && this.windows.resize(key, win.bytes.length),
      () => this.windows.peek(key) === w && this.windows.delete(key), // a failed read is retried by the next request
    );
    return w;
  }
}

/**
 * The window's records, unordered (the aggregate that joins them orders them): the whole table when one window holds
 * it, else a key range of the ordering (or LIMIT/OFFSET when there is none).
 */
async function windowSql(release: Release, e: Entity, w: number, size: number, q: Params): Promise<string> {
  if (total(e, release) <= size) return unorderedSql(e, release, '');
  const ordering = await orderingOf(release, e);
  if (!ordering) return `${selectSql(e, release, '')} LIMIT ${q.add(size)} OFFSET ${q.add(w * size)}`;
  const key = `t."${e.key}"`;
  const first = (w * size) / BLOCK;
  const after = first + size / BLOCK;
  if (after >= ordering.length) return unorderedSql(e, release, `WHERE ${key} >= ${q.add(ordering[first])}`);
  return unorderedSql(e, release, `WHERE ${key} >= ${q.add(ordering[first])} AND ${key} < ${q.add(ordering[after])}`);
}

async function readWindow(release: Release, e: Entity, w: number, size: number): Promise<Window> {
  const q = new Params();
  const select = await windowSql(release, e, w, size, q);
  const sql = `SELECT encode(coalesce(string_agg(to_json(s)::VARCHAR || chr(10), '' ORDER BY s."${e.key}"), '')) FROM (${select}) s`;
  const blob = await release.pool.with(
    async (c) => (await c.runAndReadAll(sql, q.values)).getRows()[0][0] as DuckDBBlobValue,
  );
  const bytes = ndjsonBytes(blob);
  return { bytes, starts: lineStarts(bytes) };
}

/** Where each line of NDJSON bytes starts, and one more entry after the last newline: a page of n records gives n + 1. */
export function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The page as NDJSON (UTF-8): each record a line ending in a newline, exactly `JSON.stringify` of the JSON page's
 * records.
 */
export const snapshotNdjson = (release: Release, e: Entity, p: PageParams): Promise<Buffer> =>
  snapshotNdjsonWindows(release, e, p, WINDOW);

/** snapshotNdjson cut from windows of `size` records (a multiple of BLOCK; tests page across window edges with it). */
export async function snapshotNdjsonWindows(release: Release, e: Entity, p: PageParams, size: number): Promise<Buffer> {
  if (pastEnd(e, release, p)) return Buffer.alloc(0);
  const end = Math.min(p.cursor + p.limit, total(e, release));
  const cache = await release.memo('ndjson-windows', async () => new WindowCache());
  const windowAt = (w: number) => cache.get(`${e.name}/${size}/${w}`, () => readWindow(release, e, w, size));
  const parts: Buffer[] = [];
  let w = Math.floor(p.cursor / size);
  for (; w * size < end; w++) {
    const win = await windowAt(w);
    const from = Math.max(p.cursor - w * size, 0);
    const to = Math.min(end - w * size, win.starts.length - 1);
    parts.push(win.bytes.subarray(win.starts[from], win.starts[to]));
  }
  // A client paging forward needs the next window soon: DuckDB reads it while this window's pages are sent. The
  // release is held until the read ends, so a release switch never closes it under the query.
  if (w * size < total(e, release)) {
    release.hold();
    windowAt(w)
      .catch(() => {})
      .finally(() => release.drop());
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * The entity's columns stored as 64-bit integers in Parquet (DuckDB's types of the release's view): their Arrow type is
 * Int64 too, though the JSON page writes them as JSON numbers like every integer.
 */
export const int64Columns = (release: Release, e: Entity): Promise<Set<string>> =>
  release.memo(`int64:${e.name}`, async () => {
    const rows = await release.pool.rows(`DESCRIBE SELECT * FROM "${e.table}"`);
    return new Set(
      rows.filter((r) => /^(U?BIGINT|HUGEINT)$/.test(String(r.column_type))).map((r) => String(r.column_name)),
    );
  });

export async function snapshotRecord(release: Release, e: Entity, id: string): Promise<Row | null> {
  const q = new Params();
  const [row] = await release.pool.rows(selectSql(e, release, `WHERE t."${e.key}"::VARCHAR = ${q.add(id)}`), q);
  return row ?? null;
}

/** The manifest: every entity with its schema version, count, record schema, formats and Parquet files. */
export function snapshotManifest(release: Release, links: Links) {
  const m = release.manifest;
  const fileUrl = (path: string) => links.releaseFile(release.id, path);
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    release: release.id,
    createdAt: m.createdAt,
    manifestUrl: fileUrl(MANIFEST_FILE),
    changes: { url: links.changes(), schemaVersion: CHANGES_SCHEMA_VERSION },
    entities: ENTITIES.map((e) => ({
      entity: e.name,
      description: e.description,
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      release: release.id,
      records: total(e, release),
      key: e.key,
      order: `${e.key} ascending`,
      url: links.snapshot(e.name),
      pinnedUrl: links.snapshot(e.name, { release: release.id }),
      formats: ['json', 'ndjson', 'csv', 'arrow', 'parquet'],
      table: e.table,
      recordSchema: schema(recordSchemaId(e.name)),
      parquet: m.tables[e.table].files.map((f) => ({
        path: f.path,
        url: fileUrl(f.path),
        sha256: f.sha256,
        bytes: f.bytes,
        rows: f.rows,
      })),
    })),
  };
}
