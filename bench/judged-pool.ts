// Pooling for the judged set (bench/judged/README.md): for each query, the union of the top 20 of mode=lexical,
// mode=hybrid, SQLite FTS5 and a plain substring search over the page texts, plus every page printing an item of the
// files the query is about (so a page no engine finds is still judged). Prints one block per query for the judge to
// read: each candidate page, which pools it came from, the items printed on it and the lines holding query words.
//
//   node --import tsx bench/judged-pool.ts [--in FILE] [--id q01,q02] [--full page-id]
// FILE holds `{ queries: [{ id, kind, query, about, files?: string[] }] }` (default bench/judged/queries.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { DuckDBInstance } from '@duckdb/node-api';

import { terms, words } from '../core/text/analysis.ts';
import { ftsSearch } from './fts5.ts';
import { JUDGED_FILE, searchIds, withJudgedEngines } from './judged.ts';

interface Draft {
  id: string;
  kind: string;
  query: string;
  about: string;
  files?: string[];
}
export interface Page {
  page_id: string;
  text: string;
}
export interface Item {
  document_id: string;
  file_number: string;
  start_page: number;
  end_page: number;
  title: string;
}

export async function readRelease(dir: string): Promise<{ pages: Page[]; items: Item[] }> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  const read = async <T>(sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as unknown as T[];
  const pages = await read<Page>(
    `SELECT page_id, text FROM read_parquet('${join(dir, 'pages', '*', '*.parquet')}', hive_partitioning = true) WHERE indexed ORDER BY page_id`,
  );
  const items = await read<Item>(
    `SELECT document_id, file_number, start_page::INTEGER AS start_page, end_page::INTEGER AS end_page, title FROM read_parquet('${join(dir, 'items', '*', '*.parquet')}', hive_partitioning = true)`,
  );
  conn.closeSync();
  instance.closeSync();
  return { pages, items };
}

/** Pages printing an item of one of `files`. */
export function itemPages(items: Item[], files: string[]): string[] {
  const out: string[] = [];
  for (const i of items) {
    if (!files.includes(i.file_number)) continue;
    for (let p = i.start_page; p <= i.end_page; p++) out.push(`${i.document_id}-p${p}`);
  }
  return [...new Set(out)];
}

/**
 * The substring pool: pages holding the query (quotes dropped) verbatim, case-insensitively, else those holding every
 * content word of it as a substring; most occurrences first, 20 at most.
 */
export function substringPool(pages: Page[], q: string, limit = 20): string[] {
  const whole = q.replace(/"/g, '').trim().toLowerCase();
  const count = (text: string, s: string) => text.split(s).length - 1;
  let hits = pages.map((p) => ({ id: p.page_id, n: count(p.text.toLowerCase(), whole) })).filter((h) => h.n > 0);
  if (hits.length === 0) {
    const ws = words(whole).filter((w) => terms(w).length > 0);
    hits = pages
      .map((p) => {
        const t = p.text.toLowerCase();
        const ns = ws.map((w) => count(t, w));
        return { id: p.page_id, n: ns.every((n) => n > 0) ? ns.reduce((a, b) => a + b, 0) : 0 };
      })
      .filter((h) => h.n > 0);
  }
  return hits
    .sort((a, b) => b.n - a.n || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((h) => h.id);
}

if (process.argv[1]?.endsWith('bench/judged-pool.ts')) {
  const { values } = parseArgs({
    options: { in: { type: 'string' }, id: { type: 'string' }, full: { type: 'string' } },
  });
  const drafts = (JSON.parse(readFileSync(values.in ?? JUDGED_FILE, 'utf8')).queries as Draft[]).filter(
    (d) => !values.id || values.id.split(',').includes(d.id),
  );
  await withJudgedEngines(async ({ url, fts, releaseDir }) => {
    const { pages, items } = await readRelease(releaseDir);
    const text = new Map(pages.map((p) => [p.page_id, p.text]));
    if (values.full) {
      process.stdout.write(`${text.get(values.full) ?? '(no such page)'}\n`);
      return;
    }
    for (const d of drafts) {
      const pools: Record<string, string[]> = {
        L: (await searchIds(url, d.query, 'lexical')).ids,
        H: (await searchIds(url, d.query, 'hybrid')).ids,
        F: ftsSearch(fts, { q: d.query }),
        S: substringPool(pages, d.query),
        I: itemPages(items, d.files ?? []),
      };
      const ids = [...new Set(Object.values(pools).flat())].sort();
      const ws = words(d.query.replace(/"/g, ''))
        .filter((w) => terms(w).length > 0 && w.length > 2)
        .map((w) => w.toLowerCase());
      process.stdout.write(`\n=== ${d.id} [${d.kind}] ${d.query}\n    about: ${d.about}; ${ids.length} pooled\n`);
      for (const id of ids) {
        const from = Object.entries(pools)
          .filter(([, v]) => v.includes(id))
          .map(([k, v]) => (k === 'I' ? k : `${k}${v.indexOf(id) + 1}`))
          .join(',');
        const [doc, page] = [id.replace(/-p\d+$/, ''), Number(id.replace(/.*-p/, ''))];
        const on = items
          .filter((i) => i.document_id === doc && i.start_page <= page && i.end_page >= page)
          .map((i) => `${i.file_number} ${i.title.slice(0, 70)}`);
        const lines = (text.get(id) ?? '')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => ws.some((w) => l.toLowerCase().includes(w)));
        process.stdout.write(
          `  ${id} (${from})\n    items: ${on.join(' | ') || '—'}\n${lines
            .slice(0, 3)
            .map((l) => `    > ${l.slice(0, 150)}\n`)
            .join('')}`,
        );
      }
    }
  });
}
