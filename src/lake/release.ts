// One published release opened read-only: its manifest, a DuckDB instance with a view per table, a connection pool.
// Requests hold a reference while they run, so a retired release closes only after its last request finishes.
import { rmSync } from 'node:fs';
import { mkdtemp, readFile, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';

import type { EmbeddingSettings } from '../../core/config.ts';
import {
  COLLECTIONS,
  type Manifest,
  MANIFEST_FILE,
  type ManifestFile,
  postingsStoreFile,
  sha256Of,
} from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import { ANALYSIS } from '../../core/text/analysis.ts';
import { Pool, shared } from './pool.ts';

/** How the server opens a release: its pool, and the endpoint that embeds queries for hybrid search (none: null). */
export interface ReleaseSettings {
  poolSize: number;
  queueLimit: number;
  queryTimeoutMs: number;
  embedding?: EmbeddingSettings | null;
  /** DuckDB's worker threads per release (default 2). */
  duckdbThreads?: number;
  /**
   * Per-release tables read ahead of the first request that needs them, for a release about to be served as current
   * (`Release.warmed`): the server listens, and a new release takes over, only once it settles. Releases opened for
   * `release=` pins or file downloads read theirs when a request needs them.
   */
  warm?: (release: Release) => Promise<unknown>;
}

/** The SQL that exposes one manifest table as a view: hive-partitioned directories keep their `year` column. */
function viewSql(dir: string, name: string, files: ManifestFile[]): string {
  const list = `[${files.map((f) => sqlString(join(dir, f.path))).join(', ')}]`; // the manifest's files: no glob on every query
  const partitioned = files.some((f) => /\/year=\d+\//.test(f.path));
  const options = partitioned
    ? `hive_partitioning = true, hive_types = {'year': INTEGER}`
    : 'hive_partitioning = false';
  return `CREATE VIEW "${name}" AS SELECT * FROM read_parquet(${list}, ${options});`;
}

/** A release file's sha256, counted in Release.filesHashed. */
function hashedFile(path: string): Promise<string> {
  Release.filesHashed++;
  return sha256Of(path);
}

/**
 * A release the server will not serve, and why, in the lake's own terms (release id, table, file path relative to the
 * release): never a server path or SQL, since the reason is shown in /api/health and /api/quality.
 */
export class ReleaseRefused extends Error {
  constructor(
    readonly release: string,
    readonly reason: string,
  ) {
    super(`release ${release} refused: ${reason}`);
  }
}

/** Every file the manifest lists exists with its size and (unless `hashed` already) its sha256. */
async function verifyFiles(dir: string, manifest: Manifest, hashed: boolean): Promise<void> {
  for (const [name, table] of Object.entries(manifest.tables)) {
    for (const f of table.files) {
      const refuse = (what: string) => new ReleaseRefused(manifest.releaseId, `table ${name}: ${f.path} ${what}`);
      const path = join(dir, f.path);
      const size = await stat(path).then(
        (s) => s.size,
        () => null,
      );
      if (size === null) throw refuse('is missing');
      if (size !== f.bytes) throw refuse(`has ${size} bytes vs manifest ${f.bytes}`);
      if (!hashed && (await hashedFile(path)) !== f.sha256) throw refuse('sha256 mismatch');
    }
  }
}

/** The manifest of the release in `dir`, or why it cannot be read (ReleaseRefused, named by its directory). */
export async function checkedManifest(dir: string): Promise<Manifest> {
  const id = basename(dir);
  const text = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new ReleaseRefused(
      id,
      e.code === 'ENOENT' ? 'manifest.json is missing' : `manifest.json cannot be read (${e.code ?? 'error'})`,
    );
  });
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new ReleaseRefused(id, 'manifest.json is not valid JSON');
  }
  if (
    typeof manifest?.releaseId !== 'string' ||
    typeof manifest.createdAt !== 'string' ||
    typeof manifest.tables !== 'object' ||
    manifest.tables === null
  ) {
    throw new ReleaseRefused(id, 'manifest.json has no releaseId, createdAt or tables');
  }
  // Pins, links and lake/current name a release by its folder (`dir` may be reached through lake/current): one whose
  // manifest says another id is not that release.
  const folder = basename(await realpath(dir));
  if (manifest.releaseId !== folder)
    throw new ReleaseRefused(
      folder,
      `its folder is named ${folder} but its manifest.json says release ${manifest.releaseId}`,
    );
  return manifest;
}

export class Release {
  /** Release files hashed by this process (a count of verification work, for tests and the bench). */
  static filesHashed = 0;
  /** Releases opened by this process (a count of open work: DuckDB instances, footers read). */
  static opened = 0;

  private warming: Promise<void> | null = null;
  private refs = 0;
  private retired = false;
  private closed = false;

  private constructor(
    readonly id: string,
    readonly dir: string,
    readonly manifest: Manifest,
    readonly settings: ReleaseSettings,
    readonly pool: Pool,
    private readonly instance: DuckDBInstance,
    /** Where DuckDB spills what outgrows its memory limit: the release's own directory under the OS's, not the cwd. */
    readonly spillDir: string,
  ) {}

