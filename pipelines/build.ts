// `make lake [CORPUS=dir]`: the stages in order, from source PDFs to a published release.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { DuckDBConnection } from '@duckdb/node-api';

import { embeddingFromEnv } from '../core/config.ts';
import type { TermProvider } from '../core/embed/term-vectors.ts';
import { COVERAGE_SQL } from '../core/lake/coverage.ts';
import {
  type ChangeCounts,
  CHECKSUMS_FILE,
  COLLECTIONS,
  COLUMNS,
  type EmbeddingsEntry,
  type ExcludedInput,
  INDEX_DIR,
  type Manifest,
  MANIFEST_FILE,
  type ManifestFile,
  readManifest,
  releaseDir,
  SCHEMA_VERSION,
  sha256Of,
  type Table,
  tablesOf,
} from '../core/lake/format.ts';
import { releaseIdOf } from '../core/lake/ids.ts';
import { sqlString } from '../core/sql.ts';
import { ANALYSIS } from '../core/text/analysis.ts';
import { supervisorRow } from './document/table-rows.ts';
import { embedInThread } from './embed/thread.ts';
import { loadRoster } from './enrich/supervisors.ts';
import { type Exports, readExports, writeExportRows } from './exports/shapes.ts';
import { EXTRACTOR } from './extract/pdf.ts';
import { readDocuments } from './extract/pool.ts';
import { writeBm25 } from './index/bm25.ts';
import { LockHeld, takeLock } from './lock.ts';
import { stage } from './progress.ts';
import { type PreviousRelease, writeChanges } from './publish/changes.ts';
import { loadLegislativeFiles } from './publish/legislative-files.ts';
import { loadLegistar } from './publish/legistar.ts';
import {
  currentReleaseId,
  listFiles,
  prune,
  publish,
  stagingDir,
  writeChecksums,
  writeJson,
} from './publish/release.ts';
import { readCorpus, type SourceDocument, SourceError } from './sources.ts';
import { writeItemRecords } from './store/records.ts';
import { RowFiles } from './store/row-files.ts';
import {
  BUILD_MEMORY_MB,
  buildDuckDb,
  copyOut,
  dropTables,
  loadNdjson,
  memoryBudget,
  ndjsonQuery,
  setMemoryLimit,
} from './store/tables.ts';

export interface BuildOptions {
  corpus: string;
  lake: string;
  /** Where extracted pages are cached between builds (null: no cache). */
  cacheDir?: string | null;
  preview?: boolean;
  keep?: number;
  makeCurrent?: boolean;
  /** Fixed creation time (ISO) for reproducible manifests; defaults to SOURCE_DATE_EPOCH or now. */
  createdAt?: string;
  quiet?: boolean;
  /** Diff against the lake's current release and carry its change log forward (default); false starts a new history. */
  history?: boolean;
  /** Postings per index part file (default PART_POSTINGS; tests make many small parts). */
  postingsPerPart?: number;
  /** Embed passages for hybrid search (default true; `EMBED=0` turns it off). */
  embed?: boolean;
  /** The stored model when no endpoint is configured: `glove` (default) or `lsa` (`EMBED=lsa`). */
  embedModel?: TermProvider;
  /** How long to wait for another build holding `lake/.lock` before refusing (default LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** The DuckDB memory budget in MB (default BUILD_MEMORY_MB; see memoryBudget): spills past it, same bytes out. */
  memoryMb?: number;
}

/** Default wait for another build's lock: a nightly run and a manual one overlapping wait for each other this long. */
export const LOCK_WAIT_MS = 10 * 60_000;

/** The lake changed under a build in a way it cannot publish over. */
export class LakeChanged extends Error {}

export interface BuildResult {
  releaseId: string;
  published: boolean;
  dir: string;
  documents: number;
  pages: number;
  changes: ChangeCounts;
}

/**
 * Reads every document into the row files (closed when done), in corpus order; returns those read. A document that
 * cannot be read, or whose cover prints another meeting's date, is left out: added to `excluded` and a problem row.
 */
