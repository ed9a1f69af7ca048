// Snapshots over the fixture release: the manifest, paging every entity (each record once; NDJSON equals JSON), errors,
// clients that go away, and the release files themselves (slow readers: snapshots-slow-client.test.ts).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { type DuckDBBlobValue, DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { Release } from '../src/lake/release.ts';
import { BLOCK, entity, lowerEscapes, ndjsonBytes, snapshotNdjsonWindows } from '../src/queries/snapshots.ts';
import { start } from '../src/server.ts';
import type { Json } from './fixture.ts';
import { FIXTURE_LAKE, fixtureRelease, get, openFixtureRelease, ROOT, schemaErrors, testConfig } from './fixture.ts';

const releaseId = await fixtureRelease();
const running = await start(testConfig());
t.teardown(() => running.close());
const api = async (path: string) => {
  const r = await get(`${running.url}${path}`);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.json;
};
const ndjson = async (path: string) => {
  const res = await fetch(`${running.url}${path}`);
  const text = await res.text();
  return {
    res,
    records: text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    text,
  };
};

const db = await (await DuckDBInstance.create(':memory:')).connect();
const dir = join(FIXTURE_LAKE, 'releases', releaseId);
const count = async (table: string) =>
  Number((await db.runAndReadAll(`SELECT count(*) FROM read_parquet('${dir}/${table}/**/*.parquet')`)).getRows()[0][0]);
const tables: Record<string, [string, string]> = {
  documents: ['documents', 'document_id'],
  supervisors: ['supervisors', 'supervisor_id'],
  'recorded-positions': ['positions', 'position_id'],
  'legislative-files': ['legislative_files', 'file_number'],
};
const parquetCount = async (entity: string) => {
  const table = tables[entity][0];
  return ['supervisors', 'legislative_files'].includes(table)
    ? Number((await db.runAndReadAll(`SELECT count(*) FROM '${dir}/${table}.parquet'`)).getRows()[0][0])
    : count(table);
};

t.test('the manifest lists four entities with counts, record schemas and Parquet files', async (t) => {
  const m = await api('/api/snapshots');
  t.equal(schemaErrors('snapshot-manifest.json', m), '');
  t.equal(m.release, releaseId);
  t.same(
    m.entities.map((e: Json) => e.entity),
    ['documents', 'supervisors', 'recorded-positions', 'legislative-files'],
  );
  for (const e of m.entities) {
    t.equal(e.records, await parquetCount(e.entity), `${e.entity}: record count equals the Parquet rows`);
    t.equal(e.recordSchema.$id, `snapshot/${e.entity}.json`);
    t.same(e.formats, ['json', 'ndjson', 'csv', 'arrow', 'parquet']);
    t.ok(e.parquet.length > 0);
    for (const f of e.parquet) {
      const file = await fetch(f.url);
      const bytes = Buffer.from(await file.arrayBuffer());
      t.equal(createHash('sha256').update(bytes).digest('hex'), f.sha256, `${f.path}: download matches its sha256`);
      t.equal(file.headers.get('etag'), `"${f.sha256}"`);
    }
  }
  t.equal(m.entities.find((e: Json) => e.entity === 'documents').records, 38);
});

t.test('paging from 0 yields every record once, in key order; NDJSON equals JSON', async (t) => {
  for (const [entity, [, key]] of Object.entries(tables)) {
    const seen: string[] = [];
    let pages = 0;
    for (let cursor: number | null = 0; cursor !== null; pages++) {
      const page: Json = await api(`/api/snapshots/${entity}?cursor=${cursor}&limit=97`);
      t.equal(schemaErrors('snapshot-page.json', page), '', 'valid SnapshotPage');
      for (const r of page.records) {
        const errors = schemaErrors(`snapshot/${entity}.json`, r);
        if (errors) t.fail(`${entity} record ${r[key]}: ${errors}`);
      }
      const nd = await ndjson(`/api/snapshots/${entity}?cursor=${cursor}&limit=97&format=ndjson`);
      t.same(nd.records, page.records, `${entity} @${cursor}: NDJSON records equal the JSON page's`);
      t.equal(nd.res.headers.get('x-next-cursor'), page.nextCursor === null ? null : String(page.nextCursor));
      seen.push(...page.records.map((r: Json) => r[key]));
      cursor = page.nextCursor;
    }
    t.equal(seen.length, await parquetCount(entity), `${entity}: ${seen.length} records in ${pages} pages`);
    t.equal(new Set(seen).size, seen.length, `${entity}: none twice`);
    t.same(
      seen,
      [...seen].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
      `${entity}: key order`,
    );
  }
});

