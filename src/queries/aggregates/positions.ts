// The release's recorded positions as a compact table sorted by voter, read once per release into typed arrays: an
// aggregate walks one voter's slice in memory instead of joining positions and roll calls in DuckDB on every request.
// The display columns of the rows an answer shows come from the item record store (src/queries/texts.ts).
import { POSITIONS, type Position } from '../../../core/lake/format.ts';
import type { Release } from '../../lake/release.ts';

/** Strings stored once, rows holding their index. */
class Dictionary {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  of(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

/** Every position with a reconciled supervisor, sorted by supervisor; `voters` maps a supervisor id to its rows [start, end). */
export interface PositionTable {
  voters: Map<string, [number, number]>;
  year: Uint16Array;
  /** The meeting date, as an index into `dates` (sorted, so a larger index is a later date). */
  date: Uint32Array;
  dates: string[];
  file: Uint32Array;
  files: string[];
  sequence: Uint16Array;
  /** Index into POSITIONS. */
  position: Uint8Array;
  isFinal: Uint8Array;
  rollCall: Uint32Array;
  rollCalls: string[];
  name: Uint32Array;
  names: string[];
}

export function positionTable(release: Release): Promise<PositionTable> {
  return release.memo('position-table', async () => {
    const [{ n }] = await release.pool.rows(`SELECT count(*)::INTEGER AS n FROM positions WHERE supervisor_id IS NOT NULL`);
    const size = Number(n);
    const dates = new Dictionary();
    const files = new Dictionary();
    const rollCalls = new Dictionary();
    const names = new Dictionary();
    const t = {
      voters: new Map<string, [number, number]>(), year: new Uint16Array(size), date: new Uint32Array(size), dates: [] as string[],
      file: new Uint32Array(size), files: files.values, sequence: new Uint16Array(size), position: new Uint8Array(size),
      isFinal: new Uint8Array(size), rollCall: new Uint32Array(size), rollCalls: rollCalls.values, name: new Uint32Array(size), names: names.values,
    };
    let i = 0;
    const rows = release.pool.stream(`
      SELECT p.supervisor_id AS v, p.year::INTEGER AS y, strftime(p.meeting_date, '%Y-%m-%d') AS d, p.file_number AS f, r.sequence::INTEGER AS s,
             p.position AS p, p.is_final AS x, p.roll_call_id AS r, p.name_as_recorded AS n
      FROM positions p JOIN roll_calls r ON r.roll_call_id = p.roll_call_id AND r.year = p.year
      WHERE p.supervisor_id IS NOT NULL ORDER BY p.supervisor_id`, [], 600_000);
    for await (const chunk of rows) {
      for (const r of chunk) {
        const v = String(r.v);
        const span = t.voters.get(v);
        if (span) span[1] = i + 1;
        else t.voters.set(v, [i, i + 1]);
        t.year[i] = Number(r.y);
        t.date[i] = dates.of(String(r.d));
        t.file[i] = files.of(String(r.f));
        t.sequence[i] = Number(r.s);
        t.position[i] = POSITIONS.indexOf(r.p as Position);
        t.isFinal[i] = r.x ? 1 : 0;
        t.rollCall[i] = rollCalls.of(String(r.r));
        t.name[i] = names.of(String(r.n));
        i++;
      }
    }
    // Dates renumbered in date order, so that comparing two rows' indexes compares their dates.
    t.dates = [...dates.values].sort();
    const order = new Map(t.dates.map((d, k) => [d, k]));
    const rank = Uint32Array.from(dates.values, (d) => order.get(d)!);
    for (let k = 0; k < i; k++) t.date[k] = rank[t.date[k]];
    return t;
  });
}

/** Which of a voter's positions an aggregate counts. */
export interface PositionFilters { from: number; to: number; position?: Position; final: boolean }

/** One kept position: its row in the table, and how many of the voter's matching roll calls its file has. */
export interface Kept { row: number; rollCallsInFile: number }

/**
 * The voter's matching positions (years, position, final, and `only` files when given), ordered latest meeting first,
 * then file number, sequence and roll call id. `perFile` keeps each file's most recent one (latest meeting, then the
 * last vote in the item, then the largest roll call id), as the SQL `max({d, s, id})` per file did.
 */
export function keptPositions(t: PositionTable, voter: string, p: PositionFilters, perFile: boolean, only?: Set<string>): Kept[] {
  const rows = voterRows(t, voter, p, only);
  const later = (a: number, b: number) =>
    t.date[a] - t.date[b] || t.sequence[a] - t.sequence[b] || compare(t.rollCalls[t.rollCall[a]], t.rollCalls[t.rollCall[b]]);
  const perFileCount = new Map<number, number>();
  const latest = new Map<number, number>();
  for (const i of rows) {
    perFileCount.set(t.file[i], (perFileCount.get(t.file[i]) ?? 0) + 1);
    const best = latest.get(t.file[i]);
    if (best === undefined || later(i, best) > 0) latest.set(t.file[i], i);
  }
  const kept = perFile ? [...latest.values()] : rows;
  kept.sort((a, b) => t.date[b] - t.date[a] || compare(t.files[t.file[a]], t.files[t.file[b]]) || t.sequence[a] - t.sequence[b]
    || compare(t.rollCalls[t.rollCall[a]], t.rollCalls[t.rollCall[b]]));
  return kept.map((row) => ({ row, rollCallsInFile: perFileCount.get(t.file[row])! }));
}

/** The rows of the voter's positions that match the filters (and are on `only` files, when given), in table order. */
export function voterRows(t: PositionTable, voter: string, p: PositionFilters, only?: Set<string>): number[] {
  const [start, end] = t.voters.get(voter) ?? [0, 0];
  const want = p.position === undefined ? -1 : POSITIONS.indexOf(p.position);
  const rows: number[] = [];
  for (let i = start; i < end; i++) {
    if (t.year[i] < p.from || t.year[i] > p.to) continue;
    if (want >= 0 && t.position[i] !== want) continue;
    if (p.final && !t.isFinal[i]) continue;
    if (only && !only.has(t.files[t.file[i]])) continue;
    rows.push(i);
  }
  return rows;
}

/** Byte order of ASCII ids, as DuckDB sorts VARCHAR. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
