// What scripts/openapi-examples.ts (which records the document's examples) and test/openapi.test.ts (which sends them
// again) both do: build an operation's URL from its parameters, pick values the fixture holds nothing of, and read an
// answer as status, media type and body.
import { request } from 'node:http';

export interface Answer {
  status: number;
  /** The media type, without parameters. */
  type: string;
  /** Parsed for JSON media types, else the text. */
  body: unknown;
  headers: Headers;
}

export async function answer(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
  const text = await res.text();
  return {
    status: res.status,
    type,
    body: /^application\/(.+\+)?json$/.test(type) && text ? JSON.parse(text) : text,
    headers: res.headers,
  };
}

/** A POST with a Host header of our choosing (fetch always sends the URL's): how a DNS-rebound page would call. */
export function answerForHost(url: string, host: string, init: { headers: Record<string, string>; body: string }) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...init.headers, Host: host }, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        const type = (headers.get('content-type') ?? '').split(';')[0].trim();
        const json = /^application\/(.+\+)?json$/.test(type) && text;
        resolve({ status: res.statusCode!, type, body: json ? JSON.parse(text) : text, headers });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The URL of an operation with these parameters (path ones in the path, the rest in the query; undefined left out). */
export function exampleUrl(path: string, params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  const filled = path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(String(params[n])));
  for (const [k, v] of Object.entries(params)) if (!path.includes(`{${k}}`) && v !== undefined) query.set(k, String(v));
  return query.size ? `${filled}?${query}` : filled;
}

/** Values the fixture holds no record of: a release not kept, else an unknown record id or meeting date. */
export function missingValues(params: Record<string, unknown>): Record<string, unknown> {
  if ('release' in params) return { release: '0000000000000000' };
  return Object.fromEntries(
    Object.keys(params)
      .filter((k) => k === 'id' || k === 'date')
      .map((k) => [k, k === 'id' ? 'no-such-record' : '2013-01-08']),
  );
}
