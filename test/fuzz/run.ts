// `make fuzz [N=100000]`: generated requests against a real server over the current lake; counts by status, any
// rule broken (a 5xx, a schema-invalid body, a leak) listed. Exits non-zero if anything broke.
import fc from 'fast-check';

import { configFromEnv } from '../../src/config.ts';
import { start } from '../../src/server.ts';
import { request, send } from './requests.ts';

const n = Number(process.env.N || 100000);
const seed = Number(process.env.SEED || Date.now() % 1e9);
const running = await start({ ...configFromEnv(), port: 0, contractChecks: true, log: () => {} });
const statuses = new Map<number, number>();
const problems: string[] = [];
const started = Date.now();
const samples = fc.sample(request, { seed, numRuns: n });
const CONCURRENCY = 8;
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < samples.length) {
      const i = next++;
      const { status, problem } = await send(running.url, samples[i]);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (problem && problems.length < 50) problems.push(problem);
      if ((i + 1) % 10000 === 0) process.stderr.write(`fuzz: ${i + 1}/${n}\n`);
    }
  }),
);
await running.close();
const secs = (Date.now() - started) / 1000;
console.log(`fuzz: ${n} requests (seed ${seed}) in ${secs.toFixed(1)}s`);
console.log(
  [...statuses.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, c]) => `${s}: ${c}`)
    .join('\n'),
);
const fivexx = [...statuses.entries()].filter(([s]) => s >= 500).reduce((a, [, c]) => a + c, 0);
console.log(`5xx: ${fivexx}`);
for (const p of problems) console.log(`problem: ${p}`);
process.exit(problems.length || fivexx ? 1 : 0);
