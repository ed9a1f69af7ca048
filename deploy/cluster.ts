// `make serve-cluster`: several server processes over one lake behind nginx (deploy/nginx.conf) as load balancer and
// HTTP cache, on one machine. Every part is an ordinary one (src/main.ts processes, the Debian nginx); this file only
// starts them, waits for them to answer and stops them. deploy/README.md maps it to many machines.
//   node --import tsx deploy/cluster.ts   (REPLICAS, PORT, HOST, LAKE, NGINX_CACHE=0|1, NGINX_WORKERS, ANSWER_CACHE_MB)
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const NGINX = '/usr/sbin/nginx';

export interface ClusterOptions {
  lake: string;
  replicas: number;
  host: string;
  /** nginx's port (0: any free one); the replicas take free ports of their own. */
  port: number;
  /** nginx caches answers as their Cache-Control allows. */
  cache: boolean;
  /** Each replica's in-process answer cache (ANSWER_CACHE_MB; 0: off). */
  answerCacheMb: number;
  nginxWorkers: number;
  /** A directory that close() copies the replicas' and nginx's logs into before it removes the prefix. */
  logsTo?: string;
}

export interface Cluster {
  url: string;
  replicas: string[];
  /** Where nginx's configuration, logs, temp files and cache live (removed by close). */
  prefix: string;
  pids: number[];
  close(): Promise<void>;
}

/** A port no one listens on right now. */
export function freePort(host: string): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
      .once('error', fail)
      .listen(0, host, () => {
        const { port } = s.address() as { port: number };
        s.close(() => ok(port));
      });
  });
}

async function answers(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const CACHE = `      proxy_cache answers;
      proxy_cache_lock on;
      proxy_cache_revalidate on;
      proxy_cache_background_update on;
      proxy_cache_use_stale updating error timeout http_503;`;

/** The configuration for these replicas, from deploy/nginx.conf. */
export function nginxConf(
  prefix: string,
  listen: string,
  replicas: string[],
  o: Pick<ClusterOptions, 'cache' | 'nginxWorkers'>,
): string {
  const fill: Record<string, string> = {
    PREFIX: prefix,
    LISTEN: listen,
    WORKERS: String(o.nginxWorkers),
    CACHE: o.cache ? CACHE : '      proxy_cache off;',
    UPSTREAMS: replicas.map((r) => `    server ${r} max_fails=0;`).join('\n'),
  };
  return readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8').replace(/@([A-Z]+)@/g, (_, k: string) => fill[k]);
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const prefix = mkdtempSync(join(tmpdir(), 'board-records-cluster-'));
  chmodSync(prefix, 0o755); // nginx's workers (not root) write their temp files and cache under it
  const port = o.port || (await freePort(o.host));
  const url = `http://${o.host}:${port}`;
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    if (o.logsTo) {
      mkdirSync(o.logsTo, { recursive: true });
      for (const f of readdirSync(prefix)) if (f.endsWith('.log')) copyFileSync(join(prefix, f), join(o.logsTo, f));
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    const replicas: string[] = [];
    for (let i = 0; i < o.replicas; i++) {
      const p = await freePort(o.host);
      const out = openSync(join(prefix, `replica-${i}.log`), 'a');
      children.push(
        spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
          cwd: ROOT,
          stdio: ['ignore', out, out],
          env: {
            DUCKDB_THREADS: String(Math.max(1, Math.floor(availableParallelism() / o.replicas))),
            ...process.env,
            PORT: String(p),
            HOST: o.host,
            LAKE: o.lake,
            PUBLIC_BASE_URL: url,
            ANSWER_CACHE_MB: String(o.answerCacheMb),
          },
        }),
      );
      replicas.push(`${o.host}:${p}`);
    }
    // A replica listens once its release's warm-up is read (src/server.ts): answering is being ready.
    await Promise.all(replicas.map((r) => answers(`http://${r}/api/health`, 600_000)));
    writeFileSync(join(prefix, 'nginx.conf'), nginxConf(prefix, `${o.host}:${port}`, replicas, o));
    const test = spawnSync(NGINX, ['-t', '-q', '-p', prefix, '-c', join(prefix, 'nginx.conf')], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx -t: ${test.stderr}`);
    children.push(
      spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' }),
    );
    await answers(`${url}/api/health`, 20_000);
    return { url, replicas, prefix, pids: children.map((c) => c.pid!), close: stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

if (process.argv[1]?.endsWith('deploy/cluster.ts')) {
  const env = process.env;
  const cluster = await startCluster({
    lake: resolve(env.LAKE || 'lake'),
    replicas: Number(env.REPLICAS || 2),
    host: env.HOST || '127.0.0.1',
    port: Number(env.PORT || 8080),
    cache: env.NGINX_CACHE !== '0',
    answerCacheMb: Number(env.ANSWER_CACHE_MB ?? 64),
    nginxWorkers: Number(env.NGINX_WORKERS || 1),
  });
  process.stderr.write(
    `serve-cluster: nginx at ${cluster.url}/ over ${cluster.replicas.length} replicas (${cluster.replicas.join(', ')}); logs in ${cluster.prefix}\n`,
  );
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => void cluster.close().then(() => process.exit(0)));
}
