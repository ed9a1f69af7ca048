// Bulk snapshots: each entity's records straight from its lake table, in key order, paged by position (a release never
// changes, so position paging is stable within it). JSON pages are read whole (≤ 1000 rows); NDJSON is streamed from
// DuckDB's result chunk by chunk.
import type { Release } from '../lake/release.ts';
import type { Row } from '../lake/pool.ts';
import type { Urls } from '../http/urls.ts';
import { schema } from '../schemas.ts';
import { CHANGES_SCHEMA_VERSION } from './changes.ts';

/** Version of the snapshot record shapes (schemas/snapshot/*.json); bumped only on an incompatible change. */
export const SNAPSHOT_SCHEMA_VERSION = '1.0.0';

export type EntityName = 'documents' | 'supervisors' | 'recorded-positions' | 'legislative-files';

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
    name: 'documents',
    table: 'documents',
    key: 'document_id',
    description: 'One record per PDF: meeting date, kind, pages, official URL, sha256, extractor, and the release that first carried it',
    columns: (r) => `t.document_id, t.meeting_date, t.year::INTEGER AS year, t.kind, t.title, t.file_name, t.official_url, t.archive_url, t.sha256,
      t.bytes::INTEGER AS bytes, t.pages::INTEGER AS pages, t.synthetic, t.extractor,
      ${r.has('changes') ? `coalesce(nullif(f.first_release, ''), '${hex(r.id)}')` : 'NULL::VARCHAR'} AS first_release`,
    joins: (r) => (r.has('changes') ? FIRST_RELEASE : ''),
  },
  {
    name: 'supervisors',
    table: 'supervisors',
    key: 'supervisor_id',
    description: 'Reconciled supervisor identities: full name, surname, district, term, and every name variant recorded',
    columns: () => `t.supervisor_id, t.surname, t.full_name, t.district::INTEGER AS district, t.term_from, t.term_to, t.name_variants`,
  },
  {
    name: 'recorded-positions',
    table: 'positions',
    key: 'position_id',
    description: 'One record per supervisor per roll call: the recorded name, the reconciled supervisor, the position and the action voted on',
    columns: () => `t.position_id, t.roll_call_id, t.item_id, t.document_id, t.meeting_date, t.year::INTEGER AS year, t.file_number,
      t.page::INTEGER AS page, t.supervisor_id, t.name_as_recorded, t.position, t.action, t.action_type, t.is_final`,
  },
  {
    name: 'legislative-files',
    table: 'legislative_files',
    key: 'file_number',
    description: 'One record per file number: matter, titles, sponsors, every meeting it appeared at, its actions in order with roll-call tallies, the final action if any',
    columns: () => `t.file_number, t.matter, t.item_type, t.titles, t.long_title, t.sponsors, t.enactment_numbers, t.first_meeting, t.last_meeting,
      t.meetings, t.actions, t.final_action`,
  },
];

export const entity = (name: string): Entity | undefined => ENTITIES.find((e) => e.name === name);

export const recordSchemaId = (name: EntityName) => `snapshot/${name}.json`;

function selectSql(e: Entity, release: Release, where: string): string {
  return `SELECT ${e.columns(release)} FROM "${e.table}" t ${e.joins?.(release) ?? ''} ${where} ORDER BY t."${e.key}"`;
}

export const total = (e: Entity, release: Release) => release.manifest.tables[e.table]?.rows ?? 0;

export interface PageParams { cursor: number; limit: number; format: 'json' | 'ndjson'; release?: string }

/** The cursor after a page: null when the page reaches the end. */
export const nextCursor = (e: Entity, release: Release, p: PageParams) => (p.cursor + p.limit < total(e, release) ? p.cursor + p.limit : null);

export async function snapshotPage(release: Release, e: Entity, p: PageParams) {
  const records = release.has(e.table) ? await release.pool.rows(`${selectSql(e, release, '')} LIMIT ? OFFSET ?`, [p.limit, p.cursor]) : [];
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION, release: release.id, entity: e.name, cursor: p.cursor, limit: p.limit,
    nextCursor: nextCursor(e, release, p), total: total(e, release), returned: records.length, records,
  };
}

/** The page's rows as DuckDB reads them, one chunk at a time. */
export function snapshotRows(release: Release, e: Entity, p: PageParams): AsyncGenerator<Row[]> {
  return release.pool.stream(`${selectSql(e, release, '')} LIMIT ? OFFSET ?`, [p.limit, p.cursor]);
}

export async function snapshotRecord(release: Release, e: Entity, id: string): Promise<Row | null> {
  if (!release.has(e.table)) return null;
  const [row] = await release.pool.rows(selectSql(e, release, `WHERE t."${e.key}"::VARCHAR = ?`), [id]);
  return row ?? null;
}

/** The manifest: every entity with its schema version, count, record schema, formats and Parquet files. */
export function snapshotManifest(release: Release, urls: Urls) {
  const m = release.manifest;
  const fileUrl = (path: string) => `${urls.base}/api/releases/${release.id}/files/${path}`;
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    release: release.id,
    createdAt: m.createdAt,
    manifestUrl: fileUrl('manifest.json'),
    changes: { url: urls.api('/api/changes'), schemaVersion: CHANGES_SCHEMA_VERSION },
    entities: ENTITIES.map((e) => ({
      entity: e.name,
      description: e.description,
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      release: release.id,
      records: total(e, release),
      key: e.key,
      order: `${e.key} ascending`,
      url: urls.api(`/api/snapshots/${e.name}`),
      pinnedUrl: urls.api(`/api/snapshots/${e.name}`, { release: release.id }),
      formats: ['json', 'ndjson', 'parquet'],
      table: e.table,
      recordSchema: schema(recordSchemaId(e.name)),
      parquet: (m.tables[e.table]?.files ?? []).map((f) => ({ path: f.path, url: fileUrl(f.path), sha256: f.sha256, bytes: f.bytes, rows: f.rows })),
    })),
  };
}
