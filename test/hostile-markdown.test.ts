// Text from a document is data, never structure: a synthetic meeting whose PDFs print `<script>`, `<img onerror>`, a
// line of three backticks, `# HEADING [link](javascript:…)`, list, quote, table and setext lines (test/corpora.ts
// HOSTILE) is built into a release, and every Markdown answer of the real server and every MCP tool result (the SDK
// client) parses as CommonMark with no HTML node and no heading, list, quote, link or image made by that text, while
// reading as the document's own words.
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t from 'tap';

import { buildRelease } from '../pipelines/build.ts';
import { endpoints } from '../src/http/routes/index.ts';
import { tools } from '../src/mcp/tools.ts';
import { start } from '../src/server.ts';
import { HOSTILE, hostileMeeting, newLake } from './corpora.ts';
import { get, type Json, ROOT, testConfig } from './fixture.ts';
import { offences, readText } from './markdown-check.ts';

const hostile = await hostileMeeting();
const lake = await newLake();
const built = await buildRelease({
  corpus: hostile.dir,
  lake,
  cacheDir: join(ROOT, '.cache', 'extract'),
  quiet: true,
  embed: false,
  history: false,
});
const running = await start(testConfig({ lakeDir: lake }));
t.teardown(() => running.close());
const base = running.url;

/** An answer carrying hostile text reads it as the document's words: the script tag, or the heading and its link. */
const readsHostile = (md: string) => [HOSTILE.script, HOSTILE.heading].some((s) => readText(md).includes(s));

// Ids of the records that carry the hostile text, read from the JSON answers.
const item = (await get(`${base}/api/items?q=HXHEADING&limit=5`)).json.results.find(
  (r: Json) => r.kind === 'minutes' && r.fileNumber === hostile.file,
);
const comment = (await get(`${base}/api/comments?q=HXSPEAKER`)).json.results[0];
const page = (await get(`${base}/api/search?q=HXHEADING&limit=1`)).json.results[0];
const commentPage = `${comment.id.replace(/-c\d+$/, '')}-p${comment.page}`;

t.test('the release holds the hostile meeting, labelled synthetic', async (t) => {
  t.ok(built.published);
  t.equal(built.documents, 2);
  const items = (await get(`${base}/api/items?q=HXHEADING&limit=5`)).json;
  t.ok(
    items.results.some((r: Json) => r.fileNumber === hostile.file && r.title.includes(HOSTILE.script)),
    `file ${hostile.file}'s title holds the script tag as the PDF prints it`,
  );
  t.equal((await get(`${base}/api/meetings?year=2016`)).json.meetings[0].synthetic, true);
});

/** Each Markdown route (the endpoint table's path), the requests that exercise it, and whether they carry hostile text. */
const MARKDOWN: Record<string, [string, boolean][]> = {
  '/api/search': [[`/api/search.md?q=HXHEADING`, true]],
  '/api/pages/:id': [
    [`/api/pages/${page.id}.md`, true],
    [`/api/pages/${commentPage}.md`, true],
  ],
  '/api/items': [
    [`/api/items.md?q=HXHEADING`, true],
    [`/api/items.md?q=HXHEADING&voter=Eric%20Mar`, true],
  ],
  '/api/items/:id': [[`/api/items/${item.id}.md`, true]],
  '/api/comments': [[`/api/comments.md?q=HXSPEAKER`, true]],
  '/api/comments/:id': [[`/api/comments/${comment.id}.md`, true]],
  '/api/meetings': [[`/api/meetings.md?year=2016`, false]],
  '/api/meetings/:date': [[`/api/meetings/${hostile.date}.md`, true]],
  '/api/query': [
    [`/api/query.md?q=HXHEADING`, true],
    [`/api/query.md?q=${encodeURIComponent('how did Eric Mar vote on HXHEADING')}`, true],
    [`/api/query.md?q=${encodeURIComponent('public comment by HXSPEAKER')}`, true],
  ],
  '/api/aggregates/votes': [[`/api/aggregates/votes.md?voter=Eric%20Mar&from=2016&to=2016`, true]],
  '/api/aggregates/housing': [[`/api/aggregates/housing.md?voter=Eric%20Mar&from=2016&to=2016`, true]],
  '/api/coverage': [[`/api/coverage.md`, false]],
  '/api/releases': [[`/api/releases.md`, false]],
};

t.test('every Markdown route is exercised here', async (t) => {
  t.same(
    Object.keys(MARKDOWN).sort(),
    endpoints
      .filter((e) => e.markdown)
      .map((e) => e.path)
      .sort(),
  );
});

t.test('every Markdown answer: no HTML, no structure from the document, the same words', async (t) => {
  for (const [route, requests] of Object.entries(MARKDOWN))
    for (const [path, carries] of requests) {
      const r = await get(`${base}${path}`);
      t.equal(r.status, 200, `${path} answers`);
      t.match(r.headers.get('content-type'), /^text\/markdown/, `${route}: Markdown`);
      t.same(offences(r.text), [], `${path}: no structure from the document`);
      if (carries) t.ok(readsHostile(r.text), `${path} reads the hostile text as words`);
    }
});

t.test("the item's block text keeps its lines in a fence no line of it closes", async (t) => {
  const md = (await get(`${base}/api/items/${item.id}.md`)).text;
  t.match(md, /^````+text$/m, 'a fence longer than the line of three backticks');
  const text = readText(md);
  for (const line of HOSTILE.lines) t.ok(text.includes(line), `the line ${JSON.stringify(line)} reads as printed`);
});

type Result = { content: { type: string; text: string }[]; isError?: boolean };

t.test('every MCP tool result: no HTML, no structure from the document', async (t) => {
  const client = new Client({ name: 'board-records-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  t.teardown(() => client.close());
  const CALLS: [string, Record<string, unknown>, boolean][] = [
    ['ask', { q: 'how did Eric Mar vote on HXHEADING' }, true],
    ['ask', { q: 'public comment by HXSPEAKER' }, true],
    ['search_pages', { q: 'HXHEADING' }, true],
    ['search_items', { q: 'HXHEADING', voter: 'Eric Mar' }, true],
    ['search_public_comments', { q: 'HXSPEAKER' }, true],
    ['get_record', { id: item.id }, true],
    ['get_record', { id: page.id }, true],
    ['get_record', { id: comment.id }, true],
    ['get_record', { url: `${base}/api/snapshots/legislative-files/${hostile.file}` }, true],
    ['get_meeting', { date: hostile.date }, true],
    ['vote_aggregate', { voter: 'Eric Mar', from: 2016, to: 2016 }, true],
    ['housing_aggregate', { voter: 'Eric Mar', from: 2016, to: 2016 }, true],
    ['list_meetings', { year: 2016 }, false],
    ['coverage', {}, false],
    ['list_releases', {}, false],
    ['read_changes', { cursor: 0 }, false],
    ['snapshot_manifest', {}, false],
  ];
  t.same([...new Set(CALLS.map(([name]) => name))].sort(), tools.map((x) => x.name).sort(), 'every tool');
  for (const [name, args, carries] of CALLS) {
    const r = (await client.callTool({ name, arguments: args })) as Result;
    const md = r.content.map((c) => c.text).join('\n');
    t.notOk(r.isError, `${name} ${JSON.stringify(args)} succeeds${r.isError ? `: ${md}` : ''}`);
    t.same(offences(md), [], `${name} ${JSON.stringify(args)}: no structure from the document`);
    if (carries) t.ok(readsHostile(md), `${name} ${JSON.stringify(args)} reads the hostile text as words`);
  }
});