t.test(
  "pages across the sparse ordering's block edges equal ORDER BY key LIMIT/OFFSET; NDJSON is JSON.stringify byte for byte",
  async (t) => {
    const lf = await parquetCount('legislative-files');
    t.ok(lf > BLOCK, `the fixture's ${lf} legislative files span more than one block of ${BLOCK}`);
    const keys = (
      await db.runAndReadAll(`SELECT file_number FROM '${dir}/legislative_files.parquet' ORDER BY file_number`)
    )
      .getRowObjectsJson()
      .map((r) => r.file_number);
    const cursors = [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK - 3, 2 * BLOCK, lf - 1000, lf - 3, lf - 1].filter(
      (c) => c >= 0 && c < lf,
    );
    for (const cursor of cursors) {
      for (const limit of [1, 5, 97, 1000]) {
        const page: Json = await api(`/api/snapshots/legislative-files?cursor=${cursor}&limit=${limit}`);
        t.same(
          page.records.map((r: Json) => r.file_number),
          keys.slice(cursor, cursor + limit),
          `@${cursor} limit ${limit}: the keys at those positions`,
        );
        const nd = await ndjson(`/api/snapshots/legislative-files?cursor=${cursor}&limit=${limit}&format=ndjson`);
        t.equal(
          nd.text,
          page.records.map((r: Json) => `${JSON.stringify(r)}\n`).join(''),
          `@${cursor} limit ${limit}: NDJSON bytes`,
        );
      }
    }
    const positions = await parquetCount('recorded-positions');
    const last: Json = await api(`/api/snapshots/recorded-positions?cursor=${positions - 2}&limit=1000`);
    t.same([last.returned, last.nextCursor], [2, null], 'the last block has no upper key');
  },
);

t.test('NDJSON pages across read-ahead window edges equal the JSON pages', async (t) => {
  // The fixture is smaller than one window, so windows of one block stand in (the edge logic is the same).
  const release = await openFixtureRelease(t);
  const lf = await parquetCount('legislative-files');
  for (const cursor of [0, BLOCK - 500, BLOCK - 1, BLOCK, lf - 7]) {
    for (const limit of [1, 500, 1000]) {
      const page: Json = await api(`/api/snapshots/legislative-files?cursor=${cursor}&limit=${limit}`);
      const text = await snapshotNdjsonWindows(
        release,
        entity('legislative-files')!,
        { cursor, limit, format: 'ndjson' },
        BLOCK,
      );
      t.equal(
        text.toString('utf8'),
        page.records.map((r: Json) => `${JSON.stringify(r)}\n`).join(''),
        `@${cursor} limit ${limit}: ${page.returned} records`,
      );
    }
  }
});

t.test(
  'a page read ahead: the window after it is read while the page is sent, so the next page runs no query',
  async (t) => {
    const release = await Release.open(join(FIXTURE_LAKE, 'current'), {
      poolSize: 2,
      queueLimit: 1,
      queryTimeoutMs: 10_000,
    }); // nothing cached
    t.teardown(() => release.retire());
    const e = entity('legislative-files')!;
    const size = BLOCK; // the fixture is smaller than one window: windows of one block stand in
    const first = await snapshotNdjsonWindows(release, e, { cursor: 0, limit: size, format: 'ndjson' }, size);
    await new Promise((r) => setTimeout(r, 500));
    const before = release.pool.leased;
    const second = await snapshotNdjsonWindows(release, e, { cursor: size, limit: size, format: 'ndjson' }, size);
    t.equal(release.pool.leased, before, 'the second page came from the window read ahead');
    const lines = (b: Buffer) => b.toString('utf8').split('\n').length - 1;
    t.same(
      [lines(first), lines(second)],
      [size, Math.min(size, (await parquetCount('legislative-files')) - size)],
      'the two pages hold their records',
    );
  },
);

t.test("DuckDB's JSON escapes are made JSON.stringify's", async (t) => {
  let s = '';
  for (let i = 0; i < 0x80; i++) s += String.fromCharCode(i);
  s += '\\u001B \\\u001b \u00e9\u2028\u{1F600}';
  const r = await db.runAndReadAll(
    `SELECT to_json({'s': ?::VARCHAR, 'n': NULL::VARCHAR, 'l': ['a\x1Fb']})::VARCHAR AS j`,
    [s],
  );
  const j = String(r.getRowObjectsJson()[0].j);
  t.not(j, JSON.stringify({ s, n: null, l: ['a\x1Fb'] }), 'yyjson writes upper-case \\u escapes');
  t.equal(lowerEscapes(`${j}\n`), `${JSON.stringify({ s, n: null, l: ['a\x1Fb'] })}\n`);
  const lines = await db.runAndReadAll(
    `SELECT encode(string_agg(to_json({'s': ?::VARCHAR})::VARCHAR || chr(10), '')) FROM range(2)`,
    [s],
  );
  const bytes = ndjsonBytes(lines.getRows()[0][0] as DuckDBBlobValue);
  t.equal(bytes.toString('utf8'), `${JSON.stringify({ s })}\n`.repeat(2), 'the NDJSON bytes of a window, too');
});

