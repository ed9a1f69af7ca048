// The judged set's pools as a blind judge reads them (bench/judged/README.md, "Re-judged blind"): per query its words
// and kind only (not its `about`, files or grades), its pooled pages in a seeded random order with no pool names, each
// with the items printed on it and the lines holding the query's words; every page's full text in a file of its own.
//
//   node --import tsx bench/judged-blind.ts --release DIR --out DIR [--id t01,t02] [--seed S]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { terms, words } from '../core/text/analysis.ts';
import { JUDGED_FILE } from './judged.ts';
import { readRelease } from './judged-pool.ts';

interface Judged {
  id: string;
  kind: string;
  query: string;
  judgments: Record<string, number>;
}

/** A stable shuffle: pages ordered by the hash of seed, query and page. */
const shuffled = (ids: string[], seed: string, query: string) =>
  ids
    .map((id) => ({ id, k: createHash('sha256').update(`${seed}|${query}|${id}`).digest('hex') }))
    .sort((a, b) => a.k.localeCompare(b.k))
    .map((x) => x.id);

const { values } = parseArgs({
  options: { release: { type: 'string' }, out: { type: 'string' }, id: { type: 'string' }, seed: { type: 'string' } },
});
if (!values.release || !values.out)
  throw new Error('usage: bench/judged-blind.ts --release DIR --out DIR [--id t01,t02] [--seed S]');
const queries = (JSON.parse(readFileSync(JUDGED_FILE, 'utf8')).queries as Judged[]).filter(
  (q) => !values.id || values.id.split(',').includes(q.id),
);
const { pages, items } = await readRelease(values.release);
const text = new Map(pages.map((p) => [p.page_id, p.text]));
mkdirSync(join(values.out, 'pages'), { recursive: true });
const blocks: string[] = [];
for (const q of queries) {
  const ws = words(q.query.replace(/"/g, ''))
    .filter((w) => terms(w).length > 0 && w.length > 2)
    .map((w) => w.toLowerCase());
  const ids = shuffled(Object.keys(q.judgments), values.seed ?? 'blind', q.id);
  blocks.push(`\n=== ${q.id} [${q.kind}] ${q.query}\n    ${ids.length} pages`);
  for (const id of ids) {
    const [doc, page] = [id.replace(/-p\d+$/, ''), Number(id.replace(/.*-p/, ''))];
    const on = items
      .filter((i) => i.document_id === doc && i.start_page <= page && i.end_page >= page)
      .map((i) => `${i.file_number} ${i.title.slice(0, 90)}`);
    const lines = (text.get(id) ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => ws.some((w) => l.toLowerCase().includes(w)));
    blocks.push(
      `  ${id}\n    items: ${on.join(' | ') || '—'}\n${lines
        .slice(0, 4)
        .map((l) => `    > ${l.slice(0, 160)}`)
        .join('\n')}`,
    );
    writeFileSync(join(values.out, 'pages', `${id}.txt`), text.get(id) ?? '');
  }
}
writeFileSync(join(values.out, 'pool.txt'), blocks.join('\n') + '\n');
process.stdout.write(
  `${queries.length} queries, ${queries.reduce((n, q) => n + Object.keys(q.judgments).length, 0)} pages: ${join(values.out, 'pool.txt')}\n`,
);
