// The change feed: a second release built from a changed corpus (one document added, one removed, one modified) yields
// exactly those changes, the first release's changes stay as they were, and the log is byte-reproducible.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t from 'tap';

import { sha256Of } from '../core/lake/format.ts';
import { start } from '../src/server.ts';
import { build, makeCorpus, newLake } from './corpora.ts';
import type { Json } from './fixture.ts';
import { get, schemaErrors, testConfig } from './fixture.ts';

const A_FILES = ['bag110116_agenda.pdf', 'bag110116_minutes.pdf', 'bag111516_agenda.pdf'];
// 11-15 agenda removed, 11-29 agenda added, the 11-01 agenda modified (revised: its last page dropped).
const B_FILES = {
  'bag110116_agenda.pdf': 'revised:bag110116_agenda.pdf',
  'bag110116_minutes.pdf': 'bag110116_minutes.pdf',
  'bag112916_agenda.pdf': 'bag112916_agenda.pdf',
};
const A_TIME = '2026-01-01T00:00:00.000Z';
const B_TIME = '2026-02-01T00:00:00.000Z';
const ENTITIES = ['documents', 'supervisors', 'legislative-files', 'recorded-positions'];

const lake = await newLake();
const corpusA = await makeCorpus(A_FILES);
const corpusB = await makeCorpus(B_FILES);
const a = await build(corpusA, lake, A_TIME);
const running = await start(testConfig({ lakeDir: lake }));
t.teardown(() => running.close());
const api = async (path: string) => {
  const r = await get(`${running.url}${path}`);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.json;
};

/** The whole feed, paged by nextCursor. */
async function feed(query = ''): Promise<Json[]> {
  const out: Json[] = [];
  let cursor = 0;
  for (;;) {
    const page = await api(`/api/changes?limit=300&cursor=${cursor}${query}`);
    t.equal(schemaErrors('change-feed.json', page), '', 'valid ChangeFeed');
    out.push(...page.changes);
    if (!page.hasMore) {
      t.equal(
        page.nextCursor,
        out.length ? out[out.length - 1].sequence : cursor,
        'nextCursor is the last sequence returned',
      );
      return out;
    }
    cursor = page.nextCursor;
  }
}

/** Every record of an entity, by id, paged from a pinned release. */
async function snapshot(entity: string, release: string): Promise<Map<string, Json>> {
  const key = {
    documents: 'document_id',
    supervisors: 'supervisor_id',
    'legislative-files': 'file_number',
    'recorded-positions': 'position_id',
  }[entity]!;
  const out = new Map<string, Json>();
  for (let cursor: number | null = 0; cursor !== null;) {
    const page: Json = await api(`/api/snapshots/${entity}?release=${release}&cursor=${cursor}`);
    for (const r of page.records) {
      const { first_release, ...rest } = r; // derived from the feed itself, not part of the record hash
      out.set(r[key], rest);
    }
    cursor = page.nextCursor;
  }
  return out;
}

let feedA: Json[] = [];

t.test('a first release: every record is an insert, sequences 1..N', async (t) => {
  feedA = await feed();
  const totals = (await api('/api/snapshots')).entities.reduce((n: number, e: Json) => n + e.records, 0);
  t.equal(feedA.length, totals, 'one insert per record of every entity');
  t.ok(
    feedA.every(
      (c) =>
        c.operation === 'insert' &&
        c.release === a.releaseId &&
        c.time === A_TIME &&
        /^[0-9a-f]{64}$/.test(c.recordHash),
    ),
  );
  t.same(
    feedA.map((c) => c.sequence),
    feedA.map((_, i) => i + 1),
    'contiguous global sequence from 1',
  );
  t.same([...new Set(feedA.map((c) => c.entity))], ENTITIES, 'entities in a fixed order');
  const doc = await get(feedA[0].url);
  t.equal(doc.status, 200, 'the record URL resolves');
  t.equal(doc.json.document_id, feedA[0].id);
});