t.test('NDJSON: one record per line, headers name schema version, release, total and next cursor', async (t) => {
  const { res, text, records } = await ndjson('/api/snapshots/recorded-positions?format=ndjson');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/x-ndjson/);
  t.equal(res.headers.get('x-schema-version'), '1.0.0');
  t.equal(res.headers.get('x-release-id'), releaseId);
  t.equal(res.headers.get('x-total-count'), String(await count('positions')));
  t.equal(res.headers.get('x-next-cursor'), null, 'all 484 fit in the default limit of 1000: no next page');
  t.equal(records.length, await count('positions'));
  t.equal(text.split('\n').length, records.length + 1, 'newline-terminated lines');
  const first = await ndjson('/api/snapshots/legislative-files?format=ndjson&limit=1000');
  t.equal(first.res.headers.get('x-next-cursor'), '1000');
  t.equal(first.records.length, 1000);
  const accept = await fetch(`${running.url}/api/snapshots/documents?format=ndjson`, {
    headers: { Accept: 'application/x-ndjson' },
  });
  t.equal(accept.status, 200, 'Accept: application/x-ndjson is acceptable');
  await accept.text();
});

t.test('errors: unknown entity 404, bad cursor/limit/format 400, past the end is an empty last page', async (t) => {
  const unknown = await get(`${running.url}/api/snapshots/meetings`);
  t.equal(unknown.status, 404);
  t.equal(schemaErrors('problem.json', unknown.json), '');
  for (const q of [
    'cursor=-1',
    'cursor=1.5',
    'cursor=abc',
    'limit=0',
    'limit=1001',
    'format=xml',
    'cursor=1&cursor=2',
    'page=2',
  ]) {
    const r = await get(`${running.url}/api/snapshots/documents?${q}`);
    t.equal(r.status, 400, q);
    t.ok(r.json.errors.length >= 1, `${q}: names the broken rule`);
  }
  const ndUnknown = await get(`${running.url}/api/snapshots/meetings?format=ndjson`);
  t.equal(ndUnknown.status, 404, 'NDJSON errors are problem documents too');
  const past = await api('/api/snapshots/documents?cursor=5000');
  t.same([past.records, past.nextCursor, past.total], [[], null, 38]);
  const dflt = await api('/api/snapshots/legislative-files');
  t.same([dflt.limit, dflt.returned, dflt.nextCursor], [1000, 1000, 1000], 'default limit 1000');
  const missing = await get(`${running.url}/api/snapshots/documents/1999-01-01-agenda`);
  t.equal(missing.status, 404);
});

t.test('ETag and 304; a pinned release', async (t) => {
  const first = await get(`${running.url}/api/snapshots/documents?limit=5`);
  const etag = first.headers.get('etag')!;
  const again = await fetch(`${running.url}/api/snapshots/documents?limit=5`, { headers: { 'If-None-Match': etag } });
  t.equal(again.status, 304);
  const pinned = await get(`${running.url}/api/snapshots/documents?limit=5&release=${releaseId}`);
  t.equal(pinned.headers.get('x-release-id'), releaseId);
  t.same(pinned.json.records, first.json.records);
  const gone = await get(`${running.url}/api/snapshots/documents?release=0000000000000000`);
  t.equal(gone.status, 404);
  t.ok(
    Array.isArray(gone.json.keptReleases) && gone.json.keptReleases.includes(releaseId),
    'the problem lists the kept releases',
  );
});

