// The vector side of hybrid search (src/engine/vector-index.ts) over the fixture release's real passage vectors: the
// first pass on coarse coordinates keeps the pages the exact scan ranks first. The fixture holds few passages, so
// the exact scan is the default here; a small candidate count forces the first pass.
import t from 'tap';

import { dot, nearestPages, vectorIndex } from '../src/engine/vector-index.ts';
import { openFixtureRelease } from './fixture.ts';

const release = await openFixtureRelease(t);
const dim = release.manifest.embeddings!.dim;
const index = await vectorIndex(release, dim);
const passages = index.scan.vectors.length / dim;

/** A query like a real one: two passages far apart, added and normalised. */
function queryOf(i: number): Float32Array {
  const q = new Float32Array(dim);
  const other = (i * 31 + 7) % passages;
  for (let j = 0; j < dim; j++) q[j] = index.scan.vectors[i * dim + j] + index.scan.vectors[other * dim + j];
  const norm = Math.hypot(...q);
  return q.map((x) => x / norm);
}

t.test('the exact scan: every page under the filters, best passage first, ties by id', async (t) => {
  const q = queryOf(11);
  const all = nearestPages(index, q, { from: 2012, to: 2026, depth: 1e9, also: [] });
  t.equal(all.length, index.ids.length, `${all.length} pages scored`);
  t.ok(
    all.every((h, i) => i === 0 || h.sim < all[i - 1].sim || (h.sim === all[i - 1].sim && h.id > all[i - 1].id)),
    'descending, then id',
  );
  const agendas2016 = nearestPages(index, q, { from: 2016, to: 2016, kind: 'agenda', depth: 1e9, also: [] });
  t.ok(
    agendas2016.length > 0 && agendas2016.every((h) => /^2016-\d\d-\d\d-agenda-/.test(h.id)),
    `${agendas2016.length} 2016 agenda pages, nothing else`,
  );
  const beyond = all.at(-1)!;
  const top = nearestPages(index, q, { from: 2012, to: 2026, depth: 10, also: [beyond.id] });
  t.equal(top.length, 11, 'the top 10 and the lexical candidate beyond them');
  t.same(top.at(-1), beyond, 'with its similarity and rank');
});

t.test('the first pass keeps the exact top pages', async (t) => {
  let found = 0;
  let wanted = 0;
  let sameFirst = 0;
  const queries = Array.from({ length: 30 }, (_, k) => queryOf(Math.floor((k * passages) / 30)));
  for (const q of queries) {
    const exact = nearestPages(index, q, { from: 2012, to: 2026, depth: 20, also: [] });
    const coarse = nearestPages(index, q, {
      from: 2012,
      to: 2026,
      depth: 20,
      also: [],
      candidates: Math.floor(passages / 16),
    });
    const ids = new Set(coarse.map((h) => h.id));
    found += exact.filter((h) => ids.has(h.id)).length;
    wanted += exact.length;
    if (exact[0].id === coarse[0].id && exact[0].sim === coarse[0].sim) sameFirst++;
  }
  t.ok(
    found / wanted >= 0.95,
    `recall@20 with a sixteenth of the passages as candidates: ${(found / wanted).toFixed(3)}`,
  );
  t.ok(sameFirst >= 28, `the same best page for ${sameFirst} of 30 queries`);
});

t.test('the WebAssembly first pass scores what the coordinates say', async (t) => {
  const { scan } = index;
  const q = queryOf(5);
  for (let e = 0; e < 32; e++) scan.coarseQuery[e] = q[e % dim] * (e % 3 === 0 ? -1 : 1);
  scan.score(0, passages);
  let worst = 0;
  for (let r = 0; r < passages; r++) {
    let expected = 0;
    for (let e = 0; e < 32; e++) expected += scan.coarse[r * 32 + e] * scan.coarseQuery[e];
    worst = Math.max(worst, Math.abs(expected - scan.scores[r]));
  }
  t.ok(worst < 1e-5, `every one of ${passages} passages within ${worst.toExponential(1)} of the double-precision sum`);
  t.ok(
    scan.coarse.some((x) => x !== 0),
    "the coordinates are in the scan's memory",
  );
});

t.test('the WebAssembly exact scan is dot() to the bit', async (t) => {
  const { scan, start } = index;
  const q = queryOf(17);
  scan.query.set(q);
  let differ = 0;
  for (let k = 0; k + 1 < start.length; k++) {
    let best = -Infinity;
    for (let r = start[k]; r < start[k + 1]; r++) best = Math.max(best, dot(index.scan.vectors, r * dim, q, dim));
    if (!Object.is(best, scan.best(start[k], start[k + 1]))) differ++;
  }
  t.equal(differ, 0, `${start.length - 1} pages, every best similarity identical`);
});
