// `make fetch [SINCE=YYYY-MM-DD] [DEST=dir] [PLAN=1]`: fetch new and changed documents into a corpus folder, write
// DEST/fetch-report.json, print the report's table; exit 1 if any source or document failed (keeping what was fetched).
import { ConfigError, configFrom, USAGE } from './config.ts';
import { runFetch } from './fetcher.ts';
import { createReporter } from './progress.ts';
import { formatReport } from './report.ts';

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
  report.stage(
    `fetch into ${cfg.dest}: meetings ${cfg.since} .. ${cfg.until} from ${cfg.sources.join(', ')}${cfg.plan ? ' (plan only)' : ''}`,
  );
  const result = await runFetch(cfg, report);
  const out: string[] = [];
  for (const r of result.documents) {
    if (r.outcome === 'planned') out.push(`plan\t${r.file}\t${r.source}\t${r.url ?? ''}`);
    else if (r.outcome === 'added' || r.outcome === 'changed') out.push(`${r.outcome}\t${r.file}\t${r.url ?? ''}`);
  }
  process.stdout.write((out.length ? out.join('\n') + '\n' : '') + formatReport(result));
  if (!cfg.plan) process.stdout.write(`report: ${cfg.dest}/fetch-report.json\n`);
  return result.errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    if (err instanceof ConfigError) process.stderr.write(`fetch: ${err.message}\n`);
    else process.stderr.write(`fetch: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 2;
  },
);
