// Entity extraction scored on labelled Legistar titles (bench/extraction/README.md): precision and recall per field.
//   node --import tsx bench/extraction.ts [--errors]     (seconds; `make bench` runs it too)
import { readFileSync } from 'node:fs';

import { partyKey } from '../core/text/entities.ts';
import { extractEntities } from '../pipelines/enrich/entities.ts';
import { parseCsv } from '../pipelines/synthetic/data.ts';

const HERE = new URL('./extraction/', import.meta.url);
const CSV = new URL('../../shared/corpus/legistar/legislation_2023.csv', import.meta.url);

export const FIELDS = ['parties', 'amounts', 'addresses'] as const;
export type Field = (typeof FIELDS)[number];

export interface Labelled {
  file: string;
  title: string;
  longTitle: string;
  expected: Record<Field, string[]>;
}

export interface FieldScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
}
export interface ExtractionResult {
  rows: number;
  fields: Record<Field, FieldScore>;
  /** Every disagreement: what was extracted but not labelled (fp) and labelled but not extracted (fn). */
  errors: { file: string; field: Field; kind: 'fp' | 'fn'; value: string }[];
}

/** The comparison key of a label or an extracted value (bench/extraction/README.md, "Scoring"). */
export function key(field: Field, value: string): string {
  if (field === 'parties') return partyKey(value);
  return field === 'addresses' ? value.toLowerCase().replace(/\s+/g, ' ').trim() : value;
}

const amountKey = (value: number, qualifier: string) => `${Math.round(value)} ${qualifier}`;

/** `file | parties | amounts | addresses` lines (README.md) → labelled rows, their text looked up by the first cell. */
function parseLabels(file: string, text: (id: string) => { title: string; longTitle: string } | undefined): Labelled[] {
  const out: Labelled[] = [];
  for (const line of readFileSync(new URL(file, HERE), 'utf8').split('\n')) {
    if (!/^\d/.test(line)) continue;
    const [id, ...cells] = line.split('|').map((c) => c.trim());
    const row = text(id);
    if (!row || cells.length !== 3) throw new Error(`${file}: bad line '${line}'`);
    const list = (cell: string) =>
      cell
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
    const amounts = list(cells[1]).map((a) => {
      const [value, qualifier] = a.split(/\s+/);
      return amountKey(Number(value), qualifier);
    });
    out.push({ file: id, ...row, expected: { parties: list(cells[0]), amounts, addresses: list(cells[2]) } });
  }
  return out;
}

/** The 2023 Legistar titles (`labels.txt`): `name` is the heading, `title` the long title. */
export function loadLabelled(): Labelled[] {
  const rows = new Map(
    parseCsv(readFileSync(CSV, 'utf8')).map((r) => [r.file_number, { title: r.name, longTitle: r.title }]),
  );
  return parseLabels('labels.txt', (id) => rows.get(id));
}

/** Agenda items labelled in `<name>.txt`, their heading and long title in `<name>-texts.jsonl`. */
export function loadItems(name: string): Labelled[] {
  const rows = new Map(
    readFileSync(new URL(`${name}-texts.jsonl`, HERE), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; title: string; longTitle: string })
      .map((r) => [r.id, r]),
  );
  return parseLabels(`${name}.txt`, (id) => rows.get(id));
}

