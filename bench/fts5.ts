// The reference engine: SQLite FTS5 with bm25() over the same indexed page texts as the release, built from the
// release's pages Parquet. Tokenizer as close to core/text/analysis.ts as FTS5 allows: porter over unicode61 with
// diacritics removed (digits are kept by unicode61), and digit groups joined in the text beforehand
// (`$2,237,020` → `2237020`) as the analyser does. Both index stopwords with their positions, so a quoted phrase
// matches alike, stopwords included (FTS5 stems them, ours keeps them as printed: only `"does"`-like stopwords differ).
// FTS5 also scores stopwords and counts them in document length where ours does neither, and uses
// idf = ln((N - n + 0.5) / (n + 0.5)) floored near zero where ours adds 1 inside log10, so common-term rankings differ.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';

import { terms, words } from '../core/text/analysis.ts';

export type Fts = Database.Database;

export interface PageRow {
  page_id: string;
  year: number;
  kind: string;
  text: string;
}

/** The pages FTS5 (and the JavaScript references, references.ts) index: the indexed ones, digit groups joined. */
export async function readPages(releaseDir: string): Promise<PageRow[]> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll(
      `SELECT page_id, year::INTEGER AS year, kind, text FROM read_parquet('${join(releaseDir, 'pages', '*', '*.parquet')}', hive_partitioning = true) WHERE indexed ORDER BY page_id`,
    );
    const rows = reader.getRowObjectsJson() as unknown as PageRow[];
    for (const r of rows) r.text = r.text.replace(/(\d),(?=\d{3}\b)/g, '$1');
    return rows;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

export async function buildFts(releaseDir: string, file: string): Promise<{ db: Fts; pages: number; ms: number }> {
  const started = performance.now();
  rmSync(file, { force: true });
  const rows = await readPages(releaseDir);
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE VIRTUAL TABLE pages_fts USING fts5(text, page_id UNINDEXED, year UNINDEXED, kind UNINDEXED,
           tokenize = 'porter unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO pages_fts (text, page_id, year, kind) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const r of rows) insert.run(r.text, r.page_id, r.year, r.kind);
  })();
  db.exec(`INSERT INTO pages_fts (pages_fts) VALUES ('optimize')`);
  return { db, pages: rows.length, ms: performance.now() - started };
}

/**
 * Our query syntax (words OR'ed, `"quoted phrases"` required) as an FTS5 MATCH expression: stopwords dropped outside
 * quotes, a phrase passed whole, stopwords included, as ours matches it.
 */
export function ftsMatch(q: string): string {
  const parts: string[] = [];
  const phrases: string[] = [];
  const rest = q.replace(/"([^"]*)"/g, (_, p: string) => {
    const ws = p.match(/[\p{L}\p{N}]+/gu) ?? [];
    if (ws.length) phrases.push(`"${ws.join(' ')}"`);
    return ' ';
  });
  for (const w of words(rest)) if (terms(w).length) parts.push(`"${w}"`);
  // Ours: a phrase is a filter, and every query term adds to the score; FTS5: the phrases AND'ed, other words OR'ed.
  if (phrases.length)
    return phrases.join(' AND ') + (parts.length ? ` AND (${[...phrases, ...parts].join(' OR ')})` : '');
  return parts.join(' OR ');
}

export interface FtsQuery {
  q: string;
  year?: number;
  kind?: string;
}

export function ftsSearch(db: Fts, f: FtsQuery, limit = 20): string[] {
  const where = ['pages_fts MATCH ?'];
  const params: unknown[] = [ftsMatch(f.q)];
  if (f.year !== undefined) {
    where.push('year = ?');
    params.push(f.year);
  }
  if (f.kind) {
    where.push('kind = ?');
    params.push(f.kind);
  }
  const sql = `SELECT page_id FROM pages_fts WHERE ${where.join(' AND ')} ORDER BY bm25(pages_fts), page_id LIMIT ${limit}`;
  return db
    .prepare(sql)
    .pluck()
    .all(...params) as string[];
}
