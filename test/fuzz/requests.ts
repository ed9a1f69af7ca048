// Generated hostile and ordinary requests for every GET endpoint in the endpoint table, the web pages and feeds, and
// POST /api/mcp, and the rule every answer must keep: an allowed status, a schema-valid body, no stack trace or file
// path, no Markdown structure from the client's text. Used by test/fuzz.test.ts (a seeded few thousand) and `make fuzz` (100k).
import { request as httpRequest } from 'node:http';

import fc from 'fast-check';

import { DEFAULT_LIMITS } from '../../src/config.ts';
import { endpoints } from '../../src/http/routes/index.ts';
import { checkResponse, schema } from '../../src/schemas.ts';

export const ALLOWED = new Set([200, 204, 304, 400, 404, 405, 406, 413, 503]);

const HOSTILE = [
  "' OR 1=1 --",
  "'; DROP TABLE pages; --",
  '" OR ""="',
  '\\',
  '%',
  '_',
  '.*(',
  '[a-z',
  '(?<x>',
  '$1',
  '${x}',
  '{{x}}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e/%2e%2e/manifest.json',
  'a%00b',
  '\u0000',
  '\u202e',
  '\ud800',
  '😀',
  'Ω≈ç√',
  '"unbalanced',
  "it's",
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '9999999999999999999',
  '77777777777777777777777777777777777777777',
  '2011',
  '2027',
  '9999999999999999999',
  '1.5',
  'true',
  'false',
  'null',
  '[]',
  '{}',
  ' ',
  '',
  // integers written otherwise than in decimal digits (Number() reads them all)
  '0o10',
  '0b10',
  '0x10',
  '0X1F',
  '1e3',
  '2e3',
  ' 7',
  '7 ',
  '\t7',
  '+7',
  '1.0',
  '2016.0',
  '0x7E0',
  '-0',
  '007',
  '٣',
  // timestamps: leap seconds, offsets past year 9999 or before year 0, impossible dates, odd separators
  '2016-12-31T23:59:60Z',
  '2016-06-30T23:59:60+00:00',
  '2016-12-31T15:59:60-08:00',
  '9999-12-31T23:59:59-01:00',
  '0000-01-01T00:00:00+01:00',
  '2016-02-30T00:00:00Z',
  '2016-13-01T00:00:00Z',
  '2016-01-01T24:00:00Z',
  '2016-01-01t00:00:00z',
  '2016-01-01 00:00:00Z',
  '2016-01-01T00:00:00',
  '2016-01-01T00:00:00.123456789Z',
  '2016-01-01T00:00:00+14:00',
  '2016-01-01T00:00:00+99:99',
  '+002016-01-01T00:00:00Z',
  '2016-01-01',
];

/** Client text that tries to add Markdown structure; no line of a `.md` answer but its title may start with it. */
const MARKDOWN = [
  'roof\n# INJECTED',
  'roof\r\n## INJECTED',
  'housing\n| INJECTED | x |\n|---|---|',
  'roof\n```\nINJECTED\n```',
  'Kim "a\n# INJECTED phrase"',
  '# INJECTED',
  '| INJECTED |',
  '`INJECTED`',
  'roof\n\n---\n# INJECTED',
  'roof\n<script>INJECTED</script>',
  'roof\n- [INJECTED](javascript:alert(1))',
];

const hostile = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.constantFrom(...MARKDOWN),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ maxLength: 5 }).map((s) => s.repeat(200)),
  fc.integer({ min: -100000, max: 100000 }).map(String),
);

type Prop = { type?: string | string[]; enum?: unknown[]; minimum?: number; maximum?: number; maxLength?: number };

function valid(p: Prop): fc.Arbitrary<string> {
  if (p.enum) return fc.constantFrom(...p.enum.map(String));
  if (p.type === 'integer') return fc.integer({ min: p.minimum ?? 0, max: p.maximum ?? 1000 }).map(String);
  if (p.type === 'boolean') return fc.constantFrom('true', 'false');
  return fc.constantFrom(
    'housing',
    'Better Roof',
    'Wiener',
    'Transbay Block 8',
    '"living roofs"',
    '160965',
    'budget 2017',
    'Mar',
    'aye',
  );
}

/** Percent-encodes; a lone surrogate becomes raw bytes that are not valid UTF-8, which is hostile input too. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'latin1')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
};

export interface FuzzRequest {
  path: string;
  /** Response schema of a 200 (null: not checked). */
  response: string | null;
  method?: string;
  /** A Host header of the generator's choosing (sent with node:http: fetch sets its own). */
  host?: string;
  origin?: string;
  body?: string;
  /** The statuses this request may get, when narrower or other than ALLOWED. */
  expect?: number[];
  /** A JSON-RPC endpoint: its errors are JSON-RPC, not problem documents. */
  mcp?: boolean;
}

