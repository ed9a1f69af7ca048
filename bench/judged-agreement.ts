// Agreement between the judged set's grades and a blind re-judging of the same pooled pages (bench/judged/README.md,
// "Re-judged blind"): Cohen's kappa on the four grades (unweighted and quadratic-weighted), and on "answers the
// query" (grade 2–3) against not, per kind and overall, with the confusion matrix.
//
//   node --import tsx bench/judged-agreement.ts [--rejudged bench/judged/rejudged.json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

import { JUDGED_FILE, KINDS, loadJudged } from './judged.ts';

export const REJUDGED_FILE = join(dirname(JUDGED_FILE), 'rejudged.json');

type Pairs = [number, number][];

/** Cohen's kappa of paired labels in 0..k-1; weights: 'none', or 'quadratic' (disagreement by squared distance). */
export function kappa(pairs: Pairs, k: number, weights: 'none' | 'quadratic' = 'none'): number {
  const n = pairs.length;
  if (n === 0) return NaN;
  const w = (i: number, j: number) => (weights === 'none' ? (i === j ? 0 : 1) : ((i - j) / (k - 1)) ** 2);
  const rows = new Array(k).fill(0);
  const cols = new Array(k).fill(0);
  let observed = 0;
  for (const [a, b] of pairs) {
    rows[a]++;
    cols[b]++;
    observed += w(a, b);
  }
  let expected = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) expected += (w(i, j) * rows[i] * cols[j]) / n;
  return expected === 0 ? 1 : 1 - observed / expected;
}

export function confusion(pairs: Pairs, k: number): number[][] {
  const m = Array.from({ length: k }, () => new Array(k).fill(0));
  for (const [a, b] of pairs) m[a][b]++;
  return m;
}

if (process.argv[1]?.endsWith('bench/judged-agreement.ts')) {
  const { values } = parseArgs({ options: { rejudged: { type: 'string' } } });
  const blind = (
    JSON.parse(readFileSync(values.rejudged ?? REJUDGED_FILE, 'utf8')) as {
      grades: Record<string, Record<string, number>>;
    }
  ).grades;
  const byKind = new Map<string, Pairs>();
  let missing = 0;
  for (const q of loadJudged()) {
    for (const [page, grade] of Object.entries(q.judgments)) {
      const other = blind[q.id]?.[page];
      if (other === undefined) {
        missing++;
        continue;
      }
      byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), [grade, other]]);
    }
  }
  const row = (name: string, pairs: Pairs) => {
    const binary: Pairs = pairs.map(([a, b]) => [a >= 2 ? 1 : 0, b >= 2 ? 1 : 0]);
    const same = pairs.filter(([a, b]) => a === b).length;
    return `${name.padEnd(11)} ${String(pairs.length).padStart(5)}  ${((100 * same) / pairs.length).toFixed(1).padStart(5)}%  ${kappa(pairs, 4).toFixed(3)}  ${kappa(pairs, 4, 'quadratic').toFixed(3)}  ${kappa(binary, 2).toFixed(3)}`;
  };
  const lines = ['kind        pages  equal  kappa  kappa(quadratic)  kappa(2-3 vs 0-1)'];
  for (const kind of KINDS) if (byKind.has(kind)) lines.push(row(kind, byKind.get(kind)!));
  const all = [...byKind.values()].flat();
  lines.push(row('all', all));
  lines.push(`confusion (rows: the set's grade 0-3, columns: the blind judge's): ${JSON.stringify(confusion(all, 4))}`);
  if (missing) lines.push(`${missing} judged pages the blind judge did not grade`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