async function readAll(
  sources: SourceDocument[],
  excluded: ExcludedInput[],
  out: RowFiles,
  cacheDir: string | null,
  quiet: boolean,
): Promise<SourceDocument[]> {
  const bar = quiet ? null : stage('read', sources.length);
  const read: SourceDocument[] = [];
  try {
    for (const s of loadRoster()) await out.write('supervisors', supervisorRow(s));
    let i = 0;
    for await (const doc of readDocuments(sources, { cacheDir })) {
      const source = sources[i++];
      if ('error' in doc)
        excluded.push({ file: source.file, documentId: source.id, kind: doc.kind, detail: doc.error });
      else {
        await out.append(doc);
        read.push(source);
      }
      bar?.tick();
    }
    for (const e of excluded)
      await out.problem({ document_id: e.documentId ?? e.file, page: 0, kind: e.kind, detail: e.detail });
  } finally {
    await out.close();
  }
  bar?.done(
    `${out.count('documents')} documents, ${out.count('pages')} pages; ${out.count('items')} items, ${out.count('roll_calls')} roll calls, ` +
      `${out.count('positions')} positions, ${out.count('comments')} comments, ${out.count('problems')} problems` +
      (excluded.length ? `; ${excluded.length} left out` : ''),
  );
  for (const e of excluded) if (!quiet) process.stderr.write(`  left out (${e.kind}): ${e.detail}\n`);
  if (read.length === 0)
    throw new SourceError(`CORPUS: no document could be read; left out: ${excluded.map((e) => e.detail).join('; ')}`);
  return read;
}

/**
 * Parser version: the hash of the parse and enrich code, the supervisor roster, the id formats and the name rules
 * (reported per document in /api/quality).
 */
export const PARSER = (() => {
  const root = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const dir of ['parse', 'enrich', 'data']) {
    for (const name of readdirSync(join(root, dir)).sort())
      hash.update(name).update(readFileSync(join(root, dir, name)));
  }
  for (const file of ['../core/lake/ids.ts', '../core/roster.ts'])
    hash.update(file).update(readFileSync(join(root, file)));
  return `board-records-parse/${hash.digest('hex').slice(0, 12)}`;
})();

/** The release `id` (the lake's current one when the build began), when it can be diffed against (its manifest readable). */
async function previousRelease(
  lake: string,
  id: string | null,
): Promise<(PreviousRelease & { files: ManifestFile[] }) | null> {
  const dir = id ? releaseDir(lake, id) : null;
  if (!dir || !existsSync(join(dir, MANIFEST_FILE))) return null;
  const manifest = await readManifest(dir);
  const files = Object.values(manifest.tables).flatMap((t) => t.files);
  return { id: manifest.releaseId, createdAt: manifest.createdAt, dir, files };
}

const TABLES = Object.keys(COLUMNS) as Table[];
/**
 * Rows per Parquet row group of the tables read only by id or key range (a page record, a snapshot page): such a read
 * decodes the few groups holding its rows, not a year. Tables that aggregates scan keep DuckDB's default groups:
 * 2,048-row groups made a scan of recorded positions 3.5× slower.
 */
const KEYED_ROW_GROUP = 2048;
const KEYED_TABLES = new Set<string>(['pages']);
/** Tables the legislative files and the change log are built from: loaded into DuckDB; the rest go straight to Parquet. */
const READ_AGAIN = new Set<Table>(['documents', 'items', 'roll_calls', 'positions', 'comments', 'supervisors']);

/** Every table to Parquet (and the item record store, the legislative files, coverage, the change log); returns the changes. */
async function writeTables(
  db: DuckDBConnection,
  exports: Exports,
  rowFiles: RowFiles,
  staged: string,
  scratch: string,
  previous: PreviousRelease | null,
  quiet: boolean,
): Promise<ChangeCounts> {
  const bar = quiet ? null : stage('tables', TABLES.length + 2);
  for (const table of TABLES) {
    let rows = ndjsonQuery(COLUMNS[table], rowFiles.path(table));
    if (READ_AGAIN.has(table)) {
      await loadNdjson(db, table, COLUMNS[table], rowFiles.path(table));
      rows = `SELECT * FROM "${table}"`;
    }
    const key = Object.keys(COLUMNS[table])[0];
    const partitioned = 'year' in COLUMNS[table] && table !== 'problems';
    await copyOut(db, rows, join(staged, table), {
      orderBy:
        table === 'problems' ? 'document_id, page, kind, detail' : table === 'legistar_meeting_items' ? 'ALL' : key,
      partitionBy: partitioned ? 'year' : undefined,
      rowGroupSize: KEYED_TABLES.has(table) ? KEYED_ROW_GROUP : undefined,
    });
    bar?.tick();
  }
  await mkdir(join(staged, INDEX_DIR), { recursive: true });
  await writeItemRecords(db, join(staged, INDEX_DIR), scratch);
  bar?.tick();
  await loadLegistar(db, exports);
  await loadLegislativeFiles(db);
  await copyOut(db, 'SELECT * FROM legislative_files', join(staged, 'legislative_files'), {
    orderBy: 'file_number',
    rowGroupSize: KEYED_ROW_GROUP,
  });
  await copyOut(db, COVERAGE_SQL, join(staged, 'coverage'), { orderBy: 'meeting_date' });
  bar?.tick();
  const changes = await writeChanges(db, previous, staged);
  bar?.done();
  return changes;
}