t.test('a client that goes away leaves its connection free', async (t) => {
  const small = await start(testConfig({ poolSize: 1, queueLimit: 4, queryTimeoutMs: 3000 }));
  t.teardown(() => small.close());
  for (let i = 0; i < 5; i++) {
    const ac = new AbortController();
    const res = await fetch(`${small.url}/api/snapshots/legislative-files?format=ndjson`, { signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read(); // the first bytes arrive, then the client leaves
    ac.abort();
    await reader.read().catch(() => null);
  }
  // With one connection, a leaked one would leave every later query waiting until it timed out.
  const started = Date.now();
  const r = await get(`${small.url}/api/snapshots/documents?limit=3`);
  t.equal(r.status, 200);
  t.ok(Date.now() - started < 2000, 'the single connection is free again');
  const whole = await fetch(`${small.url}/api/snapshots/legislative-files?format=ndjson&limit=1000`);
  t.equal((await whole.text()).split('\n').filter(Boolean).length, 1000);
});

t.test(
  'release files: manifest.json and listed Parquet files only, sha256 as ETag, 304, no way out of the release',
  async (t) => {
    const base = `${running.url}/api/releases/${releaseId}/files`;
    const manifest = await get(`${base}/manifest.json`);
    t.equal(manifest.status, 200);
    const onDisk = await readFile(join(dir, 'manifest.json'));
    t.equal(manifest.text, onDisk.toString('utf8'));
    t.equal(manifest.headers.get('etag'), `"${createHash('sha256').update(onDisk).digest('hex')}"`);
    const file = manifest.json.tables.changes.files[0];
    const etag = `"${file.sha256}"`;
    const cached = await fetch(`${base}/${file.path}`, { headers: { 'If-None-Match': etag } });
    t.equal(cached.status, 304);
    const head = await fetch(`${base}/${manifest.json.tables.documents.files[0].path}`, { method: 'HEAD' });
    t.equal(head.status, 200);
    t.equal(head.headers.get('content-length'), String(manifest.json.tables.documents.files[0].bytes));
    for (const bad of [
      '../../current/manifest.json',
      '..%2F..%2Fcurrent%2Fmanifest.json',
      '%2e%2e/%2e%2e/releases',
      'documents',
      '/etc/passwd',
      'documents%2F..%2F..%2Fmanifest.json', // an escaped slash is a slash: out of the files, naming nothing
      '.scratch/x',
      'nope.parquet',
    ]) {
      const r = await get(`${base}/${bad}`);
      t.equal(r.status, 404, bad);
    }
    t.equal((await get(`${running.url}/api/releases/..%2F..%2F/files/manifest.json`)).status, 404);
    t.equal((await get(`${running.url}/api/releases/0000000000000000/files/manifest.json`)).status, 404);
    const post = await fetch(`${base}/manifest.json`, { method: 'POST' });
    t.equal(post.status, 405);
    const list = await api('/api/releases');
    t.equal(schemaErrors('releases.json', list), '');
    t.ok(list.releases.some((r: Json) => r.release === releaseId && r.current));
  },
);

t.test('lake/README.md: each entity loads from Parquet with the documented DuckDB query', async (t) => {
  const readme = await readFile(join(ROOT, 'lake', 'README.md'), 'utf8');
  const inLake = (sql: string) => sql.replaceAll('lake/current', dir);
  for (const [entity, [, key]] of Object.entries(tables)) {
    const sql = new RegExp('```sql entity-' + entity + '\\n([\\s\\S]*?)```').exec(readme)?.[1];
    if (!sql) {
      t.fail(`no example for ${entity}`);
      continue;
    }
    const keys = (await db.runAndReadAll(inLake(sql))).getRowObjectsJson().map((r) => r[key]);
    const api: Json = await (await fetch(`${running.url}/api/snapshots/${entity}?limit=1000`)).json();
    t.same(
      keys.slice(0, 1000),
      api.records.map((r: Json) => r[key]),
      `${entity}: the same records in the same order`,
    );
    t.equal(keys.length, api.total);
  }
  const changes = /```sql changes-example\n([\s\S]*?)```/
    .exec(readme)![1]
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  await db.run(inLake(changes[0]));
  const log = (await db.runAndReadAll(inLake(changes[1]))).getRowObjectsJson();
  const feed: Json = await (await fetch(`${running.url}/api/changes?limit=3`)).json();
  t.same(
    log.slice(0, 3).map((r) => [Number(r.sequence), r.record_id, r.release, r.record_hash]),
    feed.changes.map((c: Json) => [c.sequence, c.id, c.release, c.recordHash]),
    'the change-log query reads what the feed shows',
  );
});

t.test('the OpenAPI document lists the data endpoints', async (t) => {
  const doc = await api('/api/openapi.json');
  for (const p of [
    '/api/snapshots',
    '/api/snapshots/documents',
    '/api/snapshots/legislative-files/{id}',
    '/api/changes',
    '/api/quality',
    '/api/releases',
  ])
    t.ok(doc.paths[p], p);
  t.ok(doc.components.schemas.SnapshotLegislativeFiles);
});
