// Snapshot pages for clients we do not write: CSV read by a plain HTTP client page after page (counts equal to the
// release's Parquet, counted by DuckDB), the README's pandas loop when pandas is installed, next links that pin the
// release, and Arrow columns typed as the Parquet files store them.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import t from 'tap';

import { csvField, csvTable } from '../src/render/csv.ts';
import { FIXTURE_LAKE, fixtureRelease, get, type Json, ROOT, startFixtureServer } from './fixture.ts';

const run = promisify(execFile);
const releaseId = await fixtureRelease();
const running = await startFixtureServer();
t.teardown(() => running.close());
const dir = join(FIXTURE_LAKE, 'releases', releaseId);

const db = await (await DuckDBInstance.create(':memory:')).connect();
/** The entity's table in the release, as its Parquet files (the `year` directories are not a column of them). */
const tables: Record<string, [string, string]> = {
  documents: [`'${dir}/documents/**/*.parquet'`, 'document_id'],
  supervisors: [`'${dir}/supervisors.parquet'`, 'supervisor_id'],
  'recorded-positions': [`'${dir}/positions/**/*.parquet'`, 'position_id'],
  'legislative-files': [`'${dir}/legislative_files.parquet'`, 'file_number'],
};
const parquet = (entity: string) => `read_parquet(${tables[entity][0]}, hive_partitioning = false)`;
const parquetCount = async (entity: string) =>
  Number((await db.runAndReadAll(`SELECT count(*) FROM ${parquet(entity)}`)).getRows()[0][0]);