/**
 * Builds and publishes a release, one build per lake at a time: the whole build holds `lake/.lock` (a second one waits
 * up to `lockWaitMs`, then refuses naming the holder). It diffs against the release current when it began and
 * publishes only if that one is still current.
 */
export async function buildRelease(opts: BuildOptions): Promise<BuildResult> {
  await mkdir(opts.lake, { recursive: true }); // an unwritable lake fails here, before any work
  const unlock = await takeLock(
    join(opts.lake, '.lock'),
    'build',
    opts.lockWaitMs ?? LOCK_WAIT_MS,
    opts.quiet ? undefined : (m) => process.stderr.write(`${m}\n`),
  );
  try {
    return await buildLocked(opts, await currentReleaseId(opts.lake));
  } finally {
    await unlock();
  }
}

async function buildLocked(opts: BuildOptions, startId: string | null): Promise<BuildResult> {
  const quiet = opts.quiet ?? false;
  const log = (line: string) => {
    if (!quiet) process.stderr.write(`${line}\n`);
  };
  const corpus = await readCorpus(opts.corpus);
  const excluded = [...corpus.excluded];
  log(
    `sources: ${corpus.documents.length} documents from ${opts.corpus}${excluded.length ? ` (${excluded.length} left out)` : ''}`,
  );

  const staged = await stagingDir(opts.lake);
  try {
    const scratch = join(staged, '.scratch');
    await mkdir(scratch, { recursive: true });
    const rowFiles = await RowFiles.create(scratch);
    // Legistar exports: any file under legistar/, classified by its header; one of unknown shape is a problem row.
    const exports = await readExports(opts.corpus);
    await writeExportRows(rowFiles, exports);
    for (const p of corpus.problems) await rowFiles.problem(p);
    const sources = await readAll(
      corpus.documents,
      excluded,
      rowFiles,
      opts.cacheDir === undefined ? null : opts.cacheDir,
      quiet,
    );

    const memory = memoryBudget(opts.memoryMb ?? BUILD_MEMORY_MB, opts.embed !== false);
    const instance = await buildDuckDb(join(scratch, 'duckdb.tmp'), memory.tables);
    const db = await instance.connect();
    const previous = opts.history === false ? null : await previousRelease(opts.lake, startId);
    // The embeddings run on a thread of their own while this thread and DuckDB's write the tables and the index.
    const embedding =
      opts.embed === false
        ? null
        : embedInThread({
            stagedDir: staged,
            scratch,
            memoryMb: memory.embed,
            pages: rowFiles.path('pages'),
            items: rowFiles.path('items'),
            previousReleaseDir: previous?.dir ?? null,
            endpoint: embeddingFromEnv(process.env),
            model: opts.embedModel ?? 'glove',
            quiet,
          });
    let embeddings: EmbeddingsEntry | undefined;
    let changes: ChangeCounts;
    try {
      changes = await writeTables(db, exports, rowFiles, staged, scratch, previous, quiet);
      await dropTables(db); // written out: the index stage needs the memory
      await setMemoryLimit(db, memory.index);
      const bar = quiet ? null : stage('index', COLLECTIONS.length);
      for (const name of COLLECTIONS) {
        await writeBm25(db, rowFiles.indexes[name], join(staged, INDEX_DIR), opts.postingsPerPart);
        bar?.tick();
      }
      bar?.done();
      embeddings = await embedding?.result;
    } finally {
      await embedding?.stop();
    }
    await rm(scratch, { recursive: true, force: true });

    const files: ManifestFile[] = [];
    for (const path of await listFiles(staged)) {
      const rel = relative(staged, path);
      const rows = path.endsWith('.parquet')
        ? Number(
            (
              await db.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(path)})`)
            ).getRows()[0][0],
          )
        : 0;
      files.push({ path: rel, sha256: await sha256Of(path), bytes: statSync(path).size, rows });
    }
    db.closeSync();
    instance.closeSync();

    // Same data as the current release (the change log aside): nothing to publish.
    const dataOf = (fs: ManifestFile[]) =>
      fs
        .filter((f) => f.path !== 'changes.parquet')
        .map((f) => `${f.path}\t${f.sha256}`)
        .sort()
        .join('\n');
    // `lake/current` is left as it is, even if someone else moved it meanwhile.
    if (previous && dataOf(files) === dataOf(previous.files)) {
      await rm(staged, { recursive: true, force: true });
      log(`release ${previous.id}: unchanged, nothing published`);
      return {
        releaseId: previous.id,
        published: false,
        dir: previous.dir,
        documents: sources.length,
        pages: rowFiles.count('pages'),
        changes,
      };
    }
    const releaseId = releaseIdOf(files);
    const createdAt =
      opts.createdAt ??
      (process.env.SOURCE_DATE_EPOCH
        ? new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000).toISOString()
        : new Date().toISOString());
    const manifest: Manifest = {
      schemaVersion: SCHEMA_VERSION,
      releaseId,
      createdAt,
      preview: opts.preview ?? sources.some((s) => s.synthetic),
      inputs: sources.map((s) => ({
        file: s.fileName,
        documentId: s.id,
        meetingDate: s.meetingDate,
        kind: s.kind,
        sha256: s.sha256,
        bytes: s.bytes,
        officialUrl: s.officialUrl,
        synthetic: s.synthetic,
      })),
      analysis: ANALYSIS,
      extractor: EXTRACTOR,
      parser: PARSER,
      previousRelease: previous?.id ?? null,
      changes,
      embeddings,
      tables: tablesOf(files),
      checksums: CHECKSUMS_FILE,
      problems: Object.fromEntries([...rowFiles.problemKinds].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      excluded,
    };
    await writeChecksums(staged, files);
    await writeJson(join(staged, MANIFEST_FILE), manifest);
    const now = await currentReleaseId(opts.lake);
    if ((opts.makeCurrent ?? true) && now !== startId) {
      throw new LakeChanged(
        `lake/current moved from ${startId ?? 'nothing'} to ${now ?? 'nothing'} during the build; nothing was published (run the build again to diff against ${now ?? 'nothing'})`,
      );
    }
    const published = await publish(opts.lake, staged, releaseId, opts.makeCurrent ?? true);
    await prune(opts.lake, opts.keep ?? 3);
    log(
      `release ${releaseId}: ${published ? 'published' : 'unchanged (already built)'}${opts.makeCurrent === false ? '' : ', now current'}; changes: ${changes.insert} inserted, ${changes.update} updated, ${changes.delete} deleted`,
    );
    return {
      releaseId,
      published,
      dir: releaseDir(opts.lake, releaseId),
      documents: sources.length,
      pages: rowFiles.count('pages'),
      changes,
    };
  } catch (e) {
    await rm(staged, { recursive: true, force: true });
    throw e;
  }
}

const FS_ERRORS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a path component is not a directory',
  EEXIST: 'a file is in the way',
};

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('pipelines/build.ts')) {
  const corpus = resolve(process.env.CORPUS || '../shared/corpus');
  const lake = resolve(process.env.LAKE || 'lake');
  const lockWaitMs = process.env.LAKE_LOCK_WAIT_MS ? Number(process.env.LAKE_LOCK_WAIT_MS) : undefined;
  buildRelease({
    corpus,
    lake,
    cacheDir: resolve('.cache/extract'),
    keep: Number(process.env.LAKE_KEEP || 3),
    preview: process.env.PREVIEW === '1' ? true : undefined,
    embed: process.env.EMBED !== '0',
    embedModel: process.env.EMBED === 'lsa' ? 'lsa' : 'glove',
    lockWaitMs,
  }).catch((e) => {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    const message =
      e instanceof SourceError || e instanceof LockHeld || e instanceof LakeChanged
        ? e.message
        : FS_ERRORS[code]
          ? `LAKE: cannot write the release under ${lake}: ${FS_ERRORS[code]} (${(e as NodeJS.ErrnoException).path ?? lake})`
          : (e as Error).stack;
    process.stderr.write(`lake: ${message}\nnothing was published; the current release is unchanged\n`);
    process.exit(1);
  });
}
