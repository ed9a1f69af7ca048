// Adds page embeddings to an already published release, as a new release (content-addressed like any other): the
// old release's files are copied, `embedPages` runs over its pages, and the manifest gains the two tables and its
// `embeddings` entry. Used by the tests and the judged benchmark, and by hand on a lake built before the stage was
// wired into build.ts: `node --import tsx pipelines/embed/attach.ts [lake]` (EMBEDDING_URL/EMBEDDING_MODEL for an endpoint).
import { cp, rm, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

import { embeddingFromEnv } from '../../core/config.ts';
import { OpenAIEmbedder } from '../../core/embed/openai.ts';
import type { Embedder } from '../../core/embed/provider.ts';
import {
  CHECKSUMS_FILE,
  currentLink,
  type EmbeddingsEntry,
  type Manifest,
  MANIFEST_FILE,
  type ManifestFile,
  readManifest,
  releaseDir,
  sha256Of,
  tablesOf,
} from '../../core/lake/format.ts';
import { releaseIdOf } from '../../core/lake/ids.ts';
import { sqlString } from '../../core/sql.ts';
import { publish, stagingDir, writeChecksums, writeJson } from '../publish/release.ts';
import { byDocument, type DocumentInput, type ItemInput, type PageInput } from './passages.ts';
import { type EmbedOptions, embedPages } from './stage.ts';

export interface Attached {
  releaseId: string;
  dir: string;
  embeddings: EmbeddingsEntry;
  ms: number;
}

export async function attachEmbeddings(
  source: string,
  lake: string,
  opts: EmbedOptions & { makeCurrent?: boolean } = {},
): Promise<Attached> {
  const started = performance.now();
  const manifest = await readManifest(source);
  const staged = await stagingDir(lake);
  try {
    for (const [name, t] of Object.entries(manifest.tables)) {
      if (name === 'page_embeddings' || name === 'embedding_terms') continue;
      for (const f of t.files) await cp(join(source, f.path), join(staged, f.path), { recursive: true });
    }
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const db = await instance.connect();
    const embeddings = await embedPages(db, staged, await releaseDocuments(db, source), opts);
    const files: ManifestFile[] = Object.values(manifest.tables)
      .flatMap((t) => t.files)
      .filter((f) => !/^(page_embeddings|embedding_terms)\.parquet$/.test(f.path));
    for (const name of ['page_embeddings', 'embedding_terms']) {
      const path = join(staged, `${name}.parquet`);
      if (!(await stat(path).catch(() => null))) continue;
      const rows = Number(
        (await db.runAndReadAll(`SELECT count(*)::BIGINT FROM read_parquet(${sqlString(path)})`)).getRows()[0][0],
      );
      files.push({ path: relative(staged, path), sha256: await sha256Of(path), bytes: (await stat(path)).size, rows });
    }
    db.closeSync();
    instance.closeSync();
    const releaseId = releaseIdOf(files);
    await writeChecksums(staged, files);
    await writeJson(join(staged, MANIFEST_FILE), {
      ...manifest,
      releaseId,
      embeddings,
      tables: tablesOf(files),
      checksums: CHECKSUMS_FILE,
    } satisfies Manifest);
    await publish(lake, staged, releaseId, opts.makeCurrent ?? true);
    return { releaseId, dir: releaseDir(lake, releaseId), embeddings, ms: performance.now() - started };
  } catch (e) {
    await rm(staged, { recursive: true, force: true });
    throw e;
  }
}

/** A release's documents: pages and item blocks, grouped by document. */
export async function releaseDocuments(db: DuckDBConnection, source: string): Promise<DocumentInput[]> {
  const read = async <T>(table: string, columns: string, order: string) =>
    (
      await db.runAndReadAll(
        `SELECT ${columns} FROM read_parquet(${sqlString(join(source, table, '*', '*.parquet'))}, hive_partitioning = true) ORDER BY ${order}`,
      )
    ).getRowObjectsJson() as unknown as T[];
  const pages = await read<PageInput>(
    'pages',
    'page_id, document_id, year::INTEGER AS year, kind, text, indexed',
    'document_id, page',
  );
  const items = await read<ItemInput>(
    'items',
    'document_id, start_page::INTEGER AS start_page, end_page::INTEGER AS end_page, title, long_title, text',
    'document_id, sequence',
  );
  const docs: DocumentInput[] = [];
  for await (const doc of byDocument(iterate(pages), iterate(items))) docs.push(doc);
  return docs;
}

async function* iterate<T>(rows: T[]): AsyncGenerator<T> {
  yield* rows;
}

if (process.argv[1]?.endsWith('pipelines/embed/attach.ts')) {
  const lake = resolve(process.argv[2] || process.env.LAKE || 'lake');
  const settings = embeddingFromEnv(process.env);
  const provider: Embedder | null = settings ? new OpenAIEmbedder(settings) : null;
  const current = currentLink(lake);
  attachEmbeddings(current, lake, { provider, previousReleaseDir: current })
    .then((r) =>
      process.stderr.write(
        `release ${r.releaseId}: ${r.embeddings.model}, ${r.embeddings.passages} passages (${r.embeddings.reused} reused) in ${Math.round(r.ms)} ms, now current\n`,
      ),
    )
    .catch((e) => {
      process.stderr.write(`embed: ${(e as Error).stack}\n`);
      process.exit(1);
    });
}
