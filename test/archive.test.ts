// Archive-grade release files: byte ranges (206, If-Range, 416) that remote Parquet readers fetch footers and row
// groups with, read here by hyparquet's range reader and by hand the way DuckDB's httpfs reads a footer.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import { DataType, tableFromIPC } from 'apache-arrow';
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import t from 'tap';

import type { Manifest } from '../core/lake/format.ts';
import { listFiles } from '../pipelines/publish/release.ts';
import { requestedRange } from '../src/http/downloads.ts';
import { FIXTURE_LAKE, fixtureRelease, get, startFixtureServer } from './fixture.ts';

const id = await fixtureRelease();
const dir = join(FIXTURE_LAKE, 'releases', id);
const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
const files = Object.values(manifest.tables).flatMap((x) => x.files);
const running = await startFixtureServer();
t.teardown(() => running.close());
const fileUrl = (path: string) => `${running.url}/api/releases/${id}/files/${path}`;
/** Until the server's file streams have all closed (a client can have the last byte a moment before). */
const idle = async () => {
  for (let i = 0; i < 200 && running.downloads.active > 0; i++) await new Promise((r) => setTimeout(r, 10));
};
// The largest Parquet file, so that reading its footer and one column is visibly less than reading it.
const big = files.filter((f) => f.path.endsWith('.parquet')).sort((a, b) => b.bytes - a.bytes)[0];

t.test('requestedRange: single, open-ended, suffix, several (one span), unsatisfiable, ignored', async (t) => {
  t.same(requestedRange('bytes=0-9', 100), { start: 0, end: 9 });
  t.same(requestedRange('bytes=90-', 100), { start: 90, end: 99 });
  t.same(requestedRange('bytes=-8', 100), { start: 92, end: 99 });
  t.same(requestedRange('bytes=-800', 100), { start: 0, end: 99 }, 'a suffix longer than the file is the file');
  t.same(requestedRange('bytes=95-200', 100), { start: 95, end: 99 }, 'an end past the file is its last byte');
  t.same(
    requestedRange('bytes=0-1, 50-59', 100),
    { start: 0, end: 59 },
    'several ranges: one span from the first to the last byte',
  );
  t.same(requestedRange('bytes=0-1,500-600', 100), { start: 0, end: 1 }, 'ranges past the end are dropped');
  t.equal(requestedRange('bytes=100-', 100), 'unsatisfiable');
  t.equal(requestedRange('bytes=-0', 100), 'unsatisfiable');
  t.equal(requestedRange('bytes=0-', 0), 'unsatisfiable', 'an empty file has no byte to send');
  for (const h of [undefined, '', 'bytes=', 'bytes=5-1', 'bytes=a-b', 'items=0-1', 'bytes=-', 'bytes=1-2-3'])
    t.equal(requestedRange(h, 100), null, `ignored: ${h}`);
});

