// deploy/: two server processes over the fixture lake behind nginx (the Debian package) on loopback ports: an answer
// through nginx, its cache's second answer, and both replicas serving.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import t from 'tap';

import { NGINX, startCluster } from '../deploy/cluster.ts';
import { FIXTURE_LAKE, fixtureRelease, get } from './fixture.ts';

t.test(
  'nginx in front of two replicas answers, caches, and balances',
  { skip: existsSync(NGINX) ? false : `${NGINX} is not installed (.ci/run installs nginx)` },
  async (t) => {
    const release = await fixtureRelease();
    const cluster = await startCluster({
      lake: FIXTURE_LAKE,
      replicas: 2,
      host: '127.0.0.1',
      port: 0,
      cache: true,
      answerCacheMb: 8,
      nginxWorkers: 1,
    });
    t.teardown(() => cluster.close());
    const first = await get(`${cluster.url}/api/items?q=161169`);
    t.equal(first.status, 200);
    t.equal(first.headers.get('x-release-id'), release, 'the fixture release');
    t.equal(first.json.results[0].fileNumber, '161169', 'the file asked for, first');
    t.equal(
      first.json.results[0].transcriptUrl.startsWith(`${cluster.url}/api/items/`),
      true,
      'links name nginx, not a replica',
    );
    t.equal(first.headers.get('x-cache-status'), 'MISS');
    const again = await get(`${cluster.url}/api/items?q=161169`);
    t.equal(again.headers.get('x-cache-status'), 'HIT', "the second answer comes from nginx's cache");
    t.equal(again.text, first.text);
    const pages = await Promise.all(
      Array.from({ length: 8 }, (_, i) => get(`${cluster.url}/api/search?q=housing&limit=${i + 1}`)),
    );
    t.ok(
      pages.every((p) => p.status === 200 && p.json.results.length > 0),
      '8 searches answered',
    );
    const served = [0, 1].map(
      (i) =>
        readFileSync(join(cluster.prefix, `replica-${i}.log`), 'utf8')
          .split('\n')
          .filter((l) => l.includes('"path":"/api/search"')).length,
    );
    t.ok(
      served.every((n) => n > 0),
      `both replicas answered searches (${served.join(' and ')})`,
    );
    const health = await get(`${cluster.url}/api/health`);
    t.equal(health.json.release, release);
  },
);
