// Builds one release in its own process so the bench can time it end to end and read the build's peak RSS.
//   node --import tsx bench/build-child.ts <corpus> <lake>   → one JSON line on stdout
import { buildRelease } from '../pipelines/build.ts';

const [corpus, lake] = process.argv.slice(2);
const started = performance.now();
const result = await buildRelease({ corpus, lake, cacheDir: null, keep: 1, quiet: true });
process.stdout.write(
  JSON.stringify({ ...result, ms: performance.now() - started, maxRssKb: process.resourceUsage().maxRSS }) + '\n',
);
