// A seeded run of generated requests over every endpoint: every answer allowed and schema-valid, the server healthy.
import fc from 'fast-check';
import t from 'tap';

import { get, startFixtureServer } from './fixture.ts';
import { request, send } from './fuzz/requests.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());

t.test('3000 generated requests: allowed statuses, schema-valid bodies, nothing leaked', async (t) => {
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  await fc
    .assert(
      fc.asyncProperty(request, async (r) => {
        const { status, problem } = await send(running.url, r);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (problem) problems.push(problem);
        return problem === null;
      }),
      { seed: 20161101, numRuns: 3000, endOnFailure: true, verbose: 0 },
    )
    .catch((e) => {
      if (!problems.length) problems.push(String(e).slice(0, 500));
    });
  t.same(problems, [], 'no request broke the rule');
  t.ok(
    (statuses.get(200) ?? 0) > 300,
    `plenty of successful requests (${JSON.stringify(Object.fromEntries(statuses))})`,
  );
  t.ok((statuses.get(400) ?? 0) > 300, 'plenty of refused ones');
  t.notOk(
    [...statuses.keys()].some((s) => s >= 500 && s !== 503),
    'no 5xx',
  );
  const health = await get(`${running.url}/api/health`);
  t.equal(health.status, 200, 'the server is healthy afterwards');
});