t.test('a Range read of a release file is a 206 with its Content-Range; If-Range; 416', async (t) => {
  const whole = Buffer.from(await (await fetch(fileUrl(big.path))).arrayBuffer());
  t.equal(whole.length, big.bytes);
  const head = await fetch(fileUrl(big.path), { method: 'HEAD' });
  t.equal(head.headers.get('accept-ranges'), 'bytes', 'HEAD says ranges are accepted');
  t.equal(head.headers.get('content-length'), String(big.bytes));

  const tail = await fetch(fileUrl(big.path), { headers: { Range: 'bytes=-8' } });
  t.equal(tail.status, 206);
  t.equal(tail.headers.get('content-range'), `bytes ${big.bytes - 8}-${big.bytes - 1}/${big.bytes}`);
  t.equal(tail.headers.get('content-length'), '8');
  t.equal(tail.headers.get('etag'), `"${big.sha256}"`, 'the ETag of the whole file');
  const last8 = Buffer.from(await tail.arrayBuffer());
  t.equal(last8.subarray(4).toString('latin1'), 'PAR1', 'the last 8 bytes: footer length and the Parquet magic');
  // What DuckDB's httpfs (not built into this DuckDB) and every remote reader do next: the footer, by its length.
  const footerLength = last8.readUInt32LE(0);
  const start = big.bytes - 8 - footerLength;
  const footer = await fetch(fileUrl(big.path), { headers: { Range: `bytes=${start}-${big.bytes - 9}` } });
  t.equal(footer.status, 206);
  t.ok(
    Buffer.from(await footer.arrayBuffer()).equals(whole.subarray(start, big.bytes - 8)),
    'the footer bytes are the file’s',
  );

  const middle = await fetch(fileUrl(big.path), { headers: { Range: 'bytes=100-199', 'If-Range': `"${big.sha256}"` } });
  t.equal(middle.status, 206, 'If-Range naming this file: the range');
  t.ok(Buffer.from(await middle.arrayBuffer()).equals(whole.subarray(100, 200)));
  const stale = await fetch(fileUrl(big.path), {
    headers: { Range: 'bytes=100-199', 'If-Range': `"${'0'.repeat(64)}"` },
  });
  t.equal(stale.status, 200, 'If-Range naming another file: the whole file');
  t.equal((await stale.arrayBuffer()).byteLength, big.bytes);
  const weak = await fetch(fileUrl(big.path), { headers: { Range: 'bytes=100-199', 'If-Range': `W/"${big.sha256}"` } });
  t.equal(weak.status, 200, 'a weak validator never matches If-Range');
  await weak.arrayBuffer();
  const dated = await fetch(fileUrl(big.path), {
    headers: { Range: 'bytes=100-199', 'If-Range': new Date().toUTCString() },
  });
  t.equal(dated.status, 200, 'a date never matches (no Last-Modified is sent)');
  await dated.arrayBuffer();

  const two = await fetch(fileUrl(big.path), { headers: { Range: 'bytes=0-3,100-103' } });
  t.equal(two.status, 206, 'several ranges: one part');
  t.equal(two.headers.get('content-range'), `bytes 0-103/${big.bytes}`);
  await two.arrayBuffer();

  const past = await get(fileUrl(big.path), { headers: { Range: `bytes=${big.bytes}-` } });
  t.equal(past.status, 416);
  t.equal(past.headers.get('content-range'), `bytes */${big.bytes}`);
  t.equal(past.headers.get('content-type'), 'application/problem+json');
  t.match(past.json, { status: 416, title: 'Range not satisfiable' });

  const bad = await fetch(fileUrl(big.path), { headers: { Range: 'bytes=9-1' } });
  t.equal(bad.status, 200, 'an invalid Range is ignored');
  await bad.arrayBuffer();
  const cached = await fetch(fileUrl(big.path), {
    headers: { Range: 'bytes=0-1', 'If-None-Match': `"${big.sha256}"` },
  });
  t.equal(cached.status, 304, 'If-None-Match first');

  const m = await fetch(fileUrl('manifest.json'), { headers: { Range: 'bytes=0-0' } });
  t.equal(m.status, 206, 'the manifest too');
  t.equal(await m.text(), '{');
  const headRange = await fetch(fileUrl(big.path), { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
  t.equal(headRange.status, 200, 'HEAD ignores Range');
  await idle();
  t.equal(running.downloads.active, 0, 'every ranged download let go of its slot');
});

t.test('hyparquet reads a remote Parquet file through range requests only, fetching less than the file', async (t) => {
  const seen: { status: number; bytes: number }[] = [];
  const counting: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const body = await res.arrayBuffer();
    if (init?.method !== 'HEAD') seen.push({ status: res.status, bytes: body.byteLength });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const file = await asyncBufferFromUrl({ url: fileUrl(big.path), fetch: counting });
  t.equal(file.byteLength, big.bytes, 'its length from a HEAD');
  const metadata = await parquetMetadataAsync(file);
  t.equal(Number(metadata.num_rows), big.rows, 'the footer’s row count is the manifest’s');
  const first = metadata.schema[1].name;
  const rows = await parquetReadObjects({ file, columns: [first], compressors });
  t.equal(rows.length, big.rows, `every row of ${first}`);
  t.ok(seen.length >= 2 && seen.every((s) => s.status === 206), `${seen.length} reads, all 206`);
  const fetched = seen.reduce((n, s) => n + s.bytes, 0);
  t.ok(fetched < big.bytes, `${fetched} of ${big.bytes} bytes fetched`);
  await idle();
  t.equal(running.downloads.active, 0, 'every range read let go of its slot');
});

t.test('every release file answers with its own media type', async (t) => {
  const expected = (path: string) =>
    path.endsWith('.parquet')
      ? 'application/vnd.apache.parquet'
      : path.endsWith('.bin')
        ? 'application/octet-stream'
        : 'unexpected file';
  for (const f of files) {
    const res = await fetch(fileUrl(f.path), { method: 'HEAD' });
    t.equal(res.headers.get('content-type'), expected(f.path), f.path);
  }
  t.ok(
    files.some((f) => f.path.endsWith('.bin')),
    'the release has text stores',
  );
  const m = await fetch(fileUrl('manifest.json'), { method: 'HEAD' });
  t.equal(m.headers.get('content-type'), 'application/json; charset=utf-8', 'manifest.json');
});

t.test('SHA256SUMS: sha256sum -c passes in the release directory; served as written', async (t) => {
  t.equal(manifest.checksums, 'SHA256SUMS', 'the manifest names it');
  const sums = await readFile(join(dir, 'SHA256SUMS'), 'utf8');
  const out = execFileSync('sha256sum', ['--check', '--strict', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
  t.equal(out.trim().split('\n').length, files.length, 'one line per data file');
  t.ok(
    out
      .trim()
      .split('\n')
      .every((l) => l.endsWith(': OK')),
    'every file OK',
  );
  const listed = sums
    .trim()
    .split('\n')
    .map((l) => l.slice(66));
  t.same([...listed].sort(), files.map((f) => f.path).sort(), 'exactly the manifest’s files');
  const onDisk = (await listFiles(dir))
    .map((f) => relative(dir, f))
    .filter((f) => f !== 'manifest.json' && f !== 'SHA256SUMS');
  t.same([...onDisk].sort(), [...listed].sort(), 'and every other file of the release directory');
  const wrong = sums.replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0'));
  t.not(
    spawnSync('sha256sum', ['--check', '--quiet', '-'], { cwd: dir, input: wrong }).status,
    0,
    'a wrong checksum fails',
  );

  const served = await fetch(fileUrl('SHA256SUMS'));
  t.equal(served.status, 200);
  t.equal(served.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.equal(await served.text(), sums, 'the server answers the bytes the pipeline wrote');
  t.equal(
    served.headers.get('etag'),
    `"${execFileSync('sha256sum', ['SHA256SUMS'], { cwd: dir, encoding: 'utf8' }).slice(0, 64)}"`,
  );
  const part = await fetch(fileUrl('SHA256SUMS'), { headers: { Range: 'bytes=0-63' } });
  t.equal(part.status, 206);
  t.equal(await part.text(), sums.slice(0, 64));
});

t.test('the release id recomputed from the files by the commands lake/README.md gives', async (t) => {
  const readme = await readFile(join(import.meta.dirname, '..', 'lake', 'README.md'), 'utf8');
  const block = /```sh release-id\n([\s\S]*?)```/.exec(readme);
  if (!block) return t.fail('lake/README.md has a `sh release-id` block');
  const commands = block[1].replace(/^ {2}/gm, '');
  const out = execFileSync('bash', ['-e', '-o', 'pipefail', '-c', commands], { cwd: dir, encoding: 'utf8' }).trim();
  t.equal(out, manifest.releaseId, 'the checksums pass, and the last line is the manifest’s release id');
  t.equal(out, id, 'the directory’s name');
});

/**
 * A value as DuckDB's getRowObjectsJson writes it: BIGINT as a decimal string, DATE as `YYYY-MM-DD`, TIMESTAMP as
 * `YYYY-MM-DD HH:MM:SS`; floats to 6 significant digits (FLOAT is printed shortest in one, widened in the other).
 */
function asDuckJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? v : Number(v.toPrecision(6));
  if (v instanceof Date)
    return v
      .toISOString()
      .replace(/T00:00:00\.000Z$/, '')
      .replace('T', ' ')
      .replace(/(\.000)?Z$/, '');
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v as ArrayLike<unknown>, asDuckJson);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asDuckJson(x)]));
  return v;
}

