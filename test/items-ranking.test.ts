// The item search ranked in memory (the voter's slice of the position table, the items with a final roll call, file
// numbers from item ids) gives exactly what its SQL gives: the same items in the same order, with the same scores,
// group sizes and totals, for every filter and grouping the in-memory path takes (src/queries/items.ts).
import t from 'tap';
import { bm25 } from '../src/queries/bm25.ts';
import { rankInDuckDB, rankInMemory, type ItemSearchParams } from '../src/queries/items.ts';
import { positionTable } from '../src/queries/aggregates/positions.ts';
import { resolveVoter } from '../src/queries/supervisors.ts';
import { Params } from '../src/queries/sql.ts';
import { yearRange } from '../src/queries/years.ts';
import { openFixtureRelease } from './fixture.ts';

const release = await openFixtureRelease(t);

const all = { from: 2012, to: 2026 };
const cases: (Partial<ItemSearchParams> & { q: string })[] = [
  { q: 'resolution', groupBy: 'file' }, { q: 'housing', groupBy: 'file', limit: 50 }, { q: 'ordinance amending code', groupBy: 'file' },
  { q: 'resolution', voter: 'Wiener' }, { q: 'resolution', voter: 'Wiener', position: 'no', limit: 50 },
  { q: 'resolution', voter: 'Wiener', final: true }, { q: 'Cuomo', voter: 'farrell', position: 'excused' },
  { q: 'ordinance', voter: 'Peskin', final: true, groupBy: 'file' }, { q: 'ordinance', final: true }, { q: 'resolution', final: true, groupBy: 'file', limit: 50 },
  { q: 'housing', voter: 'Mar', from: 2016, to: 2017 }, { q: 'resolution', date: '2016-11-01', voter: 'Kim' }, { q: 'resolution', date: '2016-11-01', groupBy: 'file' },
];

t.test('the in-memory ranking of items is the SQL ranking', async (t) => {
  let compared = 0;
  for (const c of cases) {
    const p: ItemSearchParams = { final: false, groupBy: 'none', limit: 20, ...all, ...c };
    const range = yearRange(p, p.date);
    const q = new Params();
    const m = await bm25(release, q, 'item', p.q, range);
    const table = await positionTable(release);
    const voter = p.voter ? await resolveVoter(release, 'voter', p.voter, p.from, p.to) : null;
    const mem = await rankInMemory(release, m, { ...range, date: p.date, limit: p.limit }, p, voter ? { table, voter: voter.id } : null);
    if (!mem) continue;
    compared++;
    const sql = await rankInDuckDB(release, q, m, p, range, table, voter);
    const label = JSON.stringify(c);
    t.ok(sql.length > 0, `${label}: ${sql.length} results`);
    t.same(mem.map((r) => r.item_id), sql.map((r) => r.item_id), `${label}: the same items in the same order`);
    t.same(mem.map((r) => [r.group_count, r.total]), sql.map((r) => [r.group_count, r.total]), `${label}: the same group sizes and total (${sql[0]?.total})`);
    t.ok(mem.every((r, i) => Math.abs(r.score - sql[i].score) < 1e-9), `${label}: the same scores`);
  }
  t.equal(compared, cases.length, 'every case ranked in memory on the fixture');
});
