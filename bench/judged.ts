// The judged set (bench/judged/queries.json, method in bench/judged/README.md): realistic queries over the real corpus
// in six kinds, each with graded judgments (0–3) of the pages that answer it, marked by reading the page texts.
// nDCG@10 (graded gains), recall@20 and MRR, per kind and overall, for mode=lexical and mode=hybrid through a running
// server over the fixture release (plus page embeddings), and for SQLite FTS5 over the same page texts (bench/fts5.ts).
//
//   judgedMetrics(url, queries?, fts?) → metrics against a server whose lake has page embeddings (FTS5 when given)
//   judgedLake()                      → a lake with the real-corpus fixture release plus embeddings (built once, cached)
//   runJudged()                       → both, with FTS5, as `make bench` reports it
//   node --import tsx bench/judged.ts [--per-query] [--kind number] [--out FILE]   → printed, and JSON written
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { codeKey } from '../pipelines/input-key.ts';
import { buildFts, type Fts, ftsSearch } from './fts5.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const KINDS = ['topical', 'paraphrase', 'entity', 'number', 'quoted', 'question'] as const;
export type Kind = (typeof KINDS)[number];
export const ENGINES = ['lexical', 'hybrid', 'fts5'] as const;
export type Engine = (typeof ENGINES)[number];
export type Grade = 0 | 1 | 2 | 3;

export interface JudgedQuery {
  id: string;
  kind: Kind;
  query: string;
  /** What the query is about: the matter (file numbers and titles) or the fact asked for. */
  about: string;
  /** Every pooled page judged, by page id; pages not listed count as 0. */
  judgments: Record<string, Grade>;
}
export interface Metrics {
  ndcg10: number;
  recall20: number;
  mrr: number;
}
export interface JudgedResult {
  queries: number;
  embeddingModel: string | null;
  lexical: Metrics;
  hybrid: Metrics;
  fts5: Metrics | null;
  perKind: Record<Kind, { queries: number } & Partial<Record<Engine, Metrics>>>;
  /** Queries whose hybrid request fell back to lexical (with the reason). */
  fallbacks: { id: string; reason: string }[];
  /** Per kind: hybrid queries whose top 10 the fusion reordered, and of those how many ranked better or worse than
   * lexical by nDCG@10 (the gate: the fusion stays out when lexical is sure, docs/hybrid.md). */
  fusion: Record<Kind, { hybrid: number; reordered: number; better: number; worse: number }>;
  perQuery: ({ id: string; kind: Kind; query: string } & Partial<Record<Engine, Metrics>> & {
      lexical: Metrics;
      hybrid: Metrics;
    })[];
}

export const JUDGED_FILE = join(ROOT, 'bench', 'judged', 'queries.json');

export function loadJudged(path = JUDGED_FILE): JudgedQuery[] {
  return JSON.parse(readFileSync(path, 'utf8')).queries as JudgedQuery[];
}

/** Gain of a grade: 2^g − 1 (a grade-3 page is worth 7, a mention 1), the usual graded nDCG. */
const gain = (g: number) => 2 ** g - 1;

/** nDCG@k with graded gains; the ideal ranking orders every judged page by grade. */
export function ndcgAt(ranked: string[], grades: Record<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    dcg += gain(grades[id] ?? 0) / Math.log2(i + 2);
  });
  const ideal = Object.values(grades)
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}

/** Share of the pages graded 2 or 3 (the matter's own pages) found in the top k. */
export function recallAt(ranked: string[], grades: Record<string, number>, k: number): number {
  const relevant = Object.keys(grades).filter((id) => grades[id] >= 2);
  const top = new Set(ranked.slice(0, k));
  return relevant.length ? relevant.filter((id) => top.has(id)).length / relevant.length : 0;
}

/** 1 / rank of the first grade-3 page within the ranking (20 pages are asked for), 0 when none is there. */
export function reciprocalRank(ranked: string[], grades: Record<string, number>): number {
  const i = ranked.findIndex((id) => grades[id] === 3);
  return i < 0 ? 0 : 1 / (i + 1);
}

export function score(ranked: string[], grades: Record<string, number>): Metrics {
  return {
    ndcg10: ndcgAt(ranked, grades, 10),
    recall20: recallAt(ranked, grades, 20),
    mrr: reciprocalRank(ranked, grades),
  };
}

const mean = (xs: number[]) =>
  xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10000) / 10000 : 0;
