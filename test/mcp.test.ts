// POST /api/mcp with the SDK's own client over real HTTP, in both protocol generations (2025-11-25 and 2026-07-28):
// the tool list, every tool on the real corpus, REST-identical argument errors, the token budget, and the HTTP edges
// (405, 413, Origin, the protocol's own errors).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t from 'tap';

import { CHARS_PER_TOKEN, fit, TOKEN_BUDGET } from '../src/mcp/budget.ts';
import { MAX_BODY_BYTES } from '../src/mcp/http.ts';
import { tools } from '../src/mcp/tools.ts';
import type { Json } from './fixture.ts';
import { get, schemaErrors, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const endpoint = `${running.url}/api/mcp`;
const { json: health } = await get(`${running.url}/api/health`);

type Result = { content: { type: string; text: string }[]; structuredContent?: Json; isError?: boolean };
const text = (r: Result) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
/** The REST problem detail for the same request, to compare tool error messages with. */
const restDetail = async (path: string) => {
  const r = await get(`${running.url}${path}`);
  t.equal(r.status, 400, `REST ${path} is a 400`);
  return r.json.detail as string;
};

const MODES = [
  { version: '2025-11-25', mode: 'legacy' as const },
  { version: '2026-07-28', mode: { pin: '2026-07-28' } },
];

for (const { version, mode } of MODES) {
  t.test(`protocol ${version}`, async (t) => {
    const client = new Client({ name: 'board-records-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
    t.teardown(() => client.close());
    t.equal(client.getNegotiatedProtocolVersion(), version, `negotiated ${version}`);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as Result;
    const ok = async (name: string, args: Record<string, unknown>) => {
      const r = await call(name, args);
      t.notOk(r.isError, `${name} ${JSON.stringify(args)} succeeds${r.isError ? `: ${text(r)}` : ''}`);
      t.equal(r.structuredContent.release, health.release, 'the result names its release');
      t.same(r.structuredContent.trimmed, [], 'nothing trimmed');
      t.match(text(r), `Release ${health.release}`, 'the Markdown names the release');
      return r;
    };

    t.test('lists every tool with schemas and read-only annotations', async (t) => {
      const { tools: listed } = await client.listTools();
      t.same(listed.map((x) => x.name).sort(), tools.map((x) => x.name).sort());
      for (const tool of listed) {
        t.equal(tool.annotations?.readOnlyHint, true, `${tool.name} readOnlyHint`);
        t.equal(tool.annotations?.idempotentHint, true, `${tool.name} idempotentHint`);
        t.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
        t.ok((tool.outputSchema?.required as string[]).includes('release'), `${tool.name} output carries the release`);
        t.match(tool.description, /not a stance|summar/i, `${tool.name} states its caveat`);
      }
      // What strict clients check: no type lists, a type (or alternatives of types) on every output property.
      for (const tool of listed)
        for (const [k, v] of Object.entries((tool.outputSchema?.properties ?? {}) as Record<string, Json>)) {
          const kinds = v.anyOf ? v.anyOf.map((x: Json) => x.type) : [v.type];
          t.ok(
            kinds.every((x: unknown) => typeof x === 'string'),
            `${tool.name}.${k} has a type: ${JSON.stringify(v)}`,
          );
        }
      const outputOf = (name: string) => listed.find((x) => x.name === name)!.outputSchema!.properties as Json;
      t.same(outputOf('ask').publicComments, { anyOf: [{ type: 'object' }, { type: 'null' }] }, 'ask publicComments');
      t.same(outputOf('list_meetings').nextAfter, { anyOf: [{ type: 'string' }, { type: 'null' }] });
      t.same(client.getServerCapabilities()?.tools, { listChanged: false }, 'one fixed tool list: no list changes');
      const items = listed.find((x) => x.name === 'search_items')!;
      t.match(
        items.inputSchema.properties,
        {
          q: { minLength: 2, maxLength: 300 },
          limit: { minimum: 1, maximum: 50, default: 20 },
          groupBy: { enum: ['none', 'file', 'matter'] },
        },
        'bounds mirror /api/items',
      );
      t.notOk(
        'format' in (items.inputSchema.properties ?? {}),
        'no format argument: results carry both JSON and Markdown',
      );
    });

    t.test('search_pages finds the pages holding file 160965', async (t) => {
      const r = await ok('search_pages', { q: '160965', limit: 5 });
      t.equal(schemaErrors('search-response.json', r.structuredContent), '');
      t.ok(
        r.structuredContent.results.some((x: Json) => x.id === '2016-11-01-minutes-p4'),
        'the minutes page 4',
      );
      t.match(text(r), /\*\*160965\*\*/);
      t.match(text(r), 'bag110116_minutes.pdf#page=4', 'official link in the Markdown');
    });

    t.test('search_items gives file 160965 with its final roll call', async (t) => {
      const r = await ok('search_items', { q: '160965', limit: 5 });
      t.equal(schemaErrors('item-search-response.json', r.structuredContent), '');
      const minutes = r.structuredContent.results.find((x: Json) => x.id === '2016-11-01-minutes-160965');
      t.ok(minutes, 'the minutes record');
      t.match(minutes.rollCalls[0], { action: 'FINALLY PASSED', actionType: 'final-passage', isFinal: true });
      t.ok(minutes.rollCalls[0].ayes.includes('Wiener'), 'Wiener voted aye');
      t.match(text(r), /Vote 1 \(final-passage, final\): FINALLY PASSED — Ayes 11/);
    });

    t.test('search_items with a voter and a position', async (t) => {
      const r = await ok('search_items', { q: 'Transbay Block 8', voter: 'Kim', position: 'aye', limit: 10 });
      t.equal(r.structuredContent.voter.fullName, 'Jane Kim');
      t.ok(
        r.structuredContent.results.some((x: Json) => x.fileNumber === '161050'),
        'file 161050 (Transbay Block 8 bonds)',
      );
      t.match(text(r), /Jane Kim recorded \*\*aye\*\*/);
    });

    t.test('search_public_comments finds a speaker of the 2016-11-01 minutes', async (t) => {
      const r = await ok('search_public_comments', { q: 'library', from: 2016, to: 2016 });
      t.equal(schemaErrors('comment-search-response.json', r.structuredContent), '');
      const warfield = r.structuredContent.results.find((x: Json) => x.speaker === 'Peter Warfield');
      t.match(warfield, { id: '2016-11-01-minutes-c004', meetingDate: '2016-11-01' });
      t.match(
        text(r),
        /\*\*Peter Warfield\*\* \(2016-11-01, page \d+\): shared various concerns regarding the San Francisco Public Library/,
      );
    });

    t.test('get_record by id: an item with its roll call and block text', async (t) => {
      const r = await ok('get_record', { id: '2016-11-01-minutes-161050' });
      t.equal(r.structuredContent.kind, 'item');
      t.equal(schemaErrors('item-record.json', r.structuredContent.record), '');
      t.match(r.structuredContent.record, { fileNumber: '161050', officialUrl: /bag110116_minutes\.pdf#page=\d+/ });
      t.match(r.structuredContent.record.rollCalls[0], { action: 'ADOPTED', actionType: 'adoption' });
      t.match(text(r), /# File 161050: Multifamily Housing Revenue Notes/);
      t.match(text(r), /## Block text/);
    });

    t.test(
      'get_record by URL: a comment (markdownUrl) with the page it is on, and a page (transcriptUrl)',
      async (t) => {
        const comment = await ok('get_record', { url: `${running.url}/api/comments/2016-11-01-minutes-c004.md` });
        t.match(comment.structuredContent, { kind: 'comment', record: { speaker: 'Peter Warfield' } });
        t.match(comment.structuredContent.page.text, /Warfield/, 'the page text holds the speaker');
        t.match(text(comment), /# Public comment by Peter Warfield/);
        const page = await ok('get_record', { url: `${running.url}/api/pages/2016-11-01-minutes-p4` });
        t.match(page.structuredContent, { kind: 'page', record: { id: '2016-11-01-minutes-p4', text: /160965/ } });
      },
    );

    t.test("vote_aggregate counts Jane Kim's recorded positions with evidence", async (t) => {
      const r = await ok('vote_aggregate', { voter: 'Kim', from: 2016, to: 2016 });
      t.equal(schemaErrors('votes-aggregate.json', r.structuredContent), '');
      t.equal(r.structuredContent.voter.fullName, 'Jane Kim');
      t.ok(r.structuredContent.totals.aye > 0, 'aye positions counted');
      t.match(JSON.stringify(r.structuredContent.records), /"161050"/, 'file 161050 among the records');
      t.match(text(r), /not a stance on the underlying matter/);
    });

    t.test('housing_aggregate applies the maximum-unit-mention rule', async (t) => {
      const r = await ok('housing_aggregate', { voter: 'Jane Kim' });
      t.equal(schemaErrors('housing-aggregate.json', r.structuredContent), '');
      t.match(JSON.stringify(r.structuredContent.files), /"161050"/, 'the Transbay Block 8 bonds are a housing file');
      t.match(text(r), /maximum-unit-mention rule/);
    });

    t.test('ask returns the evidence bundle for a question', async (t) => {
      const r = await ok('ask', { q: 'How did Supervisor Kim vote on the Transbay Block 8 housing bonds in 2016?' });
      t.equal(schemaErrors('evidence-bundle.json', r.structuredContent), '');
      t.match(r.structuredContent.interpretation, {
        fromYear: 2016,
        toYear: 2016,
        voteIntent: true,
        housingIntent: true,
      });
      t.ok(
        r.structuredContent.legislativeItems.results.some((x: Json) => x.fileNumber === '161050'),
        'file 161050 in the bundle',
      );
      t.match(text(r), /# Evidence for: How did Supervisor Kim vote/);
    });

    t.test('read_changes pages the change feed by cursor', async (t) => {
      const first = await ok('read_changes', { limit: 3 });
      t.equal(schemaErrors('change-feed.json', (({ trimmed, ...b }) => b)(first.structuredContent)), '');
      const feed = first.structuredContent;
      t.equal(feed.changes.length, 3);
      t.equal(feed.nextCursor, feed.changes[2].sequence, 'nextCursor is the last sequence shown');
      t.ok(
        feed.changes.every(
          (c: Json) => ['insert', 'update', 'delete'].includes(c.operation) && c.url.includes('/api/snapshots/'),
        ),
      );
      t.match(text(first), new RegExp(`Next cursor: ${feed.nextCursor}`));
      const next = await ok('read_changes', { cursor: feed.nextCursor, limit: 3 });
      t.ok(next.structuredContent.changes[0].sequence > feed.nextCursor, 'the next page continues after the cursor');
      const all = await call('read_changes', { limit: 1000 });
      const cut = all.structuredContent.trimmed.find((x: Json) => x.path === 'changes');
      t.match(cut, { of: 1000 }, '1000 changes do not fit the budget');
      const kept = all.structuredContent.changes;
      t.equal(cut.kept, kept.length);
      t.equal(all.structuredContent.returned, kept.length);
      t.equal(
        all.structuredContent.nextCursor,
        kept[kept.length - 1].sequence,
        'after a budget cut, nextCursor continues right after the last change kept',
      );
      t.equal(all.structuredContent.hasMore, true);
    });

    t.test('snapshot_manifest lists the snapshot entities', async (t) => {
      const r = await ok('snapshot_manifest', {});
      t.same(r.structuredContent.entities.map((e: Json) => e.entity).sort(), [
        'documents',
        'legislative-files',
        'recorded-positions',
        'supervisors',
      ]);
      t.ok(
        r.structuredContent.entities.every((e: Json) => e.records > 0),
        'every entity has records',
      );
      t.match(text(r), /\| legislative-files \| \d+ \|/);
      const pinned = await call('snapshot_manifest', { release: health.release });
      t.equal(pinned.isError, true, 'release pins are a REST feature only');
      t.equal(text(pinned), 'release is not a parameter of this endpoint');
    });

    t.test('a large result stays within the token budget', async (t) => {
      const r = await call('search_items', { q: 'housing', limit: 50 });
      t.notOk(r.isError);
      const chars = JSON.stringify(r.structuredContent).length + text(r).length;
      t.ok(
        chars <= TOKEN_BUDGET * CHARS_PER_TOKEN + 2000,
        `${chars} characters (~${Math.round(chars / CHARS_PER_TOKEN)} tokens)`,
      );
      t.equal(r.structuredContent.returned, r.structuredContent.results.length);
      for (const cut of r.structuredContent.trimmed)
        t.match(text(r), cut.path, `the Markdown names the cut ${cut.path}`);
    });

    t.test('bad arguments come back as isError results with the REST message', async (t) => {
      for (const [tool, args, path] of [
        ['search_items', { q: 'roof', limit: 51 }, '/api/items?q=roof&limit=51'],
        ['search_pages', { q: 'x' }, '/api/search?q=x'],
        ['search_public_comments', { q: 'library', from: 2011 }, '/api/comments?q=library&from=2011'],
        ['search_items', { q: 'housing', voter: 'Nobody Atall' }, '/api/items?q=housing&voter=Nobody%20Atall'],
        ['search_items', { q: 'housing', position: 'aye' }, '/api/items?q=housing&position=aye'],
        ['search_items', { q: 'housing', colour: 'red' }, '/api/items?q=housing&colour=red'],
        ['vote_aggregate', { voter: 'Nobody Atall' }, '/api/aggregates/votes?voter=Nobody%20Atall'],
        ['housing_aggregate', { voter: 'Kim', limit: 1001 }, '/api/aggregates/housing?voter=Kim&limit=1001'],
        ['ask', { q: 'x' }, '/api/query?q=x'],
      ] as const) {
        const r = await call(tool, args);
        t.equal(r.isError, true, `${tool} ${JSON.stringify(args)} is an error result`);
        t.equal(text(r), await restDetail(path), `same message as GET ${path}`);
      }
      const missing = await call('get_record', { id: 'no-such-record' });
      t.equal(missing.isError, true);
      t.equal(text(missing), `no record 'no-such-record' in release ${health.release}`);
      const badUrl = await call('get_record', { url: 'https://example.org/somewhere' });
      t.equal(badUrl.isError, true);
      t.match(text(badUrl), /url must be a record URL of this service/);
    });
  });
}

t.test('the token budget trims long texts and long lists, and says so', async (t) => {
  const limit = TOKEN_BUDGET * CHARS_PER_TOKEN;
  const render = (b: Json) => `${b.record.text}\n${b.results.map((r: Json) => r.title).join('\n')}`;
  const body = {
    record: { text: 'word '.repeat(40_000), markdownUrl: 'http://x/api/items/a.md' },
    results: Array.from({ length: 400 }, (_, i) => ({ title: `result ${i} `.repeat(20) })),
    returned: 400,
  };
  const fitted = fit(body, render, 'lower limit');
  t.ok(JSON.stringify(fitted.body).length + fitted.markdown.length <= limit, `within ${limit} characters`);
  t.ok(fitted.estimatedTokens <= TOKEN_BUDGET);
  const text = fitted.trimmed.find((x) => x.path === 'record.text')!;
  t.match(text, { of: 200_000, fetch: 'http://x/api/items/a.md' });
  t.match(
    fitted.body.record.text,
    /\[trimmed: \d+ of 200000 characters shown; full text at http:\/\/x\/api\/items\/a\.md\]$/,
  );
  const list = fitted.trimmed.find((x) => x.path === 'results')!;
  t.match(list, { of: 400, fetch: 'lower limit' });
  t.equal(fitted.body.returned, fitted.body.results.length, '`returned` counts what is left');
  t.equal(body.record.text.length, 200_000, 'the original is untouched');
  t.same(fit({ a: 'short' }, () => 'md', 'x').trimmed, [], 'a small result is left alone');
});

t.test("HTTP edges: methods, size, origin, and the protocol's own errors", async (t) => {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  for (const method of ['GET', 'DELETE']) {
    const r = await get(endpoint, { method, headers: { Accept: 'application/json, text/event-stream' } });
    t.equal(r.status, 405, `${method} → 405`);
    t.equal(r.headers.get('allow'), 'POST');
    t.match(r.json, { jsonrpc: '2.0', error: { code: -32000 } });
  }
  const big = await get(endpoint, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_pages', arguments: { q: 'x'.repeat(MAX_BODY_BYTES) } },
    }),
  });
  t.equal(big.status, 413, 'a body over 1 MiB → 413');
  t.match(big.json, { error: { message: /Payload Too Large/ } });

  // CORS is open to every origin (the Host check stops DNS rebinding: test/cors.test.ts, test/hostile.test.ts).
  for (const origin of ['https://civic-app.example', running.url, 'http://localhost:5173']) {
    const r = await get(endpoint, { method: 'POST', headers: { ...headers, Origin: origin }, body: initialize });
    t.equal(r.status, 200, `Origin ${origin} is served`);
    t.equal(r.headers.get('access-control-allow-origin'), '*', `Origin ${origin}: the CORS grant`);
    t.equal(r.headers.get('access-control-allow-credentials'), null, 'never with credentials');
  }
  const rest = await get(`${running.url}/api/search?q=roof`, { headers: { Origin: 'https://evil.example' } });
  t.equal(rest.headers.get('access-control-allow-origin'), '*', 'the REST API stays open to CORS');

  const malformed = await get(endpoint, { method: 'POST', headers, body: '{"jsonrpc": "2.0", "id": 1,' });
  t.match(malformed.json, { error: { code: -32700 } }, 'malformed JSON → parse error');
  t.equal(malformed.status, 400);
  const accept = await get(endpoint, {
    method: 'POST',
    headers: { ...headers, Accept: 'text/html' },
    body: initialize,
  });
  t.equal(accept.status, 406, 'a wrong Accept → 406');
  const legacyVersion = await get(endpoint, {
    method: 'POST',
    headers: { ...headers, 'MCP-Protocol-Version': '1999-01-01' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  t.equal(legacyVersion.status, 400, 'an unsupported MCP-Protocol-Version header → 400');
  t.match(legacyVersion.json, { error: { message: /Unsupported protocol version: 1999-01-01/ } });
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2099-01-01',
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const modernVersion = await get(endpoint, {
    method: 'POST',
    headers: { ...headers, 'MCP-Protocol-Version': '2099-01-01' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope } }),
  });
  t.match(
    modernVersion.json,
    { error: { code: -32022, data: { supported: ['2026-07-28'] } } },
    'an unsupported modern revision → -32022',
  );
  t.equal(modernVersion.headers.get('x-release-id'), health.release, 'every response names the release');
});
