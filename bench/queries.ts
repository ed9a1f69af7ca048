// The bench's query set, derived from the release itself (so it fits any scale, and the 4-meeting smoke corpus):
// words and phrases taken from a fixed sample of page texts, classed by their document frequency in page_terms.
import { terms, words } from '../core/text/analysis.ts';
import type { Release } from '../src/lake/release.ts';

export interface SearchQuery {
  q: string;
  year?: number;
  kind?: 'agenda' | 'minutes';
}
export type SearchClass =
  'rare term' | 'common term' | 'common multi-term' | 'quoted phrase' | 'file number' | 'year+kind filtered';
export const SEARCH_CLASSES: SearchClass[] = [
  'rare term',
  'common term',
  'common multi-term',
  'quoted phrase',
  'file number',
  'year+kind filtered',
];

export interface QuerySet {
  numDocs: number;
  search: Record<SearchClass, SearchQuery[]>;
  /** Terms and their document frequency, for the record. */
  df: Record<string, number>;
  fileNumbers: string[];
  voters: string[];
  years: number[];
  pageIds: string[];
}

const spread = <T>(xs: T[], n: number): T[] =>
  xs.length <= n ? xs : Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]);

export async function deriveQueries(release: Release, perClass: number): Promise<QuerySet> {
  const rows = (sql: string, params: Parameters<typeof release.pool.rows>[1] = []) => release.pool.rows(sql, params);
  const numDocs = Number((await rows('SELECT num_docs::BIGINT AS n FROM page_stats'))[0].n);
  // A fixed sample of indexed pages (md5 order is stable across runs and DuckDB versions).
  const sample = await rows(
    `SELECT p.page_id AS id, p.text FROM pages p WHERE p.indexed ORDER BY md5(p.page_id) LIMIT 400`,
  );
  const wordDf = new Map<string, string>(); // word → its term
  const bigrams = new Map<string, number>();
  for (const { text } of sample as { text: string }[]) {
    const seen = new Set<string>();
    for (const line of text.split('\n')) {
      const ws = words(line).filter((w) => /^\p{L}{4,}$/u.test(w));
      ws.forEach((w) => {
        const t = terms(w);
        if (t.length === 1 && !wordDf.has(w)) wordDf.set(w, t[0]);
      });
      const raw = words(line);
      for (let i = 0; i + 1 < raw.length; i++) {
        const [a, b] = [raw[i], raw[i + 1]];
        if (!/^\p{L}{4,}$/u.test(a) || !/^\p{L}{4,}$/u.test(b) || terms(`${a} ${b}`).length !== 2) continue;
        const k = `${a} ${b}`;
        if (!seen.has(k)) {
          seen.add(k);
          bigrams.set(k, (bigrams.get(k) ?? 0) + 1);
        }
      }
    }
  }
  const termList = [...new Set(wordDf.values())];
  const dfRows = termList.length
    ? await rows(
        `SELECT term, df::BIGINT AS df FROM page_terms WHERE term IN (${termList.map(() => '?').join(', ')})`,
        termList,
      )
    : [];
  const df = new Map(dfRows.map((r) => [String(r.term), Number(r.df)]));
  // One word per term, in a stable order.
  const byTerm = new Map<string, string>();
  for (const [w, t] of [...wordDf].sort()) if (!byTerm.has(t)) byTerm.set(t, w);
  const cand = [...byTerm].map(([t, w]) => ({ w, t, df: df.get(t) ?? 0 })).filter((c) => c.df > 0);
  // Rare terms straight from the dictionary (the sampled pages hold few): word-like terms the analyser maps to
  // themselves, in at most 0.1% of pages, in a stable order; where the vocabulary has none that rare (the synthetic
  // generator's words all recur), the least frequent words instead (their df is in results.json).
  const rareRows = await rows(
    `SELECT term, df::BIGINT AS df FROM page_terms WHERE regexp_full_match(term, '[a-z]{5,}')
    ORDER BY greatest(df, ?), md5(term) LIMIT 200`,
    [Math.max(3, Math.floor(numDocs * 0.001))],
  );
  const rare = rareRows
    .map((r) => ({ w: String(r.term), t: String(r.term), df: Number(r.df) }))
    .filter((c) => terms(c.w).length === 1 && terms(c.w)[0] === c.t)
    .slice(0, perClass);
  const commonPool = cand
    .filter((c) => c.df >= numDocs * 0.05 && c.df <= numDocs * 0.5)
    .sort((a, b) => b.df - a.df || a.w.localeCompare(b.w));
  const common = spread(commonPool, perClass);
  const multi = Array.from({ length: perClass }, (_, i) =>
    [0, 1, 2]
      .map((j) => commonPool[(i * 3 + j * 5) % Math.max(1, commonPool.length)]?.w)
      .filter(Boolean)
      .join(' '),
  );
  const phrases = spread(
    [...bigrams]
      .filter(([, n]) => n >= 3)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k]) => k),
    perClass,
  );
  const fileNumbers = (
    await rows(
      `SELECT file_number FROM (SELECT DISTINCT file_number FROM items) ORDER BY md5(file_number) LIMIT ${perClass}`,
    )
  ).map((r) => String(r.file_number));
  const years = (
    await rows(`SELECT year::INTEGER AS year FROM pages GROUP BY year ORDER BY count(*) DESC, year LIMIT ${perClass}`)
  ).map((r) => Number(r.year));
  const voters = (
    await rows(
      `SELECT surname FROM (SELECT s.surname, count(*) AS n FROM positions p JOIN supervisors s USING (supervisor_id) GROUP BY ALL) ORDER BY n DESC, surname LIMIT ${perClass}`,
    )
  ).map((r) => String(r.surname));
  const pageIds = sample.slice(0, 50).map((r) => String(r.id));
  const search: Record<SearchClass, SearchQuery[]> = {
    'rare term': rare.map((c) => ({ q: c.w })),
    'common term': common.map((c) => ({ q: c.w })),
    'common multi-term': multi.map((q) => ({ q })),
    'quoted phrase': phrases.map((p) => ({ q: `"${p}"` })),
    'file number': fileNumbers.map((q) => ({ q })),
    'year+kind filtered': multi.map((q, i) => ({
      q,
      year: years[i % years.length],
      kind: i % 2 ? 'agenda' : 'minutes',
    })),
  };
  return {
    numDocs,
    search,
    df: Object.fromEntries([...rare, ...common].map((c) => [c.w, c.df])),
    fileNumbers,
    voters,
    years,
    pageIds,
  };
}

export function searchPath(s: SearchQuery): string {
  const u = new URLSearchParams({ q: s.q });
  if (s.year !== undefined) u.set('year', String(s.year));
  if (s.kind) u.set('kind', s.kind);
  return `/api/search?${u}`;
}
