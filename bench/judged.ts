// The judged set (bench/judged/queries.json): queries over the real corpus worded differently from the pages that
// answer them, with those pages marked. nDCG@10 (binary gains) and recall@20 of /api/search for mode=lexical and
// mode=hybrid, measured through a running server.
//
//   judgedMetrics(url)      → metrics against a server whose lake has page embeddings
//   judgedLake()            → a lake with the real-corpus fixture release plus embeddings (built once, cached)
//   node --import tsx bench/judged.ts   → both, printed
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeKey } from '../pipelines/input-key.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface JudgedQuery { id: string; query: string; about: string; relevant: string[] }
export interface ModeMetrics { ndcg10: number; recall20: number }
export interface JudgedResult {
  queries: number;
  embeddingModel: string | null;
  lexical: ModeMetrics;
  hybrid: ModeMetrics;
  /** Queries whose hybrid request fell back to lexical (with the reason). */
  fallbacks: { id: string; reason: string }[];
  perQuery: { id: string; query: string; lexical: ModeMetrics; hybrid: ModeMetrics }[];
}

export function loadJudged(path = join(ROOT, 'bench', 'judged', 'queries.json')): JudgedQuery[] {
  return JSON.parse(readFileSync(path, 'utf8')).queries as JudgedQuery[];
}

/** nDCG@k with binary gains; the ideal ranking puts every relevant page first. */
export function ndcgAt(ranked: string[], relevant: Set<string>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => { if (relevant.has(id)) dcg += 1 / Math.log2(i + 2); });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}

export function recallAt(ranked: string[], relevant: Set<string>, k: number): number {
  return relevant.size ? ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size : 0;
}

const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10000) / 10000 : 0);

/** Runs every judged query against `/api/search` at `baseUrl` in both modes. */
export async function judgedMetrics(baseUrl: string, queries: JudgedQuery[] = loadJudged()): Promise<JudgedResult> {
  const perQuery: JudgedResult['perQuery'] = [];
  const fallbacks: JudgedResult['fallbacks'] = [];
  let model: string | null = null;
  for (const q of queries) {
    const rel = new Set(q.relevant);
    const m = {} as Record<'lexical' | 'hybrid', ModeMetrics>;
    for (const mode of ['lexical', 'hybrid'] as const) {
      const res = await fetch(`${baseUrl}/api/search?${new URLSearchParams({ q: q.query, mode, limit: '20' })}`);
      if (!res.ok) throw new Error(`${q.id} ${mode}: HTTP ${res.status}`);
      const body = await res.json() as { results: { id: string }[]; retrieval: { used: string; embeddingModel: string | null; fallbackReason: string | null } };
      if (mode === 'hybrid') {
        if (body.retrieval.used !== 'hybrid') fallbacks.push({ id: q.id, reason: body.retrieval.fallbackReason ?? '' });
        model ??= body.retrieval.embeddingModel;
      }
      const ids = body.results.map((r) => r.id);
      m[mode] = { ndcg10: ndcgAt(ids, rel, 10), recall20: recallAt(ids, rel, 20) };
    }
    perQuery.push({ id: q.id, query: q.query, ...m });
  }
  const agg = (mode: 'lexical' | 'hybrid') => ({ ndcg10: mean(perQuery.map((p) => p[mode].ndcg10)), recall20: mean(perQuery.map((p) => p[mode].recall20)) });
  return { queries: queries.length, embeddingModel: model, lexical: agg('lexical'), hybrid: agg('hybrid'), fallbacks, perQuery };
}

/**
 * A lake (`.cache/judged-lake`) whose current release is the real-corpus test fixture plus built-in (LSA) page
 * embeddings; rebuilt only when the fixture or the embedding code changes. Returns the lake and how long embedding took.
 */
export async function judgedLake(): Promise<{ lake: string; releaseId: string; embedMs: number | null }> {
  const { fixtureRelease, FIXTURE_LAKE } = await import('../test/fixture.ts');
  const { attachEmbeddings } = await import('../pipelines/embed/attach.ts');
  const { pointCurrent } = await import('../pipelines/publish/release.ts');
  const source = await fixtureRelease();
  const lake = join(ROOT, '.cache', 'judged-lake');
  const key = join(lake, `key-${source}-${codeKey(['core/embed', 'core/lake', 'pipelines/embed', 'pipelines/publish', 'pipelines/store'])}`);
  if (existsSync(key)) {
    const id = (await readFile(key, 'utf8')).trim();
    if (existsSync(join(lake, 'releases', id, 'manifest.json'))) {
      await pointCurrent(lake, id);
      return { lake, releaseId: id, embedMs: null };
    }
  }
  await mkdir(lake, { recursive: true });
  const r = await attachEmbeddings(await realpath(join(FIXTURE_LAKE, 'releases', source)), lake, { quiet: true });
  await writeFile(key, r.releaseId);
  return { lake, releaseId: r.releaseId, embedMs: r.ms };
}

export function formatJudged(r: JudgedResult): string {
  const lines = [
    `judged set: ${r.queries} queries, model ${r.embeddingModel ?? '(none)'}`,
    `             nDCG@10   recall@20`,
    `  lexical    ${r.lexical.ndcg10.toFixed(4)}    ${r.lexical.recall20.toFixed(4)}`,
    `  hybrid     ${r.hybrid.ndcg10.toFixed(4)}    ${r.hybrid.recall20.toFixed(4)}`,
  ];
  if (r.fallbacks.length) lines.push(`  hybrid fell back on ${r.fallbacks.length}: ${r.fallbacks.map((f) => `${f.id} (${f.reason})`).join('; ')}`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('bench/judged.ts')) {
  const { start } = await import('../src/server.ts');
  const { testConfig } = await import('../test/fixture.ts');
  const { lake, releaseId, embedMs } = await judgedLake();
  const running = await start(testConfig({ lakeDir: lake, contractChecks: false }));
  try {
    const r = await judgedMetrics(running.url);
    process.stdout.write(`release ${releaseId}${embedMs !== null ? ` (embeddings added in ${Math.round(embedMs)} ms)` : ''}\n${formatJudged(r)}\n`);
    if (process.argv.includes('--per-query')) {
      for (const p of r.perQuery) process.stdout.write(`  ${p.id} lex ${p.lexical.ndcg10.toFixed(2)}/${p.lexical.recall20.toFixed(2)} hyb ${p.hybrid.ndcg10.toFixed(2)}/${p.hybrid.recall20.toFixed(2)}  ${p.query}\n`);
    }
  } finally {
    await running.close();
  }
}
