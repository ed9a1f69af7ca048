// Generated hostile and ordinary requests for every GET endpoint in the endpoint table, and the rule every answer
// must keep: an allowed status, a schema-valid body, no stack trace or file path. Used by test/fuzz.test.ts
// (a seeded few thousand) and `make fuzz` (100k).
import fc from 'fast-check';
import { endpoints } from '../../src/http/routes/index.ts';
import { schema, checkResponse } from '../../src/schemas.ts';

export const ALLOWED = new Set([200, 204, 304, 400, 404, 405, 406, 413, 503]);

const HOSTILE = [
  "' OR 1=1 --", "'; DROP TABLE pages; --", '" OR ""="', '\\', '%', '_', '.*(', '[a-z', '(?<x>', '$1', '${x}', '{{x}}', '<script>alert(1)</script>',
  '../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%2e%2e/%2e%2e/manifest.json', 'a%00b', '\u0000', '\u202e', '\ud800', '😀', 'Ω≈ç√', '"unbalanced', "it's",
  '-1', '0', '1e309', 'NaN', 'Infinity', '9999999999999999999', '77777777777777777777777777777777777777777', '2011', '2027', '9999999999999999999', '1.5', 'true', 'false', 'null', '[]', '{}', ' ', '',
];

const hostile = fc.oneof(
  fc.constantFrom(...HOSTILE),
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
  return fc.constantFrom('housing', 'Better Roof', 'Wiener', 'Transbay Block 8', '"living roofs"', '160965', 'budget 2017', 'Mar', 'aye');
}

/** Percent-encodes; a lone surrogate becomes raw bytes that are not valid UTF-8, which is hostile input too. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'latin1')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
};

export interface FuzzRequest { path: string; response: string | null }

/** One request: an endpoint, each parameter left out, valid, hostile or repeated; path ids valid or hostile. */
export const request: fc.Arbitrary<FuzzRequest> = fc.oneof(
  ...endpoints.map((ep) => {
    const props = (schema(ep.params) as unknown as { properties?: Record<string, Prop> }).properties ?? {};
    const names = Object.keys(props);
    const value = (name: string) => fc.oneof({ weight: 3, arbitrary: valid(props[name]) }, { weight: 2, arbitrary: hostile });
    const params = fc.tuple(fc.tuple(...names.map((n) => fc.oneof(
      { weight: 3, arbitrary: fc.constant<string[]>([]) },
      { weight: 4, arbitrary: value(n).map((v) => [v]) },
      { weight: 1, arbitrary: fc.tuple(value(n), value(n)).map(([a, b]) => [a, b]) },
    ))), fc.array(fc.tuple(fc.constantFrom('x', 'limt', 'Q', 'q[]', '__proto__'), hostile), { maxLength: 1 }));
    const ids = fc.oneof(fc.constantFrom('2016-11-01-minutes-p4', '2016-11-01-minutes-161169', '2016-11-01-minutes-c003', 'documents', 'legislative-files', 'recorded-positions', 'supervisors', 'x.md'), hostile);
    return fc.tuple(params, ids, fc.boolean()).map(([[values, extra], id, md]) => {
      let path = ep.path.replace(/:(\w+)/g, () => enc(id));
      // An empty id makes the parent path (`/api/snapshots/` is the manifest): its own schema applies, not this one.
      const response = md || (ep.path.includes(':') && enc(id) === '') ? null : ep.response;
      if (md && ep.markdown && !ep.path.includes(':')) path += '.md';
      const qs = [...names.flatMap((n, i) => values[i].map((v) => `${enc(n)}=${enc(v)}`)), ...extra.map(([k, v]) => `${enc(k)}=${enc(v)}`)];
      return { path: qs.length ? `${path}?${qs.join('&')}` : path, response };
    });
  }),
  fc.tuple(fc.constantFrom('/', '/api/', '/api/releases/x/files/', '/assets/', '/api/items/', '/api/snapshots/'), hostile).map(([p, s]) => ({ path: p + enc(s), response: null })),
  fc.tuple(hostile, hostile).map(([q, t]) => ({ path: `/?q=${enc(q)}&type=${enc(t)}`, response: null })),
);

export interface Checked { status: number; problem: string | null }

/** Sends one request and says what, if anything, broke the rule. */
export async function send(base: string, r: FuzzRequest): Promise<Checked> {
  let res: Response;
  try {
    res = await fetch(base + r.path, { redirect: 'manual' });
  } catch (e) {
    return { status: 0, problem: `connection failed: ${(e as Error).message}` };
  }
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const fail = (why: string) => ({ status: res.status, problem: `${res.status} ${r.path}: ${why}` });
  if (!ALLOWED.has(res.status)) return fail(`status not allowed: ${text.slice(0, 200)}`);
  if (/node_modules|\/work\/|\bat \w+ \(|Error: /.test(text) && !type.includes('markdown') && !type.includes('ndjson')) return fail('stack trace or file path in body');
  if (type.includes('json') && !type.includes('ndjson')) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail('JSON body does not parse');
    }
    const id = res.status >= 400 ? 'problem.json' : res.status === 200 ? r.response : null;
    if (id) {
      const errors = checkResponse(id, body);
      if (errors.length) return fail(`body breaks ${id}: ${JSON.stringify(errors.slice(0, 2))}`);
    }
  }
  return { status: res.status, problem: null };
}
