// The release's recorded positions as a compact table sorted by voter, read once per release into typed arrays: an
// aggregate walks one voter's slice in memory instead of joining positions and roll calls in DuckDB on every request.
// Within a voter's slice, rows are in the order answers list them (latest meeting first, then file number, sequence
// and roll call id), so a walk needs no sort. The display columns of the rows an answer shows (action, evidence,
// matter, title) are read with it, per roll call and item, so an answer reads no item record.
import { type Position, POSITIONS } from '../../../core/lake/format.ts';
import { itemOfRollCall } from '../../../core/lake/ids.ts';
import type { Release } from '../../lake/release.ts';

/** Strings stored once, rows holding their index. */
export class Dictionary {
  readonly values: string[] = [];
  readonly index = new Map<string, number>();

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

/**
 * Every position with a reconciled supervisor, sorted by supervisor, then latest meeting first, file number, sequence
 * and roll call id; `voters` maps a supervisor id to its rows [start, end).
 */
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
  /** The roll call's item, as an index into `items` (whose `index` maps an item id back). */
  item: Uint32Array;
  items: Dictionary;
  name: Uint32Array;
  names: string[];
  /** What an answer shows of each roll call (by index into `rollCalls`) and item (into `items.values`), read once. */
  shown: {
    action: string[];
    actionType: string[];
    sharedVote: Uint8Array;
    officialUrl: string[];
    page: Int32Array;
    matter: string[];
    title: string[];
  };
}

export function positionTable(release: Release): Promise<PositionTable> {
  return release.memo('position-table', async () => {
    const [{ n }] = await release.pool.rows(
      `SELECT count(*)::INTEGER AS n FROM positions WHERE supervisor_id IS NOT NULL`,
    );
    const size = Number(n);
    const dates = new Dictionary();
    const files = new Dictionary();
    const rollCalls = new Dictionary();
    const names = new Dictionary();
    const items = new Dictionary();
    const t: PositionTable = {
      voters: new Map<string, [number, number]>(),
      year: new Uint16Array(size),
      date: new Uint32Array(size),
      dates: [] as string[],
      file: new Uint32Array(size),
      files: files.values,
      sequence: new Uint16Array(size),
      position: new Uint8Array(size),
      isFinal: new Uint8Array(size),
      rollCall: new Uint32Array(size),
      rollCalls: rollCalls.values,
      item: new Uint32Array(size),
      items,
      name: new Uint32Array(size),
      names: names.values,
      shown: {
        action: [],
        actionType: [],
        sharedVote: new Uint8Array(0),
        officialUrl: [],
        page: new Int32Array(0),
        matter: [],
        title: [],
      },
    };
    let i = 0;
    const rows = release.pool.stream(`
      SELECT p.supervisor_id AS v, p.year::INTEGER AS y, strftime(p.meeting_date, '%Y-%m-%d') AS d, p.file_number AS f, r.sequence::INTEGER AS s,
             p.position AS p, p.is_final AS x, p.roll_call_id AS r, p.name_as_recorded AS n
      FROM positions p JOIN roll_calls r ON r.roll_call_id = p.roll_call_id AND r.year = p.year
      WHERE p.supervisor_id IS NOT NULL ORDER BY p.supervisor_id, p.meeting_date DESC, p.file_number, r.sequence, p.roll_call_id`);
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
    // Each roll call's item, from its id (once per roll call, not per position).
    const itemOf = Uint32Array.from(rollCalls.values, (id) => items.of(itemOfRollCall(id)));
    for (let k = 0; k < i; k++) t.item[k] = itemOf[t.rollCall[k]];
    // Dates renumbered in date order, so that comparing two rows' indexes compares their dates.
    t.dates = [...dates.values].sort();
    const order = new Map(t.dates.map((d, k) => [d, k]));
    const rank = Uint32Array.from(dates.values, (d) => order.get(d)!);
    for (let k = 0; k < i; k++) t.date[k] = rank[t.date[k]];
    t.shown = await shownColumns(release, rollCalls, items);
    return t;
  });
}