t.test(
  'every Parquet file of the release reads the same in hyparquet, an independent reader, as in DuckDB',
  async (t) => {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const db = await instance.connect();
    t.teardown(() => {
      db.closeSync();
      instance.closeSync();
    });
    const parquet = files.filter((f) => f.path.endsWith('.parquet'));
    t.ok(
      parquet.some((f) => f.path === 'legislative_files.parquet'),
      'legislative_files, nested lists of structs, is among them',
    );
    for (const f of parquet) {
      const bytes = await readFile(join(dir, f.path));
      const rows = await parquetReadObjects({
        file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
        compressors,
      });
      const duck = (
        await db.runAndReadAll(`SELECT * FROM read_parquet('${join(dir, f.path)}', hive_partitioning = false)`)
      ).getRowObjectsJson();
      t.equal(rows.length, f.rows, `${f.path}: ${f.rows} rows, as the manifest says`);
      t.equal(duck.length, f.rows);
      const first = rows.findIndex((r, i) => JSON.stringify(asDuckJson(r)) !== JSON.stringify(asDuckJson(duck[i])));
      t.equal(first, -1, `${f.path}: every row and column alike${first === -1 ? '' : ` (not row ${first})`}`);
    }
    // The shapes that trip other readers are there: a null struct, nulls inside the list of structs, empty lists.
    const bytes = await readFile(join(dir, 'legislative_files.parquet'));
    const files_ = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
      compressors,
    });
    type Action = { rescinded_by: string | null };
    const lf = files_ as { final_action: Action | null; actions: Action[] }[];
    t.ok(
      lf.some((r) => r.final_action == null),
      'a file with no final action (a null struct; hyparquet leaves it undefined)',
    );
    t.ok(
      lf.some((r) => r.actions.length === 0),
      'a file with no action (an empty list)',
    );
    t.ok(
      lf.some((r) => r.actions.some((a) => a.rescinded_by == null)),
      'null fields inside the list of structs',
    );
    t.ok(
      lf.some((r) => r.actions.some((a) => a.rescinded_by != null)),
      'and set ones',
    );
  },
);