/** Host headers: malformed, foreign (DNS rebinding) and our own names. */
const HOSTS = [
  'a b',
  '[::1',
  'x:99999',
  '',
  'evil.example',
  'evil.example:8080',
  '127.0.0.1.evil.example',
  'localhost:abc',
  'localhost',
  '[::1]:1',
  '127.0.0.1',
  '%31%32%37.0.0.1',
  'user@127.0.0.1',
  '127.0.0.1/x',
  ' ',
  'é.example',
];
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const rpc = (id: number, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const INITIALIZE = rpc(1, 'initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'fuzz', version: '1' },
});
/** A cheap tool call, or one with hostile arguments. */
const toolCall = fc.oneof(
  fc.constant({ name: 'snapshot_manifest', arguments: {} }),
  fc
    .tuple(
      fc.constantFrom('search_pages', 'search_items', 'search_public_comments', 'read_changes', 'get_record'),
      fc.constantFrom('q', 'limit', 'since', 'id', 'cursor', 'from'),
      hostile,
    )
    .map(([name, k, v]) => ({ name, arguments: { q: 'roof', [k]: v } })),
);

/** POST /api/mcp (a server with the default limits): batches of up to twice the bound of calls (beyond it: 400), and
 * forged Host headers. */
const BATCH = DEFAULT_LIMITS.mcpBatchLimit;
/** Spellings of the MCP path that route to it: each must meet the same gates (issue 45). */
const MCP_PATHS = ['/api/mcp', '/api/mcp/', '/API/MCP', '/Api/Mcp/', '/api%2Fmcp', '/api/./mcp', '//api/mcp'];
const mcpRequests: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 2 * BATCH }), toolCall).map(([calls, call]) => ({
    path: '/api/mcp',
    response: null,
    method: 'POST',
    mcp: true,
    expect: calls > BATCH ? [400] : [200, 503],
    body: JSON.stringify(Array.from({ length: calls }, (_, i) => rpc(i + 1, 'tools/call', call))),
  })),
  fc.tuple(fc.integer({ min: BATCH + 1, max: 150 }), fc.constantFrom(...MCP_PATHS)).map(([calls, path]) => ({
    path,
    response: null,
    method: 'POST',
    mcp: true,
    expect: [400],
    body: JSON.stringify(Array.from({ length: calls }, (_, i) => rpc(i + 1, 'tools/list'))),
  })),
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...HOSTS),
        fc.string({ maxLength: 30 }).map((h) => h.replace(/[^\t\x20-\x7e]/g, '')),
      ),
      fc.boolean(),
    )
    .map(([host, origin]) => ({
      path: '/api/mcp',
      response: null,
      method: 'POST',
      mcp: true,
      host,
      body: JSON.stringify(INITIALIZE),
      ...(origin ? { origin: `http://${host}` } : {}),
      expect: [200, 400, 403],
    })),
);