  /**
   * Opens and verifies the release in `dir`; throws ReleaseRefused saying what is wrong with it. `hashed`: its files'
   * sha256 were already checked by this process (sizes and row counts still are).
   */
  static async open(dir: string, settings: ReleaseSettings, hashed = false): Promise<Release> {
    const manifest = await checkedManifest(dir);
    // Index and query must agree: a release analysed by another version of core/text/analysis.ts is not served.
    const built = manifest.analysis?.version;
    if (built !== ANALYSIS.version)
      throw new ReleaseRefused(
        manifest.releaseId,
        `built with text analysis ${built ?? 'unknown'}, this server uses ${ANALYSIS.version}; rebuild it with \`make lake\``,
      );
    // Searches rank from the postings stores (src/engine/rank.ts): a release built before them cannot be searched.
    const stores = COLLECTIONS.map((c) => postingsStoreFile(c).replace(/\.bin$/, ''));
    const lacking = stores.filter((name) => !manifest.tables[name]);
    if (lacking.length)
      throw new ReleaseRefused(
        manifest.releaseId,
        `built without ${lacking.join(', ')} (schema ${manifest.schemaVersion ?? 'unknown'}); rebuild it with \`make lake\``,
      );
    await verifyFiles(dir, manifest, hashed);
    const spillDir = await spillDirs.make(manifest.releaseId);
    const instance = await DuckDBInstance.create(':memory:', {
      threads: String(settings.duckdbThreads ?? 2),
      memory_limit: '1GB',
      temp_directory: spillDir,
    }).catch((e) => {
      spillDirs.remove(spillDir);
      throw e;
    });
    let pool: Pool;
    const setup = await instance.connect();
    try {
      // Release files never change once published, so their Parquet footers are parsed once, not on every query.
      await setup.run('LOAD parquet; SET GLOBAL parquet_metadata_cache = true');
      for (const [name, table] of Object.entries(manifest.tables)) {
        if (!table.files.every((f) => f.path.endsWith('.parquet'))) continue; // a text store, read by offset (src/engine/texts.ts)
        // Reading the footers proves each file is Parquet and holds the rows the manifest promises. DuckDB's message
        // names server paths and SQL: the reason names the table and the file instead.
        const rows = await (async () => {
          await setup.run(viewSql(dir, name, table.files));
          return Number(
            (
              await setup.runAndReadAll(
                `SELECT coalesce(sum(num_rows), 0)::BIGINT FROM parquet_file_metadata([${table.files.map((f) => sqlString(join(dir, f.path))).join(', ')}])`,
              )
            ).getRows()[0][0],
          );
        })().catch((e: Error) => {
          const file = table.files.find((f) => e.message.includes(join(dir, f.path)));
          throw new ReleaseRefused(
            manifest.releaseId,
            `table ${name}: ${file ? file.path : 'its files'} cannot be read as Parquet`,
          );
        });
        if (rows !== table.rows)
          throw new ReleaseRefused(manifest.releaseId, `table ${name}: row count ${rows} vs manifest ${table.rows}`);
      }
      setup.closeSync();
      pool = await Pool.open(instance, settings.poolSize, settings.queryTimeoutMs);
    } catch (e) {
      setup.closeSync();
      instance.closeSync();
      spillDirs.remove(spillDir);
      throw e;
    }
    Release.opened++;
    const release = new Release(manifest.releaseId, dir, manifest, settings, pool, instance, spillDir);
    return release;
  }

  /** Runs the release's warm-up (`ReleaseSettings.warm`) once; settles when it has, whatever its outcome. */
  warmed(): Promise<void> {
    this.warming ??= this.settings.warm
      ? this.settings.warm(this).then(
          () => {},
          () => {},
        )
      : Promise.resolve();
    return this.warming;
  }

  private readonly memos = new Map<string, { value: Promise<unknown>; dispose?: (v: unknown) => void }>();

  /**
   * Something derived once per release (a file handle, an in-memory table), disposed when the release closes; made as
   * shared work (src/lake/pool.ts `shared`), not under the limits of the request that asked first: every later one
   * shares it. The release is held
   * while it is made: outliving that request, the work must not outlive the release's pool.
   */
  memo<T>(key: string, make: () => Promise<T>, dispose?: (value: T) => void): Promise<T> {
    let m = this.memos.get(key);
    if (!m) {
      const value = shared(make);
      this.hold();
      void value.catch(() => this.memos.delete(key)).finally(() => this.drop());
      m = { value, dispose: dispose as ((v: unknown) => void) | undefined }; // called with this memo's own value
      this.memos.set(key, m);
    }
    return m.value as Promise<T>;
  }

  has(table: string): boolean {
    return table in this.manifest.tables;
  }

  /** Whether it can still answer queries (false once closed). */
  get open(): boolean {
    return !this.closed;
  }

  hold(): this {
    this.refs++;
    return this;
  }

  /** Lets go of one hold. Never below zero: a second drop for one hold must not close it under a later request. */
  drop(): void {
    if (this.refs === 0) return;
    this.refs--;
    if (this.retired && this.refs === 0) this.close();
  }

  /** Stops taking new requests; closes once the ones in flight are done. */
  retire(): void {
    this.retired = true;
    if (this.refs === 0) this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const m of this.memos.values()) if (m.dispose) void m.value.then(m.dispose, () => {});
    this.pool.close();
    // With a query still stuck inside DuckDB, closing the instance would block the process until it ends: leave it.
    if (this.pool.abandoned > 0) return;
    this.instance.closeSync();
    spillDirs.remove(this.spillDir);
  }
}

/** The spill folders of this process's open releases: removed on close, and on exit whatever is still open. */
const spillDirs = new (class {
  private readonly live = new Set<string>();
  private onExit = false;

  async make(releaseId: string): Promise<string> {
    if (!this.onExit) process.once('exit', () => this.removeAll());
    this.onExit = true;
    const dir = await mkdtemp(join(tmpdir(), `board-records-${releaseId}-`));
    this.live.add(dir);
    return dir;
  }

  remove(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
    this.live.delete(dir);
  }

  private removeAll(): void {
    for (const dir of this.live) rmSync(dir, { recursive: true, force: true });
    this.live.clear();
  }
})();
