// Two servers measured request by request, alternating (A, B, A, B …) at concurrency 1, so whatever else loads the
// machine weighs on both alike: p50/p95 of each and the ratio B/A per path. For before/after checks of a change on a
// shared machine, with both servers started by hand over their own lakes.
//   node --import tsx bench/compare.ts <baseUrlA> <baseUrlB> <paths.json> [iterations=20]   → a table on stdout
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

import { summarize } from './stats.ts';

const agent = new Agent({ keepAlive: true, maxSockets: 2 });

function timed(base: string, path: string): Promise<{ ms: number; status: number }> {
  const url = new URL(path, base);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ ms: performance.now() - t, status: res.statusCode ?? 0 }));
    })
      .on('error', reject)
      .end();
  });
}

export async function compare(a: string, b: string, paths: string[], iterations: number): Promise<string[]> {
  const lines = ['| path | A p50 | A p95 | B p50 | B p95 | B/A p50 |', '|---|---:|---:|---:|---:|---:|'];
  for (const path of paths) {
    const sa: number[] = [];
    const sb: number[] = [];
    await timed(a, path);
    await timed(b, path);
    for (let i = 0; i < iterations; i++) {
      for (const [base, samples] of (i % 2
        ? [
            [b, sb],
            [a, sa],
          ]
        : [
            [a, sa],
            [b, sb],
          ]) as [string, number[]][]) {
        const r = await timed(base, path);
        if (r.status !== 200) throw new Error(`${base}${path}: status ${r.status}`);
        samples.push(r.ms);
      }
    }
    const x = summarize(sa);
    const y = summarize(sb);
    lines.push(`| ${path.slice(0, 90)} | ${x.p50} | ${x.p95} | ${y.p50} | ${y.p95} | ${(y.p50 / x.p50).toFixed(2)} |`);
  }
  return lines;
}

if (process.argv[1]?.endsWith('bench/compare.ts')) {
  const [a, b, file, n] = process.argv.slice(2);
  const lines = await compare(a, b, JSON.parse(readFileSync(file, 'utf8')) as string[], Number(n ?? 20));
  process.stdout.write(lines.join('\n') + '\n');
  agent.destroy();
}