/** RFC 4180 read strictly, independent of the renderer: rows of fields; throws on anything else. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        for (i++; ; i++) {
          if (i >= text.length) throw new Error('unterminated quoted field');
          if (text[i] !== '"') field += text[i];
          else if (text[i + 1] === '"') field += text[++i];
          else break;
        }
        i++;
      } else
        for (; i < text.length && !',\r\n'.includes(text[i]); i++) {
          if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
          field += text[i];
        }
      row.push(field);
      if (text[i] === ',') i++;
      else if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      } else throw new Error(`a line not ended by CRLF at ${i}`);
    }
    rows.push(row);
  }
  return rows;
}

const nextLink = (res: Response | { headers: Headers }) =>
  /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;

t.test('the CSV writer: quotes doubled, text quoted, JSON cells, formulas defused, CRLF', async (t) => {
  t.equal(csvField('say "no", then\r\nleave'), '"say ""no"", then\r\nleave"');
  t.equal(csvField('170240'), '"170240"', 'an id is quoted text');
  t.same([csvField(5), csvField(false), csvField(null)], ['5', 'false', '']);
  t.equal(csvField(['a', 'b"c']), '"[""a"",""b\\""c""]"', 'a list as its JSON text');
  t.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"', 'a formula stays text');
  t.equal(csvTable(['a', 'b'], [{ a: 'x', b: 1 }]), 'a,b\r\n"x",1\r\n');
  t.same(parseCsv(csvTable(['a'], [{ a: 'one\ntwo,"3"' }])), [['a'], ['one\ntwo,"3"']]);
});

t.test('CSV pages equal the JSON pages: columns in schema order, ids as text, lists as JSON', async (t) => {
  for (const entity of Object.keys(tables)) {
    const json = (await get(`${running.url}/api/snapshots/${entity}?limit=200&cursor=3`)).json;
    const res = await fetch(`${running.url}/api/snapshots/${entity}?limit=200&cursor=3&format=csv`);
    const text = await res.text();
    t.equal(res.status, 200, entity);
    t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
    t.equal(res.headers.get('x-total-count'), String(json.total));
    t.equal(res.headers.get('x-next-cursor'), json.nextCursor === null ? null : String(json.nextCursor));
    const [header, ...rows] = parseCsv(text);
    t.same(header, Object.keys(json.records[0]), `${entity}: the record's fields as the header row`);
    t.equal(rows.length, json.returned, `${entity}: ${json.returned} rows`);
    const cell = (v: unknown) =>
      v === null
        ? ''
        : typeof v === 'object'
          ? JSON.stringify(v)
          : typeof v === 'string' && /^[=+\-@\t\r]/.test(v)
            ? `'${v}`
            : String(v);
    t.same(
      rows,
      json.records.map((r: Json) => header.map((c) => cell(r[c]))),
      `${entity}: every value alike`,
    );
  }
  const lf = await (await fetch(`${running.url}/api/snapshots/legislative-files?limit=1&format=csv`)).text();
  t.match(lf, /^file_number,matter,.*\r\n"\d{6}",/, 'a file number is a quoted text cell');
  const sample = parseCsv(lf)[1][parseCsv(lf)[0].indexOf('titles')];
  t.ok(Array.isArray(JSON.parse(sample)), 'titles: a JSON list in one cell');
});

t.test('Accept: text/csv; the next page pinned to the release; format and Accept errors', async (t) => {
  const res = await fetch(`${running.url}/api/snapshots/legislative-files`, { headers: { Accept: 'text/csv' } });
  t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
  t.equal(parseCsv(await res.text()).length, 1001, 'a header and 1000 records');
  t.equal(res.headers.get('x-next-cursor'), '1000');
  const next = new URL(nextLink(res)!);
  t.same(
    [next.searchParams.get('cursor'), next.searchParams.get('release')],
    ['1000', releaseId],
    'the unpinned page links to the next page of its own release',
  );
  for (const format of ['json', 'ndjson', 'arrow']) {
    const page = await fetch(`${running.url}/api/snapshots/legislative-files?format=${format}`);
    await page.arrayBuffer();
    t.equal(new URL(nextLink(page)!).searchParams.get('release'), releaseId, `${format}: the next link pins too`);
  }
  const pinned = await fetch(`${running.url}/api/snapshots/legislative-files?release=${releaseId}&format=csv`);
  await pinned.text();
  t.equal(new URL(nextLink(pinned)!).searchParams.getAll('release').length, 1, 'a pinned request keeps its one pin');
  const other = await get(`${running.url}/api/snapshots/documents`, { headers: { Accept: 'text/xml' } });
  t.equal(other.status, 406);
  t.match(other.json.detail, /text\/csv/, 'the 406 names CSV among the types offered');
  const bad = await get(`${running.url}/api/snapshots/documents?format=tsv`);
  t.equal(bad.status, 400);
  t.same(
    bad.json.errors.map((e: Json) => e.parameter),
    ['format'],
  );
  const gz = await fetch(`${running.url}/api/snapshots/legislative-files?format=csv`, {
    headers: { 'Accept-Encoding': 'gzip' },
  });
  await gz.arrayBuffer();
  t.equal(gz.headers.get('content-encoding'), 'gzip', 'CSV is compressed');
});

const hasPython = (await run('python3', ['--version']).catch(() => null)) !== null;
// The first Python that has pandas: the one on PATH, or Debian's (python3-pandas, which .ci/run installs).
let pandasPython: string | null = null;
for (const python of ['python3', '/usr/bin/python3'])
  if (!pandasPython && (await run(python, ['-c', 'import pandas']).catch(() => null)) !== null) pandasPython = python;

t.test(
  'a plain HTTP client following every CSV page reads every record of each entity once',
  { skip: hasPython ? false : 'no python3 on this machine' },
  async (t) => {
    const { stdout } = await run('python3', [join(ROOT, 'test', 'csv', 'follow-pages.py'), running.url]);
    const read: Json = JSON.parse(stdout);
    for (const entity of Object.keys(tables)) {
      const n = await parquetCount(entity);
      t.equal(read[entity].records, n, `${entity}: ${n} records, as DuckDB counts the release's Parquet`);
      t.equal(read[entity].keys, n, `${entity}: each once`);
      t.equal(read[entity].total, n, `${entity}: X-Total-Count states it`);
      t.same(read[entity].releases, [releaseId], `${entity}: every page from one release`);
      t.equal(read[entity].pages, Math.max(1, Math.ceil(n / 1000)));
    }
  },
);

t.test(
  "the README's pandas loop reads every legislative file",
  { skip: pandasPython ? false : 'pandas is not installed here' },
  async (t) => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const code = /## From pandas, R and a spreadsheet[\s\S]*?```python\n([\s\S]*?)```/.exec(readme)?.[1];
    if (!code) return t.fail('README has no pandas loop');
    const script = `${code.replace('http://127.0.0.1:8080', running.url)}
print(len(files), files["file_number"].nunique(), files["file_number"].map(type).eq(str).all())`;
    const { stdout } = await run(pandasPython!, ['-c', script]);
    const n = await parquetCount('legislative-files');
    t.equal(stdout.trim(), `${n} ${n} True`, `${n} files, each once, file numbers as text`);
  },
);

t.test("Arrow columns have the Parquet files' types", async (t) => {
  const arrowOf: Record<string, string> = {
    BIGINT: 'Int64',
    INTEGER: 'Int32',
    DATE: 'Date32<DAY>',
    VARCHAR: 'Utf8',
    BOOLEAN: 'Bool',
  };
  for (const entity of Object.keys(tables)) {
    const res = await fetch(`${running.url}/api/snapshots/${entity}?limit=5&format=arrow`);
    const arrow = tableFromIPC(new Uint8Array(await res.arrayBuffer())).schema;
    const described = (await db.runAndReadAll(`DESCRIBE SELECT * FROM ${parquet(entity)}`)).getRowObjectsJson();
    let compared = 0;
    for (const { column_name: name, column_type: type } of described) {
      const field = arrow.fields.find((f) => f.name === name);
      t.ok(field, `${entity}.${String(name)} is an Arrow column`);
      const expected = arrowOf[String(type)];
      if (!field || !expected) continue; // lists and structs: archive.test.ts checks their members
      t.equal(String(field.type), expected, `${entity}.${String(name)}: ${String(type)}`);
      compared++;
    }
    t.ok(compared >= 3, `${entity}: ${compared} scalar columns compared`);
  }
  const docs = await fetch(`${running.url}/api/snapshots/documents?limit=3&format=arrow`);
  const bytes = tableFromIPC(new Uint8Array(await docs.arrayBuffer())).getChild('bytes')!;
  const json = (await get(`${running.url}/api/snapshots/documents?limit=3`)).json;
  t.same(
    [...bytes].map(Number),
    json.records.map((r: Json) => r.bytes),
    'documents.bytes: Int64, the same sizes as JSON',
  );
});