export function scoreExtraction(labelled: Labelled[]): ExtractionResult {
  const counts = Object.fromEntries(FIELDS.map((f) => [f, { tp: 0, fp: 0, fn: 0 }])) as Record<
    Field,
    { tp: number; fp: number; fn: number }
  >;
  const errors: ExtractionResult['errors'] = [];
  for (const row of labelled) {
    const e = extractEntities(row.title, row.longTitle).extracted;
    const got: Record<Field, string[]> = {
      parties: e.parties,
      amounts: e.amounts.map((a) => amountKey(a.value, a.qualifier)),
      addresses: e.addresses,
    };
    for (const field of FIELDS) {
      const want = new Map(row.expected[field].map((v) => [key(field, v), v]));
      const have = new Map(got[field].map((v) => [key(field, v), v]));
      for (const [k, v] of have) {
        if (want.has(k)) counts[field].tp++;
        else {
          counts[field].fp++;
          errors.push({ file: row.file, field, kind: 'fp', value: v });
        }
      }
      for (const [k, v] of want)
        if (!have.has(k)) {
          counts[field].fn++;
          errors.push({ file: row.file, field, kind: 'fn', value: v });
        }
    }
  }
  const ratio = (a: number, b: number) => (b === 0 ? 1 : Math.round((a / b) * 1000) / 1000);
  const fields = Object.fromEntries(
    FIELDS.map((f) => {
      const c = counts[f];
      return [f, { ...c, precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn) }];
    }),
  ) as Record<Field, FieldScore>;
  return { rows: labelled.length, fields, errors };
}

/** The labelled sets, in the order they were labelled (bench/extraction/README.md says how each was used). */
export const SETS = [
  { key: 'legistar', label: 'Legistar 2023 titles (rules written on them)', load: loadLabelled },
  { key: 'agendas2019', label: '2019 agenda items (held out once, then used)', load: () => loadItems('heldout') },
  {
    key: 'agendas2016and2020',
    label: '2016 and 2020 agenda items (held out once, then used)',
    load: () => loadItems('heldout2'),
  },
  { key: 'agendas2017', label: '2017 agenda items (held out once, then used)', load: () => loadItems('heldout3') },
  {
    key: 'agendas2017b',
    label: 'more 2017 agenda items (held out once, then used)',
    load: () => loadItems('heldout4'),
  },
  {
    key: 'agendas2016and2017',
    label: '2016 and 2017 agenda items (held out once, then used)',
    load: () => loadItems('heldout5'),
  },
  {
    key: 'agendas2016and2020b',
    label: 'more 2016 and 2020 agenda items (held out once, then used)',
    load: () => loadItems('heldout6'),
  },
  {
    key: 'heldOut',
    label: '2017 agenda items (labelled blind, held out twice, then used)',
    load: () => loadItems('heldout7'),
  },
  {
    key: 'heldOut8',
    label: '2016 and 2017 agenda items (labelled blind, held out once, then used)',
    load: () => loadItems('heldout8'),
  },
  {
    key: 'heldOut9',
    label: '2017 agenda items (labelled blind, held out thrice, then used)',
    load: () => loadItems('heldout9'),
  },
  {
    key: 'heldOut10',
    label: '2016 and 2017 agenda items (held out, labelled blind)',
    load: () => loadItems('heldout10'),
  },
] as const;
export type ExtractionSets = Record<(typeof SETS)[number]['key'], ExtractionResult>;

export function measureExtraction(): ExtractionSets {
  return Object.fromEntries(SETS.map((s) => [s.key, scoreExtraction(s.load())])) as ExtractionSets;
}

export function formatExtraction(r: ExtractionSets): string {
  const out = [
    '\n## Extraction (bench/extraction/): precision and recall per field\n',
    '| set | field | precision | recall | tp | fp | fn |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const set of SETS) {
    for (const f of FIELDS) {
      const s = r[set.key].fields[f];
      out.push(
        `| ${set.label}, ${r[set.key].rows} | ${f} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${s.tp} | ${s.fp} | ${s.fn} |`,
      );
    }
  }
  return out.join('\n');
}

if (process.argv[1]?.endsWith('bench/extraction.ts')) {
  const r = measureExtraction();
  process.stdout.write(formatExtraction(r) + '\n');
  if (process.argv.includes('--errors'))
    for (const e of SETS.flatMap((set) => r[set.key].errors))
      process.stdout.write(`${e.file} ${e.field} ${e.kind}: ${e.value}\n`);
}
