// A small closed-loop HTTP load generator, run as its own process (the fallback when Debian's wrk is missing, and the
// smoke test's load): N keep-alive connections, each sending the next path of a shared rotation as soon as the last
// answer is read.
//   node --import tsx bench/load.ts <baseUrl> <paths.json> <connections> <seconds>   → one JSON line on stdout
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

import { summarize } from './stats.ts';

export interface LoadResult {
  tool: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
}

async function main() {
  const [base, pathsFile, conns, secs] = process.argv.slice(2);
  const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
  const connections = Number(conns);
  const seconds = Number(secs);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(base);
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const one = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path, agent, method: 'GET' }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  const loop = async () => {
    while (performance.now() < deadline) {
      const path = paths[next++ % paths.length];
      const t = performance.now();
      try {
        const status = await one(path);
        samples.push(performance.now() - t);
        statuses[status] = (statuses[status] ?? 0) + 1;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const lat = summarize(samples);
  const non2xx = Object.entries(statuses)
    .filter(([s]) => !s.startsWith('2'))
    .reduce((n, [, c]) => n + c, 0);
  const out: LoadResult = {
    tool: 'bench/load.ts',
    connections,
    seconds: Math.round(elapsed * 10) / 10,
    requests: samples.length,
    rps: Math.round(samples.length / elapsed),
    p50: lat.p50,
    p99: lat.p99,
    max: lat.max,
    non2xx,
    errors,
    statuses,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
  agent.destroy();
}

if (process.argv[1]?.endsWith('bench/load.ts')) await main();
