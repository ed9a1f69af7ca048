// The item search ranked by the engine (the voter's slice of the position table, the items with a final roll call or
// with the roll calls asked, file numbers from item ids, matters from the items table) gives exactly what its SQL
// gives (sql-bm25.ts): the same items in the same order, with the same scores, group sizes and totals, for every
// filter and grouping (src/queries/items.ts).
import t from 'tap';

import { parseQuery } from '../core/text/analysis.ts';
import { positionTable } from '../src/queries/aggregates/positions.ts';
import { type ItemSearchParams, rankItems } from '../src/queries/items.ts';
import { resolveVoter } from '../src/queries/supervisors.ts';
import { yearRange } from '../src/queries/years.ts';
import { openFixtureRelease } from './fixture.ts';
import { rankItemsBySql } from './sql-bm25.ts';

const release = await openFixtureRelease(t);

const all = { from: 2012, to: 2026 };
const cases: (Partial<ItemSearchParams> & { q: string })[] = [
  { q: 'resolution', groupBy: 'file' },
  { q: 'housing', groupBy: 'file', limit: 50 },
  { q: 'ordinance amending code', groupBy: 'file' },
  { q: 'resolution', voter: 'Wiener' },
  { q: 'resolution', voter: 'Wiener', position: 'no', limit: 50 },
  { q: 'resolution', voter: 'Wiener', final: true },
  { q: 'Cuomo', voter: 'farrell', position: 'excused' },
  { q: 'ordinance', voter: 'Peskin', final: true, groupBy: 'file' },
  { q: 'ordinance', final: true },
  { q: 'resolution', final: true, groupBy: 'file', limit: 50 },
  { q: 'housing', voter: 'Mar', from: 2016, to: 2017 },
  { q: 'resolution', date: '2016-11-01', voter: 'Kim' },
  { q: 'resolution', date: '2016-11-01', groupBy: 'file' },
  { q: 'resolution', groupBy: 'matter' },
  { q: 'housing', groupBy: 'matter', final: true, limit: 50 },
  { q: 'ordinance', groupBy: 'matter', voter: 'Wiener' },
  { q: 'resolution', actionType: 'adoption' },
  { q: 'ordinance', actionType: 'final-passage', result: 'passed', groupBy: 'file' },
  { q: 'resolution', result: 'adopted', voter: 'Peskin', position: 'aye' },
  { q: 'resolution', actionType: 'adoption', final: true, groupBy: 'matter', date: '2016-11-01' },
];

t.test("the engine's ranking of items is the SQL ranking", async (t) => {
  for (const c of cases) {
    const p: ItemSearchParams = { final: false, groupBy: 'none', limit: 20, ...all, ...c };
    const range = yearRange(p, p.date);
    const table = await positionTable(release);
    const voter = p.voter ? await resolveVoter(release, 'voter', p.voter, p.from, p.to) : null;
    const engine = await rankItems(release, parseQuery(p.q), p, range, voter ? { table, voter } : null);
    const sql = await rankItemsBySql(release, p, range, voter);
    const label = JSON.stringify(c);
    t.ok(sql.length > 0, `${label}: ${sql.length} results`);
    t.same(
      engine.hits.map((h) => h.id),
      sql.map((r) => r.item_id),
      `${label}: the same items in the same order`,
    );
    t.same(
      engine.hits.map((h) => [h.groupCount ?? 1, engine.total]),
      sql.map((r) => [r.group_count, r.total]),
      `${label}: the same group sizes and total (${sql[0]?.total})`,
    );
    t.ok(
      engine.hits.every((h, i) => Math.abs(h.score - sql[i].score) < 1e-9),
      `${label}: the same scores`,
    );
  }
});
