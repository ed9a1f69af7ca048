// `make chaos [ROUNDS=5] [CONNECTIONS=50]`: the hostile-client scenarios of test/hostile.test.ts, more of them and for
// longer, against a server over the fixture release with small bounds (5 admission slots, short timeouts) so that a
// leak shows. Ordinary requests run alongside throughout. Prints per scenario what the clients saw, the slowest
// /api/health after it and what was left admitted; exits non-zero on any leak, any 5xx but 503 (admission full), or
// a health check that is not 200 within 2 s. Then the cases of ./releases.ts, each on a server of its own (slow
// download readers, unfinished MCP bodies, a release file swapped for a link, a misnamed release folder): each check
// printed with what was seen, any that fails fails the run. `ROUNDS=0` runs those alone.
import { startFixtureServer } from '../fixture.ts';
import { releaseCases } from './releases.ts';
import {
  abortedPages,
  abortedPosts,
  aftermath,
  headerOnly,
  mcpBatches,
  type Outcome,
  slowBodies,
  slowReaders,
  type Target,
} from './scenarios.ts';

const rounds = Number(process.env.ROUNDS || 5);
const n = Number(process.env.CONNECTIONS || 50);
const limits = { headersTimeoutMs: 2000, bodyTimeoutMs: 2000, sendTimeoutMs: 3000, mcpDeadlineMs: 3000, drainMs: 2000 };
const logged = new Map<number, number>();
const running = await startFixtureServer({
  poolSize: 1,
  queueLimit: 4,
  queryTimeoutMs: 5000,
  limits,
  log: (line) => {
    const status = (JSON.parse(line) as { status?: number }).status;
    if (status) logged.set(status, (logged.get(status) ?? 0) + 1);
  },
});
// What the scenarios left admitted: the ordinary requests in flight alongside are not theirs.
let ordinaryInFlight = 0;
const target: Target = { url: running.url, admitted: () => Math.max(0, running.admitted() - ordinaryInFlight) };

const scenarios: [string, () => Promise<Outcome & { heldAtEnd?: number }>][] = [
  ['aborted POSTs', () => abortedPosts(target, n)],
  ['aborted NDJSON pages', () => abortedPages(target, n)],
  // A connection's pipelined answers are admitted one after another: the last may start as the first is cut off.
  ['slow readers', () => slowReaders(target, Math.ceil(n / 5), 2 * limits.sendTimeoutMs + 1000)],
  ['slow bodies', () => slowBodies(target, n, limits.bodyTimeoutMs + 2000)],
  ['header-only connections', () => headerOnly(target, n, limits.headersTimeoutMs + 2000)],
  ['MCP batches of 100', () => mcpBatches(target, Math.ceil(n / 2), 100)],
  ['MCP batches of 8', () => mcpBatches(target, Math.ceil(n / 5), 8)],
];

interface Tally {
  sent: number;
  statuses: Record<string, number>;
  healthMaxMs: number;
  healthFailed: number;
  admittedMax: number;
  ms: number;
}
const tallies = new Map<string, Tally>(
  scenarios.map(([name]) => [name, { sent: 0, statuses: {}, healthMaxMs: 0, healthFailed: 0, admittedMax: 0, ms: 0 }]),
);

// Ordinary clients throughout: what they get says whether the service stays up for everyone else.
const ordinary: Record<string, number> = {};
let stop = false;
const background = Promise.all(
  [0, 1].map(async () => {
    while (!stop) {
      let status = 'failed';
      ordinaryInFlight++;
      try {
        const res = await fetch(`${running.url}/api/search?q=roof&limit=5`, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        status = String(res.status);
      } catch {
        // counted as failed
      } finally {
        ordinaryInFlight--;
      }
      ordinary[status] = (ordinary[status] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, 50));
    }
  }),
);

const started = Date.now();
for (let round = 1; round <= rounds; round++) {
  for (const [name, run] of scenarios) {
    const outcome = await run();
    const after = await aftermath(target);
    const t = tallies.get(name)!;
    t.sent += outcome.sent;
    t.ms += outcome.ms;
    for (const [s, c] of Object.entries(outcome.statuses)) t.statuses[s] = (t.statuses[s] ?? 0) + c;
    t.healthMaxMs = Math.max(t.healthMaxMs, after.healthMs);
    if (after.health !== 200 || after.healthMs >= 2000) t.healthFailed++;
    // Slow readers still stalled past the send timeout must hold nothing by then either.
    t.admittedMax = Math.max(t.admittedMax, after.admitted, outcome.heldAtEnd ?? 0);
  }
  process.stderr.write(`chaos: round ${round}/${rounds} done (${Math.round((Date.now() - started) / 1000)} s)\n`);
}
stop = true;
await background;
await running.close();
const cases = await releaseCases();

console.log(
  `chaos: ${rounds} rounds of ${n} connections per scenario in ${Math.round((Date.now() - started) / 1000)} s (5 admission slots)`,
);
console.log(
  'scenario                  sent  seen by clients                             health max  failed  admitted after',
);
for (const [name, t] of tallies) {
  const seen = Object.entries(t.statuses)
    .sort()
    .map(([s, c]) => `${s}: ${c}`)
    .join(', ');
  console.log(
    `${name.padEnd(24)} ${String(t.sent).padStart(5)}  ${seen.padEnd(42)} ${`${t.healthMaxMs} ms`.padStart(10)}  ${String(t.healthFailed).padStart(6)}  ${String(t.admittedMax).padStart(14)}`,
  );
}
console.log(`ordinary requests alongside: ${JSON.stringify(ordinary)}`);
console.log(`server log, by status: ${JSON.stringify(Object.fromEntries([...logged].sort((a, b) => a[0] - b[0])))}`);

const fivexx =
  [...logged].filter(([s]) => s >= 500 && s !== 503).reduce((a, [, c]) => a + c, 0) +
  [...tallies.values(), { statuses: ordinary }].reduce(
    (a, t) =>
      a +
      Object.entries(t.statuses)
        .filter(([s]) => /^5\d\d$/.test(s) && s !== '503')
        .reduce((x, [, c]) => x + c, 0),
    0,
  );
const leaks = [...tallies.values()].reduce((a, t) => a + t.admittedMax, 0);
const unhealthy = [...tallies.values()].reduce((a, t) => a + t.healthFailed, 0);
for (const c of cases) {
  console.log(c.scenario);
  for (const k of c.checks) console.log(`  ${k.ok ? 'ok    ' : 'FAILED'} ${k.what.padEnd(40)} ${k.seen}`);
}
const failedChecks = cases.flatMap((c) => c.checks.filter((k) => !k.ok).map((k) => `${c.scenario}: ${k.what}`));
console.log(
  `leaks: ${leaks}, 5xx other than 503: ${fivexx}, failed health checks: ${unhealthy}, failed release checks: ${failedChecks.length}`,
);
for (const f of failedChecks) console.error(`chaos: FAILED ${f}`);
process.exit(leaks || fivexx || unhealthy || failedChecks.length ? 1 : 0);
