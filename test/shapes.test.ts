// Corpus shapes: small real releases (agendas only, minutes only, minutes without public comment, a single document,
// a synthetic year) built into temp lakes and served by the real server. Every endpoint of the endpoint table, each
// Markdown variant, every search type, the snapshots (JSON and NDJSON), the change feed, the quality report, release
// files, the page with and without a query, and every MCP tool through the SDK client must answer 200 (empty results
// where the shape has nothing) or a clear 4xx, never a 5xx, with the content a user would check.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t, { type Test } from 'tap';

import { COLLECTIONS, COLUMNS } from '../core/lake/format.ts';
import { endpoints } from '../src/http/routes/index.ts';
import { tools } from '../src/mcp/tools.ts';
import { ENTITIES } from '../src/queries/snapshots.ts';
import { type Running, start } from '../src/server.ts';
import { build, makeCorpus, minutesWithoutComment, newLake, syntheticYear } from './corpora.ts';
import type { Json } from './fixture.ts';
import { type Fetched, get, ROOT, schemaErrors, testConfig } from './fixture.ts';

interface Shape {
  name: string;
  corpus: () => Promise<string>;
  documents: number;
  /** Meetings it holds a document of, and of those the ones with minutes. */
  meetings: number;
  minutes: number;
  /** Whether the shape's documents record roll calls and public comment. */
  votes: boolean;
  comments: boolean;
  synthetic: boolean;
  /** A supervisor serving in the shape's years (the aggregates, `supervisor`, `voter`). */
  voter: string;
  /** Words its documents hold, for every search; a file number they print, when there is one to look for. */
  q: string;
  fileNumber?: string;
  years: number[];
}

const SHAPES: Shape[] = [
  {
    name: 'agendas only',
    corpus: () => makeCorpus(['bag110116_agenda.pdf', 'bag111516_agenda.pdf', 'bag011017_agenda.pdf']),
    meetings: 3,
    minutes: 0,
    documents: 3,
    votes: false,
    comments: false,
    synthetic: false,
    voter: 'Aaron Peskin',
    q: 'housing',
    fileNumber: '160965',
    years: [2016, 2017],
  },
  {
    name: 'minutes only',
    corpus: () => makeCorpus(['bag110116_minutes.pdf']),
    meetings: 1,
    minutes: 1,
    documents: 1,
    votes: true,
    comments: true,
    synthetic: false,
    voter: 'Aaron Peskin',
    q: 'housing',
    fileNumber: '160965',
    years: [2016],
  },
  {
    name: 'minutes without public comment',
    corpus: minutesWithoutComment,
    meetings: 1,
    minutes: 1,
    documents: 1,
    votes: true,
    comments: false,
    synthetic: true,
    voter: 'Aaron Peskin',
    q: 'housing',
    fileNumber: '160965',
    years: [2016],
  },
  {
    name: 'a single document',
    corpus: () => makeCorpus(['bag033120_agenda.pdf']),
    meetings: 1,
    minutes: 0,
    documents: 1,
    votes: false,
    comments: false,
    synthetic: false,
    voter: 'Aaron Peskin',
    q: 'health',
    years: [2020],
  },
  {
    name: 'a synthetic year with no real documents',
    corpus: () => syntheticYear(2014, 2),
    meetings: 2,
    minutes: 2,
    documents: 4,
    votes: true,
    comments: true,
    synthetic: true,
    voter: 'Jane Kim',
    q: 'housing',
    years: [2014],
  },
];

const SEARCH_TYPES = ['pages', 'all', 'legislation', 'votes', 'comments'] as const;

type Row = Record<string, Json>;