t.test("a changed corpus yields exactly its changes; the first release's changes stay unchanged", async (t) => {
  const before = new Map(await Promise.all(ENTITIES.map(async (e) => [e, await snapshot(e, a.releaseId)] as const)));
  const b = await build(corpusB, lake, B_TIME);
  t.ok(b.published);
  await running.lake.check();
  t.equal(running.lake.releaseId, b.releaseId, 'the server switched');
  const feedB = await feed();
  t.same(feedB.slice(0, feedA.length), feedA, 'every change of the first release, exactly as it was');
  const fresh = feedB.slice(feedA.length);
  t.ok(
    fresh.every((c) => c.release === b.releaseId && c.time === B_TIME),
    'new changes name the new release and its time',
  );
  t.same(
    fresh.map((c) => c.sequence),
    fresh.map((_, i) => feedA.length + i + 1),
    'sequence continues',
  );

  t.same(
    fresh
      .filter((c) => c.entity === 'documents')
      .map((c) => [c.operation, c.id])
      .sort(),
    [
      ['delete', '2016-11-15-agenda'],
      ['insert', '2016-11-29-agenda'],
      ['update', '2016-11-01-agenda'],
    ],
    'documents: one added, one removed, one modified',
  );
  t.notOk(
    fresh.some((c) => c.id === '2016-11-01-minutes'),
    'the unchanged minutes document is not in the feed',
  );
  t.notOk(
    fresh.some((c) => c.entity === 'supervisors'),
    'the roster did not change',
  );

  // Every entity: the feed equals the difference between the two releases' snapshots.
  for (const entity of ENTITIES) {
    const after = await snapshot(entity, b.releaseId);
    const old = before.get(entity)!;
    const expected: string[] = [];
    for (const [id, r] of after)
      if (!old.has(id)) expected.push(`insert ${id}`);
      else if (JSON.stringify(old.get(id)) !== JSON.stringify(r)) expected.push(`update ${id}`);
    for (const id of old.keys()) if (!after.has(id)) expected.push(`delete ${id}`);
    t.same(
      fresh
        .filter((c) => c.entity === entity)
        .map((c) => `${c.operation} ${c.id}`)
        .sort(),
      expected.sort(),
      `${entity}: feed = snapshot difference (${expected.length})`,
    );
  }
  t.ok(
    fresh.filter((c) => c.operation === 'delete').every((c) => c.recordHash === null),
    'a delete carries no hash',
  );

  const since = await feed(`&since=${encodeURIComponent('2026-01-15T00:00:00+01:00')}`);
  t.same(since, fresh, 'since keeps only changes published at or after it');
  t.same(await feed(`&release=${a.releaseId}`), feedA, 'pinned to the first release, the feed is what it was');

  const docs = await snapshot('documents', b.releaseId);
  const first = async (id: string) => (await api(`/api/snapshots/documents/${id}`)).first_release;
  t.equal(await first('2016-11-29-agenda'), b.releaseId, 'an added document was first carried by the new release');
  t.equal(await first('2016-11-01-minutes'), a.releaseId, 'a kept document by the first');
  t.equal(docs.size, 3);
  const gone = await get(`${running.url}/api/snapshots/documents/2016-11-15-agenda`);
  t.equal(gone.status, 404, 'a deleted record is gone from the current release');
  t.equal(
    (await api(`/api/snapshots/documents/2016-11-15-agenda?release=${a.releaseId}`)).document_id,
    '2016-11-15-agenda',
    '...and still in the pinned old one',
  );

  const again = await build(corpusB, lake, '2026-03-01T00:00:00.000Z');
  t.same([again.published, again.releaseId], [false, b.releaseId], 'rebuilding an unchanged corpus publishes nothing');

  // The same inputs in the same order, in another lake: the same ids and the same bytes, change log included.
  const other = await newLake();
  const a2 = await build(corpusA, other, A_TIME);
  const b2 = await build(corpusB, other, B_TIME);
  t.same([a2.releaseId, b2.releaseId], [a.releaseId, b.releaseId], 'same release ids');
  t.equal(
    await sha256Of(join(b2.dir, 'changes.parquet')),
    await sha256Of(join(b.dir, 'changes.parquet')),
    'byte-identical change log',
  );
  const manifest = JSON.parse(await readFile(join(b.dir, 'manifest.json'), 'utf8'));
  t.equal(manifest.previousRelease, a.releaseId);
  t.same(manifest.changes, {
    insert: fresh.filter((c) => c.operation === 'insert').length,
    update: fresh.filter((c) => c.operation === 'update').length,
    delete: fresh.filter((c) => c.operation === 'delete').length,
    carried: feedA.length,
  });

  // An agent asks what changed between the last two releases: list_releases, then read_changes from where it starts.
  const client = new Client({ name: 'changes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/api/mcp`)));
  t.teardown(() => client.close());
  const releases = ((await client.callTool({ name: 'list_releases', arguments: {} })) as Json).structuredContent;
  const [latest, prior] = releases.releases;
  t.match(latest, {
    release: b.releaseId,
    current: true,
    previousRelease: a.releaseId,
    changes: { insert: manifest.changes.insert, update: manifest.changes.update, delete: manifest.changes.delete },
  });
  t.equal(prior.release, a.releaseId, 'the release before it, second');
  const changed = (await client.callTool({
    name: 'read_changes',
    arguments: { cursor: feedA.length, limit: 1000 },
  })) as Json;
  const got = changed.structuredContent.changes.map((c: Json) => `${c.operation} ${c.id}`);
  t.ok(got.length > 0, `${got.length} of its ${fresh.length} changes fit the token budget`);
  t.same(
    got,
    fresh.slice(0, got.length).map((c) => `${c.operation} ${c.id}`),
    "read_changes from the release's first sequence: its changes, in order",
  );
  if (got.length < fresh.length)
    t.match(
      changed.structuredContent,
      { hasMore: true, trimmed: [{ path: 'changes' }] },
      'and says how to get the rest',
    );
  t.match(changed.content[0].text, /- #\d+ (insert|update|delete) documents `2016-11-\d\d-agenda`/);
});

t.test('feed parameters', async (t) => {
  const one = await api('/api/changes?limit=1&cursor=5');
  t.same([one.changes.length, one.changes[0].sequence, one.nextCursor, one.hasMore], [1, 6, 6, true]);
  const dflt = await api('/api/changes');
  t.equal(dflt.limit, 250, 'default limit 250');
  t.equal(dflt.changes.length, 250);
  const end = await api('/api/changes?cursor=999999');
  t.same(
    [end.changes, end.nextCursor, end.hasMore],
    [[], 999999, false],
    'past the end: nothing, poll again with the same cursor',
  );
  for (const q of ['limit=0', 'limit=1001', 'cursor=-1', 'cursor=x', 'since=yesterday', 'release=nothex', 'bogus=1']) {
    const r = await get(`${running.url}/api/changes?${q}`);
    t.equal(r.status, 400, q);
    t.match(r.headers.get('content-type'), /^application\/problem\+json/);
  }
  const r = await get(`${running.url}/api/changes?release=0123456789abcdef`);
  t.equal(r.status, 404, 'a release that is not kept');
  t.match(r.json.detail, /not kept/);
});