/** One request: an endpoint, each parameter left out, valid, hostile or repeated; path ids valid or hostile. */
export const request: fc.Arbitrary<FuzzRequest> = fc.oneof(
  ...endpoints.map((ep) => {
    const props = (schema(ep.params) as unknown as { properties?: Record<string, Prop> }).properties ?? {};
    const names = Object.keys(props);
    const value = (name: string) =>
      fc.oneof({ weight: 3, arbitrary: valid(props[name]) }, { weight: 2, arbitrary: hostile });
    const params = fc.tuple(
      fc.tuple(
        ...names.map((n) =>
          fc.oneof(
            { weight: 3, arbitrary: fc.constant<string[]>([]) },
            { weight: 4, arbitrary: value(n).map((v) => [v]) },
            { weight: 1, arbitrary: fc.tuple(value(n), value(n)).map(([a, b]) => [a, b]) },
          ),
        ),
      ),
      fc.array(fc.tuple(fc.constantFrom('x', 'limt', 'Q', 'q[]', '__proto__'), hostile), { maxLength: 1 }),
    );
    const ids = fc.oneof(
      fc.constantFrom(
        '2016-11-01-minutes-p4',
        '2016-11-01-minutes-161169',
        '2016-11-01-minutes-c003',
        'documents',
        'legislative-files',
        'recorded-positions',
        'supervisors',
        'x.md',
      ),
      hostile,
    );
    return fc.tuple(params, ids, fc.boolean()).map(([[values, extra], id, md]) => {
      let path = ep.path.replace(/:(\w+)/g, () => enc(id));
      // An empty id makes the parent path (`/api/snapshots/` is the manifest): its own schema applies, not this one.
      const response = md || (ep.path.includes(':') && enc(id) === '') ? null : ep.response;
      if (md && ep.markdown && !ep.path.includes(':')) path += '.md';
      const qs = [
        ...names.flatMap((n, i) => values[i].map((v) => `${enc(n)}=${enc(v)}`)),
        ...extra.map(([k, v]) => `${enc(k)}=${enc(v)}`),
      ];
      return { path: qs.length ? `${path}?${qs.join('&')}` : path, response };
    });
  }),
  fc
    .tuple(
      fc.constantFrom('/', '/api/', '/api/releases/x/files/', '/assets/', '/api/items/', '/api/snapshots/'),
      hostile,
    )
    .map(([p, s]) => ({ path: p + enc(s), response: null })),
  fc.tuple(hostile, hostile).map(([q, t]) => ({ path: `/?q=${enc(q)}&type=${enc(t)}`, response: null })),
  // Record pages by hostile ids (a `.json` id is sent on to the API: 308), the search page and feeds by hostile fields.
  fc
    .tuple(
      fc.constantFrom('/items/', '/pages/', '/comments/', '/meetings/', '/supervisors/', '/feeds/supervisors/'),
      fc.oneof(
        fc.constantFrom(
          '2016-11-01-minutes-161169',
          '2016-11-01-minutes-p4',
          '2016-11-01-minutes-c003',
          '2016-11-01',
          'aaron-peskin',
          'x.json',
        ),
        hostile,
      ),
    )
    .map(([p, id]) => ({ path: p + enc(id), response: null, expect: [200, 304, 308, 404, 503] })),
  fc
    .tuple(
      fc.constantFrom('/', '/feeds/search'),
      fc.constantFrom('q', 'type', 'from', 'to', 'supervisor', 'position', 'final', 'page'),
      hostile,
    )
    .map(([p, k, v]) => ({ path: `${p}?q=housing&${enc(k)}=${enc(v)}`, response: null })),
  fc
    .constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'isPrototypeOf',
      '__defineGetter__',
      'propertyIsEnumerable',
    )
    .map((name) => ({ path: `/assets/${name}`, response: null, expect: [404] })),
  fc
    .tuple(
      fc.constantFrom('/api/search.md', '/api/items.md', '/api/comments.md', '/api/query.md'),
      fc.constantFrom(...MARKDOWN),
    )
    .map(([p, q]) => ({ path: `${p}?q=${enc(q)}`, response: null })),
  mcpRequests,
);

export interface Checked {
  status: number;
  problem: string | null;
}

/** A request with a Host header of our choosing; fetch would send its own. */
function withHost(base: string, r: FuzzRequest): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const headers = { ...MCP_HEADERS, Host: r.host!, ...(r.origin ? { Origin: r.origin } : {}) };
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: r.path, method: r.method ?? 'GET', headers, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), text }),
        );
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

async function exchange(base: string, r: FuzzRequest): Promise<{ status: number; type: string; text: string }> {
  if (r.host !== undefined) return withHost(base, r);
  const res = await fetch(base + r.path, {
    redirect: 'manual',
    method: r.method,
    body: r.body,
    ...(r.mcp ? { headers: MCP_HEADERS } : {}),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** Lines below the title that start a heading, a table row or a fence and hold the client's INJECTED marker. */
const injected = (markdown: string) =>
  markdown
    .split('\n')
    .slice(1)
    .filter((l) => /^\s{0,3}(#|\||```)/.test(l) && l.includes('INJECTED'));

/** Sends one request and says what, if anything, broke the rule. */
export async function send(base: string, r: FuzzRequest): Promise<Checked> {
  let res: { status: number; type: string; text: string };
  try {
    res = await exchange(base, r);
  } catch (e) {
    return { status: 0, problem: `connection failed: ${(e as Error).message}` };
  }
  const { text, type } = res;
  const fail = (why: string) => ({
    status: res.status,
    problem: `${res.status} ${r.method ?? 'GET'} ${r.path}${r.host !== undefined ? ` (Host '${r.host}')` : ''}: ${why}`,
  });
  if (!(r.expect ? r.expect.includes(res.status) : ALLOWED.has(res.status)))
    return fail(`status not allowed: ${text.slice(0, 200)}`);
  if (
    /node_modules|\/work\/|\bat \w+ \(/.test(text) ||
    (/Error: /.test(text) && !/markdown|ndjson|event-stream|csv/.test(type))
  )
    return fail('stack trace or file path in body');
  if (type.includes('markdown') && injected(text).length)
    return fail(`Markdown structure from the client: ${JSON.stringify(injected(text).slice(0, 2))}`);
  if (type.includes('json') && !type.includes('ndjson')) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail('JSON body does not parse');
    }
    if (r.mcp)
      return [body].flat().every((m) => (m as { jsonrpc?: string }).jsonrpc === '2.0')
        ? { status: res.status, problem: null }
        : fail('not JSON-RPC');
    const id = res.status >= 400 ? 'problem.json' : res.status === 200 ? r.response : null;
    if (id) {
      const errors = checkResponse(id, body);
      if (errors.length) return fail(`body breaks ${id}: ${JSON.stringify(errors.slice(0, 2))}`);
    }
  }
  return { status: res.status, problem: null };
}