t.test('format=arrow: a snapshot page as an Arrow IPC stream, typed, the same records as the JSON page', async (t) => {
  for (const name of ['documents', 'supervisors', 'recorded-positions', 'legislative-files']) {
    const url = `${running.url}/api/snapshots/${name}?limit=300&cursor=5`;
    const json = (await get(url)).json;
    const res = await fetch(`${url}&format=arrow`);
    t.equal(res.status, 200, name);
    t.equal(res.headers.get('content-type'), 'application/vnd.apache.arrow.stream');
    t.equal(res.headers.get('x-total-count'), String(json.total));
    t.equal(res.headers.get('x-next-cursor'), json.nextCursor === null ? null : String(json.nextCursor));
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    t.equal(table.numRows, json.returned, `${name}: ${json.returned} records`);
    t.same(
      table.schema.fields.map((f) => f.name),
      Object.keys(json.records[0] ?? {}),
      'the record’s fields in order',
    );
    t.equal(table.schema.metadata.get('release'), id);
    t.equal(table.schema.metadata.get('total'), String(json.total));
    // Dates come back as Date32 (epoch milliseconds here): as YYYY-MM-DD they are the JSON page's records.
    const day = (v: unknown, type: DataType): unknown => {
      if (v === null || v === undefined) return null;
      if (DataType.isDate(type)) return new Date(v as number).toISOString().slice(0, 10);
      if (DataType.isList(type)) return Array.from(v as Iterable<unknown>, (x) => day(x, type.children[0].type));
      if (DataType.isStruct(type)) {
        const row = v as Record<string, unknown>;
        return Object.fromEntries(type.children.map((f) => [f.name, day(row[f.name], f.type)]));
      }
      return v;
    };
    const back = table
      .toArray()
      .map((r) => Object.fromEntries(table.schema.fields.map((f) => [f.name, day(r[f.name], f.type)])));
    t.same(back, json.records, `${name}: every record and value alike`);
  }
  const types = tableFromIPC(
    new Uint8Array(
      await (await fetch(`${running.url}/api/snapshots/legislative-files?limit=5&format=arrow`)).arrayBuffer(),
    ),
  ).schema;
  t.equal(String(types.fields.find((f) => f.name === 'first_meeting')?.type), 'Date32<DAY>');
  t.match(
    String(types.fields.find((f) => f.name === 'actions')?.type),
    /^List<Struct<\{meeting_date:Date32<DAY>, .*ayes:Int32/,
  );
  t.equal(types.fields.find((f) => f.name === 'final_action')?.nullable, true);
  const last = await fetch(`${running.url}/api/snapshots/supervisors?cursor=100000&format=arrow`);
  t.equal(tableFromIPC(new Uint8Array(await last.arrayBuffer())).numRows, 0, 'past the end: the schema and no record');
});