const average = (ms: Metrics[]): Metrics => ({
  ndcg10: mean(ms.map((m) => m.ndcg10)),
  recall20: mean(ms.map((m) => m.recall20)),
  mrr: mean(ms.map((m) => m.mrr)),
});

export interface SearchAnswer {
  ids: string[];
  used: string;
  embeddingModel: string | null;
  fallbackReason: string | null;
}

/** The top `limit` page ids of `/api/search` at `baseUrl` in one mode. */
export async function searchIds(
  baseUrl: string,
  q: string,
  mode: 'lexical' | 'hybrid',
  limit = 20,
): Promise<SearchAnswer> {
  const res = await fetch(`${baseUrl}/api/search?${new URLSearchParams({ q, mode, limit: String(limit) })}`);
  if (!res.ok) throw new Error(`${mode} '${q}': HTTP ${res.status}`);
  const body = (await res.json()) as {
    results: { id: string }[];
    retrieval: { used: string; embeddingModel: string | null; fallbackReason: string | null };
  };
  return { ids: body.results.map((r) => r.id), ...body.retrieval };
}

/** Runs every judged query against `/api/search` at `baseUrl` in both modes, and against FTS5 when given. */
export async function judgedMetrics(
  baseUrl: string,
  queries: JudgedQuery[] = loadJudged(),
  fts?: Fts,
): Promise<JudgedResult> {
  const perQuery: JudgedResult['perQuery'] = [];
  const fallbacks: JudgedResult['fallbacks'] = [];
  const reordered = new Map<string, number | null>();
  let model: string | null = null;
  for (const q of queries) {
    const lexical = await searchIds(baseUrl, q.query, 'lexical');
    const hybrid = await searchIds(baseUrl, q.query, 'hybrid');
    if (hybrid.used !== 'hybrid') fallbacks.push({ id: q.id, reason: hybrid.fallbackReason ?? '' });
    model ??= hybrid.embeddingModel;
    // Moved within the top 10 (what nDCG@10 reads): 0 where the exact-match gate kept the lexical order.
    reordered.set(
      q.id,
      hybrid.used === 'hybrid' ? hybrid.ids.slice(0, 10).filter((id, i) => lexical.ids[i] !== id).length : null,
    );
    perQuery.push({
      id: q.id,
      kind: q.kind,
      query: q.query,
      lexical: score(lexical.ids, q.judgments),
      hybrid: score(hybrid.ids, q.judgments),
      ...(fts ? { fts5: score(ftsSearch(fts, { q: q.query }), q.judgments) } : {}),
    });
  }
  const engines = ENGINES.filter((e) => e !== 'fts5' || fts);
  const perKind = {} as JudgedResult['perKind'];
  const fusion = {} as JudgedResult['fusion'];
  for (const kind of KINDS) {
    const of = perQuery.filter((p) => p.kind === kind);
    perKind[kind] = { queries: of.length };
    if (of.length) for (const e of engines) perKind[kind][e] = average(of.map((p) => p[e]!));
    const moved = of.filter((p) => (reordered.get(p.id) ?? 0) > 0);
    fusion[kind] = {
      hybrid: of.filter((p) => reordered.get(p.id) !== null).length,
      reordered: moved.length,
      better: moved.filter((p) => p.hybrid.ndcg10 > p.lexical.ndcg10 + 1e-9).length,
      worse: moved.filter((p) => p.hybrid.ndcg10 < p.lexical.ndcg10 - 1e-9).length,
    };
  }
  return {
    queries: queries.length,
    embeddingModel: model,
    lexical: average(perQuery.map((p) => p.lexical)),
    hybrid: average(perQuery.map((p) => p.hybrid)),
    fts5: fts ? average(perQuery.map((p) => p.fts5!)) : null,
    perKind,
    fallbacks,
    fusion,
    perQuery,
  };
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
  const key = join(
    lake,
    `key-${source}-${codeKey(['core/embed', 'core/lake', 'pipelines/embed', 'pipelines/publish', 'pipelines/store'])}`,
  );
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

/** A real server over the judged lake and an FTS5 index of the same release's page texts, for `use`. */
export interface JudgedEngines {
  url: string;
  fts: Fts;
  releaseId: string;
  releaseDir: string;
}

export async function withJudgedEngines<T>(use: (e: JudgedEngines) => Promise<T>): Promise<T> {
  const { start } = await import('../src/server.ts');
  const { testConfig } = await import('../test/fixture.ts');
  const { lake, releaseId } = await judgedLake();
  const releaseDir = join(lake, 'releases', releaseId);
  const fts = await buildFts(releaseDir, ':memory:'); // 890 pages: nothing to keep, nothing two runs could share
  const running = await start(testConfig({ lakeDir: lake, contractChecks: false }));
  try {
    return await use({ url: running.url, fts: fts.db, releaseId, releaseDir });
  } finally {
    await running.close();
    fts.db.close();
  }
}

/** The whole judged measurement, as `make bench` reports it. */
export function runJudged(queries: JudgedQuery[] = loadJudged()): Promise<JudgedResult & { releaseId: string }> {
  return withJudgedEngines(async ({ url, fts, releaseId }) => ({
    releaseId,
    ...(await judgedMetrics(url, queries, fts)),
  }));
}

export function formatJudged(r: JudgedResult): string {
  const engines = ENGINES.filter((e) => e !== 'fts5' || r.fts5);
  const cells = (m: Metrics | undefined) =>
    m ? [m.ndcg10, m.recall20, m.mrr].map((x) => x.toFixed(2)).join(' ') : '   —';
  const lines = [
    `judged set: ${r.queries} queries, hybrid model ${r.embeddingModel ?? '(none)'}; nDCG@10 recall@20 MRR`,
    `| kind | n | ${engines.join(' | ')} |`,
    `|---|---:|${engines.map(() => '---|').join('')}`,
  ];
  for (const kind of KINDS) {
    const k = r.perKind[kind];
    if (k.queries) lines.push(`| ${kind} | ${k.queries} | ${engines.map((e) => cells(k[e])).join(' | ')} |`);
  }
  lines.push(`| overall | ${r.queries} | ${engines.map((e) => cells(r[e] ?? undefined)).join(' | ')} |`);
  const reasons = new Map<string, string[]>();
  for (const f of r.fallbacks) reasons.set(f.reason, [...(reasons.get(f.reason) ?? []), f.id]);
  for (const [reason, ids] of reasons)
    lines.push(`hybrid fell back to lexical on ${ids.length} (${ids.join(', ')}): ${reason}`);
  lines.push(
    `fusion reordered the top 10 (of the hybrid answers; nDCG@10 better/worse than lexical): ${KINDS.map((k) => {
      const f = r.fusion[k];
      return `${k} ${f.reordered}/${f.hybrid} (${f.better}+ ${f.worse}-)`;
    }).join(', ')}`,
  );
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('bench/judged.ts')) {
  const { values } = parseArgs({
    options: {
      'per-query': { type: 'boolean', default: false },
      kind: { type: 'string' },
      out: { type: 'string' },
      grades: { type: 'string' },
    },
  });
  // --grades FILE: score against another judge's grades of the same pools (bench/judged/rejudged.json).
  const regraded = values.grades
    ? (JSON.parse(readFileSync(values.grades, 'utf8')) as { grades: Record<string, Record<string, Grade>> }).grades
    : null;
  const all = loadJudged().map((q) => (regraded?.[q.id] ? { ...q, judgments: regraded[q.id] } : q));
  if (values.kind && !KINDS.includes(values.kind as Kind))
    throw new Error(`--kind: one of ${KINDS.join(', ')}; got '${values.kind}'`);
  const queries = values.kind ? all.filter((q) => q.kind === values.kind) : all;
  const started = performance.now();
  const r = await runJudged(queries);
  process.stdout.write(
    `release ${r.releaseId}, ${((performance.now() - started) / 1000).toFixed(1)} s\n${formatJudged(r)}\n`,
  );
  if (values['per-query']) {
    const m = (x?: Metrics) => (x ? `${x.ndcg10.toFixed(2)}/${x.recall20.toFixed(2)}/${x.mrr.toFixed(2)}` : '—');
    for (const p of r.perQuery)
      process.stdout.write(
        `  ${p.id} ${p.kind.padEnd(10)} lex ${m(p.lexical)} hyb ${m(p.hybrid)} fts ${m(p.fts5)}  ${p.query}\n`,
      );
  }
  // Every query's numbers go to bench/work/ (git-ignored: engineers measuring in parallel would otherwise conflict);
  // the baseline per kind is in bench/README.md. A --kind run writes only where --out says.
  const out = values.out ?? (values.kind ? null : join(ROOT, 'bench', 'work', 'judged-results.json'));
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ measuredAt: new Date().toISOString(), ...r }, null, 2) + '\n');
  }
}