/** A GET that must not fail on the server: 200 with a body valid against `schemaId`, or the 4xx asked for as a problem document. */
async function call(t: Test, base: string, path: string, schemaId: string | null, status = 200): Promise<Fetched> {
  const r = await get(`${base}${path}`);
  t.ok(
    r.status < 500,
    `${path}: not a server error (${r.status}${r.status >= 500 ? `: ${r.text.slice(0, 200)}` : ''})`,
  );
  t.equal(r.status, status, `${path} → ${status}`);
  if (r.status >= 400 && r.json) t.equal(schemaErrors('problem.json', r.json), '', `${path}: a problem document`);
  else if (schemaId && r.status === 200) t.equal(schemaErrors(schemaId, r.json), '', `${path}: valid ${schemaId}`);
  t.notMatch(r.text, /at \S+ \((?:\/|file:|node:)|\/work\/|node_modules/, `${path}: no stack trace or path`);
  return r;
}

const qs = (params: Record<string, string | number | boolean | undefined>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();

const temps: string[] = [];
t.teardown(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

for (const shape of SHAPES) {
  t.test(shape.name, async (t) => {
    const corpus = await shape.corpus();
    const lake = await newLake();
    temps.push(corpus, lake);
    const built = await build(corpus, lake);
    t.equal(built.documents, shape.documents, `${shape.documents} documents built`);
    const running: Running = await start(testConfig({ lakeDir: lake }));
    t.teardown(() => running.close());
    const base = running.url;
    /** Which endpoint paths (and their Markdown) were exercised, to check the sweep misses none. */
    const covered = new Set<string>();
    const hit = async (t: Test, endpoint: string, path: string, status = 200, md = false) => {
      const ep = endpoints.find((e) => e.path === endpoint)!;
      covered.add(md ? `${endpoint}.md` : endpoint);
      const r = await call(t, base, path, md ? null : ep.response, status);
      if (md && status === 200) t.match(r.headers.get('content-type'), /text\/markdown/, `${path}: Markdown`);
      return r;
    };
    const empty = !shape.votes;

    // Records to open: the first page of the first document, an item and a comment when the shape has them.
    const snap = await get(`${base}/api/snapshots/documents?limit=1`);
    const firstDoc: Row | undefined = snap.json?.records?.[0];
    const pageId = firstDoc ? `${firstDoc.document_id}-p1` : 'no-such-page';
    const itemSearch = await get(`${base}/api/items?${qs({ q: shape.fileNumber ?? shape.q })}`);
    const itemId: string | undefined = itemSearch.json?.results?.[0]?.id;
    const commentSearch = await get(`${base}/api/comments?${qs({ q: 'concerns' })}`);
    const commentId: string | undefined = commentSearch.json?.results?.[0]?.id;

    t.test('health, releases, files, openapi: the release holds every table', async (t) => {
      const health = await call(t, base, '/api/health', 'health.json');
      t.match(health.json, {
        status: 'ok',
        release: built.releaseId,
        documents: shape.documents,
        preview: shape.synthetic,
      });
      const releases = await hit(t, '/api/releases', '/api/releases');
      t.equal(releases.json.current, built.releaseId);
      await hit(t, '/api/releases', '/api/releases.md', 200, true);
      const manifest = await call(t, base, `/api/releases/${built.releaseId}/files/manifest.json`, null);
      const tables = Object.keys(manifest.json.tables);
      for (const table of [
        ...Object.keys(COLUMNS),
        'legislative_files',
        'coverage',
        'changes',
        'page_embeddings',
        'embedding_terms',
        ...COLLECTIONS.flatMap((c) => [`${c}_postings`, `${c}_terms`, `${c}_docs`, `${c}_stats`, `${c}_text`]),
      ]) {
        t.ok(tables.includes(table), `table ${table} is published`);
      }
      t.equal(manifest.json.tables.documents.rows, shape.documents);
      const file = manifest.json.tables.positions?.files[0]?.path ?? 'positions';
      const parquet = await get(`${base}/api/releases/${built.releaseId}/files/${file}`);
      t.equal(parquet.status, 200, `${file} downloads`);
      const openapi = await call(t, base, '/api/openapi.json', null);
      for (const ep of endpoints)
        // Snapshot paths are listed per entity (/api/snapshots/documents …).
        t.ok(
          openapi.json.paths[ep.path.replace(':entity', 'documents').replace(/:(\w+)/g, '{$1}')],
          `OpenAPI lists ${ep.path}`,
        );
    });

    t.test('search: every type, Markdown, hybrid, vote filters', async (t) => {
      const plain = await hit(t, '/api/search', `/api/search?${qs({ q: shape.q })}`);
      t.ok(plain.json.total > 0, `pages match “${shape.q}”`);
      t.equal(plain.json.source, shape.synthetic ? 'preview' : 'lake');
      t.ok(
        plain.json.results.every((r: Row) => shape.years.includes(r.year)),
        "results are of the shape's years",
      );
      await hit(t, '/api/search', `/api/search.md?${qs({ q: shape.q })}`, 200, true);
      const hybrid = await hit(t, '/api/search', `/api/search?${qs({ q: shape.q, mode: 'hybrid' })}`);
      t.equal(hybrid.json.retrieval.requested, 'hybrid');
      for (const type of SEARCH_TYPES) {
        const r = await hit(t, '/api/search', `/api/search?${qs({ q: shape.q, type })}`);
        const md = await hit(t, '/api/search', `/api/search.md?${qs({ q: shape.q, type })}`, 200, true);
        if (type !== 'pages') t.equal(r.json.filters.type, type, `type=${type}: the unified list`);
        if (type === 'votes' || type === 'comments') {
          const has = type === 'votes' ? shape.votes : shape.comments;
          if (!has) {
            t.equal(r.json.total, 0, `type=${type}: nothing to find in this shape`);
            t.same(r.json.results, []);
            t.match(md.text, /_No /, `type=${type}: the Markdown says nothing matched`);
          }
        }
        if (type === 'comments' && shape.comments) {
          const c = await hit(t, '/api/search', `/api/search?${qs({ q: 'concerns', type })}`);
          t.ok(c.json.total > 0, 'comments match “concerns”');
        }
      }
      const voted = await hit(
        t,
        '/api/search',
        `/api/search?${qs({ q: shape.q, type: 'all', supervisor: shape.voter, position: 'aye', final: true })}`,
      );
      t.ok(
        voted.json.results.every((r: Row) => r.resultType === 'legislation'),
        'vote filters leave only legislation',
      );
      if (empty) t.equal(voted.json.total, 0, 'no recorded votes to filter on');
      await hit(t, '/api/search', `/api/search?${qs({ q: shape.q, type: 'votes', supervisor: shape.voter })}`);
      await hit(t, '/api/search', `/api/search?${qs({ q: 'x' })}`, 400);
      if (shape.fileNumber) {
        const byNumber = await hit(t, '/api/search', `/api/search?${qs({ q: shape.fileNumber, type: 'all' })}`);
        t.ok(
          byNumber.json.results.some((r: Row) => r.fileNumber === shape.fileNumber),
          `file ${shape.fileNumber} is found as legislation`,
        );
        const pages = await hit(t, '/api/search', `/api/search?${qs({ q: shape.fileNumber })}`);
        t.match(pages.json.results[0]?.snippet, `**${shape.fileNumber}**`, 'the top page prints it');
      }
    });

    t.test('records: a page, an item, a comment (or a clear 404)', async (t) => {
      const page = await hit(t, '/api/pages/:id', `/api/pages/${pageId}`);
      t.equal(page.json.id, pageId);
      t.match(page.json.officialUrl, /#page=1$/);
      await hit(t, '/api/pages/:id', `/api/pages/${pageId}.md`, 200, true);
      await hit(t, '/api/pages/:id', '/api/pages/1999-01-01-minutes-p1', 404);
      if (itemId) {
        const item = await hit(t, '/api/items/:id', `/api/items/${itemId}`);
        t.equal(item.json.id, itemId);
        if (!shape.comments) t.same(item.json.comments, [], 'no comments taken in its hearing');
        await hit(t, '/api/items/:id', `/api/items/${itemId}.md`, 200, true);
      }
      await hit(t, '/api/items/:id', '/api/items/1999-01-01-minutes-999999', 404);
      await hit(t, '/api/items/:id', '/api/items/1999-01-01-minutes-999999.md', 404, true);
      t.equal(Boolean(commentId), shape.comments, shape.comments ? 'a comment to open' : 'no comment to open');
      if (commentId) {
        await hit(t, '/api/comments/:id', `/api/comments/${commentId}`);
        await hit(t, '/api/comments/:id', `/api/comments/${commentId}.md`, 200, true);
      }
      await hit(t, '/api/comments/:id', '/api/comments/1999-01-01-minutes-c001', 404);
      await hit(t, '/api/comments/:id', '/api/comments/1999-01-01-minutes-c001.md', 404, true);
    });

    t.test('items and comments search, with voter filters and grouping', async (t) => {
      for (const groupBy of ['none', 'file', 'matter']) {
        const r = await hit(t, '/api/items', `/api/items?${qs({ q: shape.q, groupBy })}`);
        t.ok(r.json.total > 0, `items match “${shape.q}” (groupBy=${groupBy})`);
      }
      await hit(t, '/api/items', `/api/items.md?${qs({ q: shape.q })}`, 200, true);
      const voted = await hit(
        t,
        '/api/items',
        `/api/items?${qs({ q: shape.q, voter: shape.voter, position: 'aye', final: true })}`,
      );
      if (empty) t.equal(voted.json.total, 0, 'no recorded positions to filter on');
      const finals = await hit(t, '/api/items', `/api/items?${qs({ q: shape.q, final: true })}`);
      if (empty) t.equal(finals.json.total, 0, 'no final actions recorded');
      if (shape.fileNumber) {
        const r = await hit(t, '/api/items', `/api/items?${qs({ q: shape.fileNumber })}`);
        const found = r.json.results.filter((x: Row) => x.fileNumber === shape.fileNumber);
        t.ok(found.length > 0, `file ${shape.fileNumber} is an item`);
        t.equal(
          found.some((x: Row) => x.rollCalls.length > 0),
          shape.votes,
          shape.votes ? 'with its roll call' : 'without roll calls',
        );
      }
      const comments = await hit(t, '/api/comments', `/api/comments?${qs({ q: 'concerns' })}`);
      t.equal(comments.json.total > 0, shape.comments, shape.comments ? 'comments found' : 'no comments');
      const md = await hit(t, '/api/comments', `/api/comments.md?${qs({ q: 'concerns' })}`, 200, true);
      if (!shape.comments) t.match(md.text, /_No comment matched/, 'the Markdown says no comment matched');
      await hit(t, '/api/comments', `/api/comments?${qs({ q: 'concerns', speaker: 'Warfield' })}`);
      await hit(t, '/api/items', `/api/items?${qs({ q: shape.q, voter: 'Nobody Atall' })}`, 400);
    });

    t.test('answers: the evidence bundle and both aggregates', async (t) => {
      const bundle = await hit(
        t,
        '/api/query',
        `/api/query?${qs({ q: `How did ${shape.voter} vote on ${shape.q} in ${shape.years[0]}?` })}`,
      );
      t.match(bundle.json.interpretation, { fromYear: shape.years[0], voteIntent: true });
      const comments = await hit(
        t,
        '/api/query',
        `/api/query?${qs({ q: `What did public comment say about ${shape.q}?` })}`,
      );
      t.ok(comments.json.publicComments, 'the comment search ran');
      await hit(t, '/api/query', `/api/query.md?${qs({ q: `${shape.q} votes` })}`, 200, true);
      for (const [path, total] of [
        ['/api/aggregates/votes', 'total'],
        ['/api/aggregates/housing', 'total'],
      ] as const) {
        const r = await hit(t, path, `${path}?${qs({ voter: shape.voter })}`);
        if (empty) t.equal(r.json[total], 0, `${path}: no recorded positions`);
        if (empty)
          t.same(
            r.json.totals.aye ?? r.json.totals.byPosition.aye,
            path.endsWith('votes') ? 0 : { files: 0, units: 0 },
          );
        const md = await hit(t, path, `${path}.md?${qs({ voter: shape.voter })}`, 200, true);
        if (empty) t.match(md.text, /_No .*recorded position matched/, `${path}: the Markdown says none matched`);
        await hit(
          t,
          path,
          `${path}?${qs({ voter: shape.voter, groupBy: path.endsWith('votes') ? 'roll-call' : undefined, final: true })}`,
        );
        await hit(t, path, `${path}?${qs({ voter: 'Nobody Atall' })}`, 400);
      }
      if (shape.votes) {
        const votes = await get(`${base}/api/aggregates/votes?${qs({ voter: shape.voter })}`);
        t.ok(votes.json.total > 0, `${shape.voter}'s recorded positions are counted`);
      }
    });

    t.test('snapshots, NDJSON, changes, quality', async (t) => {
      const manifest = await hit(t, '/api/snapshots', '/api/snapshots');
      const records = Object.fromEntries(manifest.json.entities.map((e: Row) => [e.entity, e.records]));
      t.equal(records.documents, shape.documents, 'the documents put in');
      t.equal(
        records['recorded-positions'] > 0,
        shape.votes,
        shape.votes ? 'recorded positions' : 'no recorded positions',
      );
      t.ok(
        manifest.json.entities.every((e: Row) => e.parquet.length > 0),
        'every entity has its Parquet file, empty or not',
      );
      for (const e of ENTITIES) {
        const page = await hit(t, '/api/snapshots/:entity', `/api/snapshots/${e.name}?limit=5`);
        t.equal(page.json.total, records[e.name], `${e.name}: total as in the manifest`);
        t.equal(page.json.records.length, Math.min(5, records[e.name]));
        const nd = await fetch(`${base}/api/snapshots/${e.name}?limit=5&format=ndjson`);
        t.equal(nd.status, 200, `${e.name} NDJSON`);
        t.equal(nd.headers.get('x-total-count'), String(records[e.name]));
        const lines = (await nd.text()).split('\n').filter(Boolean);
        t.same(
          lines.map((l) => JSON.parse(l)[e.key]),
          page.json.records.map((r: Row) => r[e.key]),
          `${e.name}: NDJSON lines are the JSON page's records`,
        );
        const first = page.json.records[0];
        if (first) {
          const rec = await hit(
            t,
            '/api/snapshots/:entity/:id',
            `/api/snapshots/${e.name}/${encodeURIComponent(String(first[e.key]))}`,
          );
          t.equal(rec.json[e.key], first[e.key]);
        }
        await hit(t, '/api/snapshots/:entity/:id', `/api/snapshots/${e.name}/no-such-record`, 404);
      }
      const docs = await get(`${base}/api/snapshots/documents?limit=100`);
      t.ok(
        docs.json.records.every((d: Row) => d.synthetic === shape.synthetic),
        `synthetic is ${shape.synthetic} on every document`,
      );
      t.ok(
        docs.json.records.every((d: Row) => shape.years.includes(d.year)),
        "documents of the shape's years",
      );
      await hit(t, '/api/snapshots/:entity', '/api/snapshots/nothing', 404);

      const changes = await hit(t, '/api/changes', '/api/changes?limit=5');
      t.equal(changes.json.returned, 5, 'the first release inserts every record');
      t.ok(changes.json.changes.every((c: Row) => c.operation === 'insert'));
      await hit(t, '/api/changes', `/api/changes?${qs({ since: '2030-01-01T00:00:00Z' })}`);

      const quality = await hit(t, '/api/quality', '/api/quality');
      t.equal(quality.json.totals.documents, shape.documents);
      t.equal(quality.json.totals.rollCalls > 0, shape.votes, 'roll calls counted');
      t.equal(quality.json.totals.comments > 0, shape.comments, 'comments counted');
      if (empty) t.equal(quality.json.reconciliation.resolvedShare, null, 'no names to reconcile');
    });

    t.test("lake/README.md's queries read every table of the shape, empty or not", async (t) => {
      const readme = await readFile(join(ROOT, 'lake', 'README.md'), 'utf8');
      const db = await (await DuckDBInstance.create(':memory:')).connect();
      t.teardown(() => db.closeSync());
      const inLake = (sql: string) => sql.replaceAll('lake/current', join(lake, 'current'));
      const manifest = JSON.parse(await readFile(join(lake, 'current', 'manifest.json'), 'utf8'));
      for (const e of ENTITIES) {
        const sql = new RegExp('```sql entity-' + e.name + '\\n([\\s\\S]*?)```').exec(readme)![1];
        t.equal(
          (await db.runAndReadAll(inLake(sql))).getRows().length,
          manifest.tables[e.table].rows,
          `${e.name}: the documented query`,
        );
      }
      for (const table of Object.keys(COLUMNS).filter((name) => 'year' in COLUMNS[name as keyof typeof COLUMNS])) {
        const rows = await db.runAndReadAll(
          inLake(`SELECT year FROM read_parquet('lake/current/${table}/**/*.parquet', hive_partitioning = true)`),
        );
        t.equal(rows.getRows().length, manifest.tables[table].rows, `${table}: every row through the ** glob`);
        t.ok(
          rows.getRows().every(([y]) => shape.years.includes(Number(y))),
          `${table}: the year column holds the shape's years`,
        );
      }
    });

    t.test('the page, with and without a query', async (t) => {
      const home = await get(`${base}/`);
      t.equal(home.status, 200);
      t.match(home.text, /<form/);
      for (const type of ['all', 'comments', 'votes', 'legislation', 'pages']) {
        const r = await get(`${base}/?${qs({ q: shape.q, type })}`);
        t.equal(r.status, 200, `/?q=${shape.q}&type=${type}`);
        const has = type === 'votes' ? shape.votes : type === 'comments' ? shape.comments : true;
        if (!has) t.match(r.text, /No results for/, `type=${type}: the page says there are no results`);
      }
      const bad = await get(`${base}/?${qs({ q: 'x' })}`);
      t.equal(bad.status, 400, 'a one-letter query is refused on the page too');
    });

    t.test('coverage and meetings: exactly what the shape holds', async (t) => {
      const c = (await hit(t, '/api/coverage', '/api/coverage')).json.coverage;
      const expected = {
        meetings: shape.meetings,
        meetingsWithMinutes: shape.minutes,
        meetingsWithRollCalls: shape.votes ? shape.minutes : 0,
        meetingsWithComments: shape.comments ? shape.minutes : 0,
        years: shape.years,
        synthetic: shape.synthetic,
      };
      t.match(c, expected, 'the coverage of 2012–2026');
      t.match(c.statement, `documents of ${shape.meetings} meeting${shape.meetings === 1 ? '' : 's'} in 2012–2026`);
      t.match((await hit(t, '/api/coverage', '/api/coverage.md', 200, true)).text, c.statement);
      // Every answer that counts says the same of its span.
      const votes = await get(`${base}/api/aggregates/votes?${qs({ voter: shape.voter })}`);
      t.match(votes.json.coverage, expected, 'the votes aggregate states it');
      const list = (await hit(t, '/api/meetings', '/api/meetings')).json;
      t.equal(list.total, shape.meetings);
      await hit(t, '/api/meetings', '/api/meetings.md', 200, true);
      const first = list.meetings[0];
      const meeting = (await hit(t, '/api/meetings/:date', `/api/meetings/${first.date}`)).json;
      t.equal(
        meeting.comments.length > 0,
        shape.comments && first.minutes,
        'its commenters, when the minutes record them',
      );
      t.equal(
        meeting.items.some((i: Row) => i.rollCalls.length > 0),
        shape.votes && first.minutes,
        'its roll calls, when the minutes record them',
      );
      await hit(t, '/api/meetings/:date', `/api/meetings/${first.date}.md`, 200, true);
      await hit(t, '/api/meetings/:date', '/api/meetings/2012-01-03', 404);
    });

    t.test('every MCP tool', async (t) => {
      const client = new Client({ name: 'shapes-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
      t.teardown(() => client.close());
      type Result = { content: { type: string; text: string }[]; structuredContent?: Json; isError?: boolean };
      const text = (r: Result) => r.content.map((c) => c.text).join('\n');
      const args: Record<string, Record<string, unknown>[]> = {
        ask: [{ q: `How did ${shape.voter} vote on ${shape.q}?` }, { q: `public comment about ${shape.q}` }],
        search_pages: [{ q: shape.q }, ...SEARCH_TYPES.map((type) => ({ q: shape.q, type }))],
        search_items: [{ q: shape.q }, { q: shape.q, voter: shape.voter, groupBy: 'file' }],
        search_public_comments: [{ q: 'concerns' }],
        get_record: [{ id: pageId }, ...(itemId ? [{ id: itemId }] : []), ...(commentId ? [{ id: commentId }] : [])],
        vote_aggregate: [{ voter: shape.voter }],
        housing_aggregate: [{ voter: shape.voter }],
        read_changes: [{ limit: 3 }],
        snapshot_manifest: [{}],
        get_meeting: [
          { date: String(firstDoc?.meeting_date) },
          { date: String(firstDoc?.meeting_date), result: 'not-adopted' },
        ],
        list_meetings: [{}],
        coverage: [{}],
        list_releases: [{}],
      };
      t.same(Object.keys(args).sort(), tools.map((x) => x.name).sort(), 'every tool is called');
      for (const [name, list] of Object.entries(args)) {
        for (const a of list) {
          const r = (await client.callTool({ name, arguments: a })) as Result;
          t.notOk(r.isError, `${name} ${JSON.stringify(a)}${r.isError ? `: ${text(r)}` : ''}`);
          t.equal(r.structuredContent?.release, built.releaseId, `${name}: names the release`);
        }
      }
      const comments = (await client.callTool({
        name: 'search_public_comments',
        arguments: { q: 'concerns' },
      })) as Result;
      t.equal(comments.structuredContent.total > 0, shape.comments);
      const missing = (await client.callTool({ name: 'get_record', arguments: { id: 'no-such-record' } })) as Result;
      t.equal(missing.isError, true, 'a missing record is an error result');
      t.equal(text(missing), `no record 'no-such-record' in release ${built.releaseId}`);
      const manifest = (await client.callTool({ name: 'snapshot_manifest', arguments: {} })) as Result;
      t.equal(manifest.structuredContent.entities.find((e: Row) => e.entity === 'documents').records, shape.documents);
    });

    t.test('the sweep covered every endpoint and every Markdown variant', async (t) => {
      for (const ep of endpoints) {
        t.ok(covered.has(ep.path), `${ep.path} exercised`);
        if (ep.markdown) t.ok(covered.has(`${ep.path}.md`), `${ep.path} in Markdown`);
      }
    });
  });
}
