// Entity extraction scored on the labelled sets of bench/extraction/ (the same measurement `make bench` prints): the
// targets of issue 21 hold on the Legistar 2023 titles, and the held-out agenda items keep what was measured on them.
import t from 'tap';
import { FIELDS, measureExtraction } from '../bench/extraction.ts';

const r = measureExtraction();

t.test('Legistar 2023 titles: every field at precision >= 0.95 and recall >= 0.9', async (t) => {
  t.ok(r.legistar.rows >= 200, `${r.legistar.rows} labelled titles`);
  for (const f of FIELDS) {
    const s = r.legistar.fields[f];
    t.ok(s.tp + s.fn >= 25, `${f}: ${s.tp + s.fn} labelled values`);
    t.ok(s.precision >= 0.95, `${f} precision ${s.precision}`);
    t.ok(s.recall >= 0.9, `${f} recall ${s.recall}`);
  }
});

t.test('held-out agenda items: precision and recall stay at least where they were measured', async (t) => {
  const FLOOR = { parties: [1, 0.81], amounts: [1, 1], addresses: [1, 0.96] };
  for (const f of FIELDS) {
    const s = r.heldOut.fields[f];
    t.ok(s.precision >= FLOOR[f][0], `${f} precision ${s.precision}`);
    t.ok(s.recall >= FLOOR[f][1], `${f} recall ${s.recall}`);
  }
});