/**
 * The display columns of the table's roll calls and items, by their index in the dictionaries: an answer shows them
 * without reading item records (full texts) per request.
 */
async function shownColumns(
  release: Release,
  rollCalls: Dictionary,
  items: Dictionary,
): Promise<PositionTable['shown']> {
  const r = rollCalls.values.length;
  const shown = {
    action: new Array<string>(r),
    actionType: new Array<string>(r),
    sharedVote: new Uint8Array(r),
    officialUrl: new Array<string>(r),
    page: new Int32Array(r),
    matter: new Array<string>(items.values.length),
    title: new Array<string>(items.values.length),
  };
  const urls = new Dictionary();
  for await (const chunk of release.pool.stream(
    `SELECT roll_call_id AS id, action, action_type AS t, shared_vote AS s, official_url AS u, page::INTEGER AS p FROM roll_calls`,
  )) {
    for (const row of chunk) {
      const k = rollCalls.index.get(String(row.id));
      if (k === undefined) continue;
      shown.action[k] = row.action as string;
      shown.actionType[k] = row.t as string;
      shown.sharedVote[k] = row.s ? 1 : 0;
      shown.officialUrl[k] = urls.values[urls.of(String(row.u))];
      shown.page[k] = Number(row.p);
    }
  }
  for await (const chunk of release.pool.stream(`SELECT item_id AS id, matter, title FROM items`)) {
    for (const row of chunk) {
      const k = items.index.get(String(row.id));
      if (k === undefined) continue;
      shown.matter[k] = row.matter as string;
      shown.title[k] = row.title as string;
    }
  }
  return shown;
}

/** Which of a voter's positions an aggregate counts. */
export interface PositionFilters {
  from: number;
  to: number;
  position?: Position;
  final: boolean;
}

/** The kept positions' rows, in order, and per file (an index into `files`) how many of the voter's matching roll calls it has. */
export interface Kept {
  rows: number[];
  matching: Uint32Array;
}

/**
 * The voter's matching positions (years, position, final, and files flagged in `only` when given), ordered latest meeting first,
 * then file number, sequence and roll call id (the table's order). `perFile` keeps each file's most recent one (latest
 * meeting, then the last vote in the item, then the largest roll call id), as the SQL `max({d, s, id})` per file did:
 * in table order, a file's rows of its latest meeting come first and together, that one last.
 */
export function keptPositions(
  t: PositionTable,
  voter: string,
  p: PositionFilters,
  perFile: boolean,
  only?: Uint8Array,
): Kept {
  const rows = voterRows(t, voter, p, only);
  const matching = new Uint32Array(t.files.length);
  /** Per file: its kept row + 1 (0: none yet). */
  const latest = new Uint32Array(perFile ? t.files.length : 0);
  for (const i of rows) {
    const f = t.file[i];
    matching[f]++;
    if (perFile && (latest[f] === 0 || t.date[i] === t.date[latest[f] - 1])) latest[f] = i + 1;
  }
  return { rows: perFile ? rows.filter((i) => latest[t.file[i]] === i + 1) : rows, matching };
}

/** The rows of the voter's positions that match the filters (and are on files flagged in `only`, per index into `files`, when given), in table order. */
export function voterRows(t: PositionTable, voter: string, p: PositionFilters, only?: Uint8Array): number[] {
  const [start, end] = t.voters.get(voter) ?? [0, 0];
  const want = p.position === undefined ? -1 : POSITIONS.indexOf(p.position);
  const rows: number[] = [];
  for (let i = start; i < end; i++) {
    if (t.year[i] < p.from || t.year[i] > p.to) continue;
    if (want >= 0 && t.position[i] !== want) continue;
    if (p.final && !t.isFinal[i]) continue;
    if (only && !only[t.file[i]]) continue;
    rows.push(i);
  }
  return rows;
}
