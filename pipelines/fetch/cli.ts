// `make fetch [SINCE=YYYY-MM-DD] [DEST=dir]`: fetch new and changed documents into a corpus folder; exit 1 if any failed.
import { ConfigError, USAGE, configFrom } from './config.ts';
import { runFetch } from './fetcher.ts';
import { createReporter } from './progress.ts';

async function main(): Promise<number> {
  let cfg;
  try {
    cfg = configFrom(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`fetch: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (cfg.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const report = createReporter();
  report.stage(`fetch into ${cfg.dest}: meetings ${cfg.since} .. ${cfg.until} from ${cfg.sources.join(', ')}`);
  const summary = await runFetch(cfg, report);
  for (const r of summary.results) if (r.outcome === 'failed') process.stdout.write(`failed\t${r.file || r.key}\t${r.error}\n`);
  for (const r of summary.results) if (r.outcome === 'added' || r.outcome === 'changed') process.stdout.write(`${r.outcome}\t${r.file}\n`);
  process.stdout.write(
    `summary: ${summary.added} added, ${summary.changed} changed, ${summary.unchanged} unchanged, ${summary.failed} failed` +
      (summary.absent ? `, ${summary.absent} not published` : '') + '\n',
  );
  return summary.failed > 0 ? 1 : 0;
}

main().then(
  (code) => { process.exitCode = code; },
  (err) => {
    if (err instanceof ConfigError) process.stderr.write(`fetch: ${err.message}\n`);
    else process.stderr.write(`fetch: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 2;
  },
);
