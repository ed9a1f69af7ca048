// Smoke test of `make bench`: a 4-meeting synthetic corpus through the generator, the pipeline, a real server, the
// FTS5 reference, every measured endpoint, a short load from a separate process and the skewed mix against one process
// and replicas behind nginx, so neither the generator nor the bench can rot. It checks that every code path ran and
// answered; it never asserts on timings.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import t from 'tap';

import { SEARCH_CLASSES } from '../bench/queries.ts';
import { defaultOptions, runBench, table } from '../bench/run.ts';

t.test('bench smoke: 4 synthetic meetings end to end', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  const out = join(work, 'results.json');
  const results = await runBench(
    defaultOptions({
      smoke: true,
      meetings: 4,
      work,
      out,
      iterations: 1,
      perClass: 2,
      loadSeconds: 1,
      loadTool: 'node',
      loadConnections: 8,
      frontSeconds: 1,
      log: () => {},
    }),
  );
  t.same(JSON.parse(readFileSync(out, 'utf8')).options.smoke, true, 'results.json written');
  t.equal(results.scales.length, 1);
  const s = results.scales[0];
  t.equal(s.corpus.documents, 8, 'two PDFs per meeting');
  t.equal(s.pipeline.pages, s.corpus.pages, 'the release holds every page of the corpus');
  t.ok(s.pipeline.pagesPerSec > 0 && s.pipeline.pdftotext.pagesPerSec > 0, 'pipeline and pdftotext both measured');
  t.equal(s.fts5Build.pages > 0, true, 'FTS5 reference built from the pages Parquet');
  t.equal(s.libraryBuilds?.MiniSearch?.pages, s.fts5Build.pages, 'MiniSearch indexes the pages FTS5 does');
  t.equal(s.libraryBuilds?.Orama?.pages, s.fts5Build.pages, 'Orama indexes the pages FTS5 does');
  t.same(s.failures, [], 'every request answered 2xx (responses checked against their schemas)');
  for (const cls of SEARCH_CLASSES) {
    t.ok(s.search[cls]?.c1.n > 0 && s.search[cls]?.c8.n > 0, `${cls}: measured over HTTP at c1 and c8`);
    const e = s.engine[cls];
    t.ok(e && e.ours.n > 0 && e.fts5.n > 0, `${cls}: engine time for ours and FTS5`);
    t.ok(e && e.overlap >= 0 && e.overlap <= 1, `${cls}: overlap is a fraction`);
    t.ok(e && e.perQuery.some((q) => q.oursHits > 0), `${cls}: the derived queries match pages`);
    for (const lib of ['MiniSearch', 'Orama'] as const) {
      const l = e?.libraries?.[lib];
      t.ok(
        l && l.latency.n > 0 && l.overlapFts5 >= 0 && l.overlapFts5 <= 1,
        `${cls}: ${lib} timed, overlap with FTS5 a fraction`,
      );
      t.ok(e && e.perQuery.some((q) => (q.libraries?.[lib]?.hits ?? 0) > 0), `${cls}: ${lib} matches pages`);
    }
    t.ok(e?.fastest && e.fastest.ratioP50 > 0, `${cls}: ours against the fastest reference`);
  }
  t.ok(
    s.endpoints['items'] && s.endpoints['comments'] && s.endpoints['pages/{id}'],
    'items, comments and page records measured',
  );
  for (const e of Object.values(s.endpoints)) t.equal(e.non2xx, 0, `${e.path}: 2xx`);
  for (const n of s.snapshots) {
    t.ok(n.records > 0 && n.copyRows > 0, `snapshot ${n.entity}: NDJSON records and the COPY reference both counted`);
    if (!n.partial)
      t.equal(n.records, n.copyRows, `snapshot ${n.entity}: the whole sweep counts as many records as COPY wrote`);
  }
  t.ok(s.load && s.load.requests > 0, 'load ran from a separate process');
  t.equal(s.load?.non2xx, 0, 'no non-2xx under load');
  t.equal(s.load?.errors, 0, 'no errors under load');
  const spread = Object.entries(s.spread ?? {}).filter(([, l]) => typeof l === 'object') as [
    string,
    { requests: number; non2xx: number; errors: number },
  ][];
  t.ok(s.spread && s.spread.paths >= 100, `the load with no path twice had ${s.spread?.paths} distinct paths`);
  for (const [name, l] of spread)
    t.ok(l.requests > 0 && l.non2xx === 0 && l.errors === 0, `no path twice, ${name}: ${l.requests} requests, all 2xx`);
  const front = Object.entries(s.front ?? {});
  t.ok(front.length >= 2, `the skewed mix ran against ${front.map(([k]) => k).join('; ')}`);
  for (const [name, l] of front)
    t.ok(l.requests > 0 && l.non2xx === 0 && l.errors === 0, `${name}: ${l.requests} requests, all 2xx`);
  t.ok(s.server.peakRssMb >= s.server.rssAfterStartMb && s.server.rssAfterStartMb > 0, 'server RSS read');
  t.match(table(results), /\| rare term \|/, 'the table prints');
  t.match(table(results), /service ÷ fastest/, 'the table prints the references side by side');
});
