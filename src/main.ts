// `make serve`: serve the current release; SIGHUP rechecks `lake/current`, SIGTERM drains requests (up to DRAIN_MS)
// then exits.
import { configFromEnv, limitsOf } from './config.ts';
import { start } from './server.ts';

const config = configFromEnv();
const running = await start(config).catch((e: Error) => {
  process.stderr.write(`serve: ${e.message}\n`);
  process.exit(1);
});
if (running.lake.fallback)
  process.stderr.write(
    `serve: ${running.lake.fallback.reason}; serving release ${running.lake.fallback.release} instead (/api/health says so)\n`,
  );
process.stderr.write(
  `Board Records serving release ${running.lake.releaseId} at ${running.url}/ (API: ${running.url}/api/search?q=housing)\n`,
);
process.on('SIGHUP', () => void running.lake.check());
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    process.stderr.write(`serve: ${signal}, draining requests in flight (at most ${limitsOf(config).drainMs} ms)\n`);
    void running.close().then(() => process.exit(0));
  });
}
