// The lake format: the contract between the pipeline, which writes releases, and the server, which reads them. Table
// names and columns, file paths, the manifest and its checksums are defined here once; lake/README.md documents every
// table and column listed here. Record ids are in ids.ts.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { GloveParams } from '../embed/glove.ts';
import type { LsaModel } from '../embed/lsa.ts';

/** Version of the release layout and its tables; part of every release id. */
export const SCHEMA_VERSION = '2.5.0';

export type DocumentKind = 'agenda' | 'minutes';

export type Position = 'aye' | 'no' | 'absent' | 'excused';
export const POSITIONS: Position[] = ['aye', 'no', 'absent', 'excused'];

/** The spec's classification of the action a roll call voted on (pipelines/enrich/actions.ts holds the rules). */
export const ACTION_TYPES = [
  'final-passage',
  'first-reading',
  'adoption',
  'approval',
  'amendment',
  'continuance',
  'referral',
  'tabling',
  'rejection',
  'rescission',
  'other',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/**
 * A roll call's outcome as printed (`roll_calls.result`): the motion's own outcome when the Clerk prints one ("The
 * motion carried by the following vote"), else the action line's word (`FINALLY PASSED` and `PASSED, ON FIRST
 * READING` → `passed`, `NOT ADOPTED` → `not-adopted`); `other` when nothing printed says (rules:
 * pipelines/enrich/actions.ts RESULT_RULES).
 */
export const RESULTS = [
  'passed',
  'not-passed',
  'adopted',
  'not-adopted',
  'approved',
  'not-approved',
  'carried',
  'failed',
  'rejected',
  'disapproved',
  'amended',
  'not-amended',
  'continued',
  'not-continued',
  'referred',
  'tabled',
  'rescinded',
  'reconsidered',
  'filed',
  'submitted',
  'other',
] as const;
export type Result = (typeof RESULTS)[number];

/** The results that say the vote went against what was moved (the rest, `carried` included, say it went through). */
export const FAILING_RESULTS: readonly Result[] = [
  'not-passed',
  'not-adopted',
  'not-approved',
  'not-amended',
  'not-continued',
  'failed',
  'rejected',
  'disapproved',
];

// ---------------------------------------------------------------------------------------------------------------
// Paths

/** A release's manifest, at the top of its directory. */
export const MANIFEST_FILE = 'manifest.json';

/** The release's checksum list: every data file's sha256 in `sha256sum -c` format (`sha256sums`). */
export const CHECKSUMS_FILE = 'SHA256SUMS';
/** Where a lake keeps its releases, one directory per release id. */
export const releasesDir = (lake: string): string => join(lake, 'releases');
export const releaseDir = (lake: string, id: string): string => join(releasesDir(lake), id);
/** The symlink naming the lake's current release (`releases/<id>`, relative). */
export const currentLink = (lake: string): string => join(lake, 'current');

// ---------------------------------------------------------------------------------------------------------------
// Tables

/** The documents' fact columns (what a document states about its meeting), written since schema FACTS_SINCE. */
export const DOCUMENT_FACTS = [
  'meeting_type',
  'numbered_items',
  'members',
  'presiding',
  'called_to_order',
  'adjourned_at',
  'noted_present',
] as const;
export const FACTS_SINCE = '2.5.0';

/** Whether schema version `v` (`2.4.0`) is `since` or later. */
export function schemaAtLeast(v: string | undefined, since: string): boolean {
  const a = (v ?? '0').split('.').map(Number);
  const b = since.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** The tables written from document rows: each table's columns (name → DuckDB type, in order). */
export const COLUMNS = {
  documents: {
    document_id: 'VARCHAR',
    meeting_date: 'DATE',
    year: 'INTEGER',
    kind: 'VARCHAR',
    title: 'VARCHAR',
    file_name: 'VARCHAR',
    official_url: 'VARCHAR',
    archive_url: 'VARCHAR',
    sha256: 'VARCHAR',
    bytes: 'BIGINT',
    pages: 'INTEGER',
    synthetic: 'BOOLEAN',
    extractor: 'VARCHAR',
    meeting_type: 'VARCHAR',
    numbered_items: 'INTEGER',
    members: 'VARCHAR[]',
    presiding: 'VARCHAR',
    called_to_order: 'VARCHAR',
    adjourned_at: 'VARCHAR',
    noted_present: 'STRUCT(name VARCHAR, time VARCHAR)[]',
  },
  pages: {
    page_id: 'VARCHAR',
    document_id: 'VARCHAR',
    meeting_date: 'DATE',
    year: 'INTEGER',
    kind: 'VARCHAR',
    page: 'INTEGER',
    title: 'VARCHAR',
    header: 'VARCHAR',
    footer: 'VARCHAR',
    text: 'VARCHAR',
    quality: 'VARCHAR',
    indexed: 'BOOLEAN',
    official_url: 'VARCHAR',
  },
  items: {
    item_id: 'VARCHAR',
    document_id: 'VARCHAR',
    meeting_date: 'DATE',
    year: 'INTEGER',
    kind: 'VARCHAR',
    file_number: 'VARCHAR',
    title: 'VARCHAR',
    sponsors: 'VARCHAR[]',
    long_title: 'VARCHAR',
    matter: 'VARCHAR',
    item_type: 'VARCHAR',
    section: 'VARCHAR',
    sequence: 'INTEGER',
    start_page: 'INTEGER',
    end_page: 'INTEGER',
    text: 'VARCHAR',
    enactment_numbers: 'VARCHAR[]',
    status_lines: 'VARCHAR[]',
    amounts: 'STRUCT(raw VARCHAR, value BIGINT, currency VARCHAR, qualifier VARCHAR)[]',
    housing_units: 'INTEGER[]',
    addresses: 'VARCHAR[]',
    parties: 'VARCHAR[]',
    unit_mentions: 'STRUCT(units INTEGER, sentence VARCHAR)[]',
    official_url: 'VARCHAR',
  },
  roll_calls: {
    roll_call_id: 'VARCHAR',
    item_id: 'VARCHAR',
    document_id: 'VARCHAR',
    meeting_date: 'DATE',
    year: 'INTEGER',
    file_number: 'VARCHAR',
    sequence: 'INTEGER',
    action: 'VARCHAR',
    action_type: 'VARCHAR',
    result: 'VARCHAR',
    is_final: 'BOOLEAN',
    rescinded_by: 'VARCHAR',
    page: 'INTEGER',
    ayes: 'VARCHAR[]',
    noes: 'VARCHAR[]',
    absent: 'VARCHAR[]',
    excused: 'VARCHAR[]',
    declared_ayes: 'INTEGER',
    declared_noes: 'INTEGER',
    declared_absent: 'INTEGER',
    declared_excused: 'INTEGER',
    count_mismatch: 'BOOLEAN',
    shared_vote: 'BOOLEAN',
    official_url: 'VARCHAR',
  },
  positions: {
    position_id: 'VARCHAR',
    roll_call_id: 'VARCHAR',
    item_id: 'VARCHAR',
    document_id: 'VARCHAR',
    meeting_date: 'DATE',
    year: 'INTEGER',
    file_number: 'VARCHAR',
    page: 'INTEGER',
    supervisor_id: 'VARCHAR',
    name_as_recorded: 'VARCHAR',
    position: 'VARCHAR',
    action: 'VARCHAR',
    action_type: 'VARCHAR',
    is_final: 'BOOLEAN',
    rescinded_by: 'VARCHAR',
  },
  comments: {
    comment_id: 'VARCHAR',
    document_id: 'VARCHAR',
    meeting_date: 'DATE',
    year: 'INTEGER',
    page: 'INTEGER',
    speaker: 'VARCHAR',
    statement: 'VARCHAR',
    file_number: 'VARCHAR',
    sequence: 'INTEGER',
    official_url: 'VARCHAR',
  },
  supervisors: {
    supervisor_id: 'VARCHAR',
    surname: 'VARCHAR',
    full_name: 'VARCHAR',
    district: 'INTEGER',
    term_from: 'VARCHAR',
    term_to: 'VARCHAR',
    name_variants: 'VARCHAR[]',
  },
  problems: { document_id: 'VARCHAR', page: 'INTEGER', kind: 'VARCHAR', detail: 'VARCHAR' },
  /**
   * What Legistar's meeting pages (MeetingDetail.aspx) record of each file at a meeting, from the corpus's
   * `legistar/meeting_items.csv` (pipelines/exports/): a second witness to the roll calls of the minutes.
   */
  legistar_meeting_items: {
    meeting_date: 'DATE',
    file_number: 'VARCHAR',
    version: 'VARCHAR',
    agenda_number: 'VARCHAR',
    name: 'VARCHAR',
    title: 'VARCHAR',
    action: 'VARCHAR',
    result: 'VARCHAR',
    action_type: 'VARCHAR',
    outcome: 'VARCHAR',
    meeting_url: 'VARCHAR',
    source: 'VARCHAR',
  },
} as const;

export type Table = keyof typeof COLUMNS;

/**
 * The `coverage` table: one row per meeting date the release holds a document of, and what exists for that meeting.
 * Derived from the tables above (core/lake/coverage.ts), so that no answer claims more than the lake holds.
 */
export const COVERAGE_COLUMNS = {
  meeting_date: 'DATE',
  year: 'INTEGER',
  documents: 'VARCHAR[]',
  agenda: 'BOOLEAN',
  minutes: 'BOOLEAN',
  pages: 'INTEGER',
  items: 'INTEGER',
  roll_calls: 'INTEGER',
  comments: 'INTEGER',
  synthetic: 'BOOLEAN',
} as const;

/** The change log (`changes.parquet`): one row per entity change, by global sequence. */
export const CHANGE_COLUMNS = {
  sequence: 'BIGINT',
  entity: 'VARCHAR',
  record_id: 'VARCHAR',
  operation: 'VARCHAR',
  release: 'VARCHAR',
  time: 'TIMESTAMP',
  record_hash: 'VARCHAR',
} as const;

/**
 * `legislative_files.legistar`: what the Legistar exports of the corpus (any file under `legistar/` whose header is a
 * known shape: pipelines/exports/shapes.ts) say of a file, beside the columns read from agendas and minutes; null where they do not list it.
 */
export const LEGISTAR_FIELDS = {
  type: 'VARCHAR',
  status: 'VARCHAR',
  name: 'VARCHAR',
  title: 'VARCHAR',
  introduced: 'DATE',
  final_action: 'DATE',
  enactment_date: 'DATE',
  enactment_number: 'VARCHAR',
  sponsors: 'VARCHAR[]',
  in_control: 'VARCHAR',
  related_files: 'VARCHAR[]',
  url: 'VARCHAR',
  history: 'STRUCT(date DATE, version INTEGER, action_by VARCHAR, action VARCHAR, result VARCHAR)[]',
  /** The export the row was read from and its shape: `legistar/legislation_2023.csv (scraped legislation)`. */
  source: 'VARCHAR',
  /** The export the history was read from and its shape, or null without one. */
  history_source: 'VARCHAR',
} as const;

/** The snapshot entities (API name, lake table, key column), in the order a release's new changes are numbered. */
export const SNAPSHOT_ENTITIES = [
  { name: 'documents', table: 'documents', key: 'document_id' },
  { name: 'supervisors', table: 'supervisors', key: 'supervisor_id' },
  { name: 'legislative-files', table: 'legislative_files', key: 'file_number' },
  { name: 'recorded-positions', table: 'positions', key: 'position_id' },
] as const;

export type EntityName = (typeof SNAPSHOT_ENTITIES)[number]['name'];

export const snapshotEntity = (name: EntityName) => SNAPSHOT_ENTITIES.find((e) => e.name === name)!;

// ---------------------------------------------------------------------------------------------------------------
// Indexes (under index/)

/** The text collections with a BM25 index. */
export const COLLECTIONS = ['page', 'item', 'comment'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** A collection's BM25 tables: postings (one part file per term range), terms (with their part), docs, stats. */
export const indexTable = (c: Collection, table: 'postings' | 'terms' | 'docs' | 'stats'): string => `${c}_${table}`;

/** A postings part file's path holds `/part=N/`. */
export const POSTINGS_PART = /\/part=(\d+)\//;

/** The directory of the index tables and text stores, in a release. */
export const INDEX_DIR = 'index';

/** A collection's text store: each document's text raw-deflated, at `text_offset` / `text_bytes` of its docs table. */
export const textStoreFile = (c: Collection): string => `${c}_text.bin`;

/**
 * A collection's postings store (`index/<collection>_postings_store.bin`, lake/README.md): every term's postings as
 * document numbers (`doc_no`: documents numbered in doc_id byte order) with their impacts, positions in a section of
 * their own, the term directory and the doc table; the server ranks from it in JavaScript (src/engine/postings.ts).
 * Little-endian; a footer (JSON) says where each section lies.
 */
export const postingsStoreFile = (c: Collection): string => `${c}_postings_store.bin`;
/** The last 8 bytes of a postings store (before them: the footer's JSON, then its byte length as u32). */
export const POSTINGS_STORE_MAGIC = 'BRPSTOR1';
/** The footer of a postings store: counts, the document kinds (`kinds[docKind]`) and each section's [offset, bytes]. */
export interface PostingsStoreFooter {
  docs: number;
  terms: number;
  postings: number;
  kinds: string[];
  sections: Record<(typeof POSTINGS_STORE_SECTIONS)[number], [number, number]>;
}
/** The sections in file order (lake/README.md describes each). */
export const POSTINGS_STORE_SECTIONS = [
  'postings',
  'positions',
  'termEnds',
  'termBytes',
  'termDf',
  'termPositions',
  'docIdEnds',
  'docIdBytes',
  'docYear',
  'docKind',
] as const;

/**
 * The item record store (`index/item_records.bin`): each item's whole record, its row and its roll calls in order as
 * JSON (`{"item": {…}, "roll_calls": [{…}]}`, lake column names), raw-deflated, in item_id order, at `record_offset` /
 * `record_bytes` of `item_record_refs`: a lookup by id reads a few bytes instead of decoding Parquet row groups.
 */
export const ITEM_RECORD_STORE = 'item_records.bin';
export const ITEM_RECORD_REFS = 'item_record_refs';
export const ITEM_RECORD_REF_COLUMNS = {
  item_id: 'VARCHAR',
  record_offset: 'BIGINT',
  record_bytes: 'INTEGER',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The manifest

export interface ManifestFile {
  path: string;
  sha256: string;
  bytes: number;
  rows: number;
}

export interface TableFiles {
  files: ManifestFile[];
  rows: number;
}

/** A source PDF the release was built from. */
export interface ManifestInput {
  file: string;
  documentId: string;
  meetingDate: string;
  kind: string;
  sha256: string;
  bytes: number;
  officialUrl: string;
  synthetic: boolean;
}

/**
 * Why a corpus document was left out of a release. Each is also a `problems` row (page 0) of the same kind, named by
 * the document id when the manifest row gives one, else by its corpus path.
 */
export const EXCLUSION_KINDS = [
  'missing-document',
  'empty-document',
  'not-a-pdf',
  'unreadable-pdf',
  'page-count-mismatch',
  'checksum-mismatch',
  'bad-manifest-row',
  'duplicate-document',
  'date-mismatch',
] as const;
export type ExclusionKind = (typeof EXCLUSION_KINDS)[number];

/** A corpus document left out of the release: everything else published without it. */
export interface ExcludedInput {
  file: string;
  documentId: string | null;
  kind: ExclusionKind;
  detail: string;
}

/** Changes this release added to the change log, and the prior ones it carried forward. */
export interface ChangeCounts {
  insert: number;
  update: number;
  delete: number;
  carried: number;
}

/** The page embeddings of a release (`page_embeddings`, and `embedding_terms` for a model stored in the release). */
export interface EmbeddingsEntry {
  model: string;
  provider: 'glove' | 'lsa' | 'openai-compatible';
  dim: number;
  table: 'page_embeddings';
  pages: number;
  passages: number;
  embedded: number;
  reused: number;
  /** Page chunks: words per window and words two windows share (releases before boilerplate removal: whole-page windows). */
  window: { words: number; overlap: number };
  /** Standing text removed from passages: runs of `ngram` words in at least `share` of the units; how many such runs. */
  boilerplate?: { ngram: number; share: number; phrases: number };
  /** A stored model: its parameters and vocabulary size (the terms are in `embedding_terms`). */
  lsa?: LsaModel['params'] & { terms: number };
  glove?: GloveParams & { terms: number };
}

export interface Manifest {
  schemaVersion: string;
  releaseId: string;
  createdAt: string;
  preview: boolean;
  inputs: ManifestInput[];
  /** The text analysis the indexes were built with; the server refuses another version. */
  analysis: { version: string } & Record<string, unknown>;
  extractor: string;
  /** Older releases may lack the fields below. */
  parser?: string;
  previousRelease?: string | null;
  changes?: ChangeCounts;
  embeddings?: EmbeddingsEntry | null;
  tables: Record<string, TableFiles>;
  /** `SHA256SUMS`: the checksum list beside the manifest (releases built before it lack the field). */
  checksums?: typeof CHECKSUMS_FILE;
  /** Problem counts by kind; the rows are in the `problems` table. */
  problems: Record<string, number>;
  /** Corpus documents left out of this release, and why (releases built before 2.4.0 lack the field). */
  excluded?: ExcludedInput[];
}

/** The manifest of the release in `dir`, as written (the server checks it further before serving the release). */
export async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
}

/** A file's sha256, as the manifest lists it. */
export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The `SHA256SUMS` of these data files: a line `<sha256>  <path>` per file (two spaces: `sha256sum`'s text mode),
 * sorted by path in byte order (`LC_ALL=C sort`), `\n` after every line. `sha256sum -c SHA256SUMS` in the release's
 * directory checks them; the release id hashes exactly these bytes (`releaseIdOf`).
 */
export function sha256sums(files: ManifestFile[]): string {
  const paths = files.map((f) => f.path);
  paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const byPath = new Map(files.map((f) => [f.path, f.sha256]));
  return paths.map((p) => `${byPath.get(p)}  ${p}\n`).join('');
}

/**
 * The manifest's tables: files grouped by table, the table being a file's first path segment without its extension
 * (`items/year=2016/…` → items), under `index/` the segment after it (`index/page_postings/part=3/…` → page_postings).
 */
export function tablesOf(files: ManifestFile[]): Record<string, TableFiles> {
  const tables: Record<string, TableFiles> = {};
  for (const f of files) {
    const table = (f.path.startsWith('index/') ? f.path.slice(6) : f.path)
      .split('/')[0]
      .replace(/\.(parquet|bin)$/, '');
    (tables[table] ??= { files: [], rows: 0 }).files.push(f);
    tables[table].rows += f.rows;
  }
  return tables;
}
