// The one shared fixture every test reuses: a release built from ../shared/corpus (rebuilt only when the corpus or
// the pipeline code changes), opened directly for tests of queries, stores and renderers, or behind a real server on a
// loopback port.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import type { Test } from 'tap';

import { buildRelease } from '../pipelines/build.ts';
import { buildInputKey } from '../pipelines/input-key.ts';
import { pointCurrent } from '../pipelines/publish/release.ts';
import type { Config } from '../src/config.ts';
import { Release } from '../src/lake/release.ts';
import { checkResponse } from '../src/schemas.ts';
import { type Running, start } from '../src/server.ts';
import { documentErrors } from './document.ts';
import type { Json } from './json.ts';

export type { Json };

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CORPUS = resolve(ROOT, '..', 'shared', 'corpus');
export const FIXTURE_LAKE = join(ROOT, '.cache', 'test-lake');

/** Builds (or reuses) the fixture release and returns its id; `lake/current` of the fixture lake names it. */
export async function fixtureRelease(): Promise<string> {
  const key = join(FIXTURE_LAKE, `key-${buildInputKey(CORPUS)}`);
  if (existsSync(key)) {
    const id = (await readFile(key, 'utf8')).trim();
    if (existsSync(join(FIXTURE_LAKE, 'releases', id, 'manifest.json'))) {
      await pointCurrent(FIXTURE_LAKE, id);
      return id;
    }
  }
  await mkdir(FIXTURE_LAKE, { recursive: true });
  const result = await buildRelease({
    corpus: CORPUS,
    lake: FIXTURE_LAKE,
    cacheDir: join(ROOT, '.cache', 'extract'),
    keep: 10,
    quiet: true,
    history: false,
  });
  await writeFile(key, result.releaseId);
  return result.releaseId;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    host: '127.0.0.1',
    port: 0,
    lakeDir: FIXTURE_LAKE,
    publicBaseUrl: null,
    poolSize: 3,
    queueLimit: 64,
    queryTimeoutMs: 10000,
    contractChecks: true,
    watchMs: 0,
    log: () => {},
    embedding: null,
    ...overrides,
  };
}

/**
 * The fixture release opened directly, as the server opens it (testConfig's pool and time limit), without a server or
 * HTTP: for tests that call queries, stores and renderers. Retired when `t` ends.
 */
export async function openFixtureRelease(t: Test, overrides: Partial<Config> = {}): Promise<Release> {
  const dir = join(FIXTURE_LAKE, 'releases', await fixtureRelease());
  const release = await Release.open(dir, testConfig(overrides));
  t.teardown(() => release.retire());
  return release;
}

/** A server over the fixture release (listening once its warm-up is read: tests that count DuckDB queries count the requests' own). */
export async function startFixtureServer(overrides: Partial<Config> = {}): Promise<Running> {
  await fixtureRelease();
  return start(testConfig(overrides));
}

export interface Fetched {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

export async function get(url: string, init: RequestInit = {}): Promise<Fetched> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: Json = null;
  if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, json };
}

/** Asserts a body matches its schema, with the violations as the failure message. */
export function schemaErrors(id: string, body: unknown): string {
  const errors = checkResponse(id, body);
  return errors.length ? JSON.stringify(errors.slice(0, 5)) : '';
}

/**
 * GET that must answer 200 with a body valid against its response schema, and against what the served OpenAPI
 * document says of that path (test/document.ts); returns the body.
 */
export async function getValid(t: Test, url: string, schemaId: string): Promise<Json> {
  const r = await get(url);
  t.equal(r.status, 200, `GET ${url}`);
  t.equal(schemaErrors(schemaId, r.json), '', `valid ${schemaId}`);
  t.equal(
    documentErrors(url, r.status, r.headers.get('content-type') ?? '', r.json),
    '',
    'as the OpenAPI document says',
  );
  return r.json;
}

/** GET that must be refused: a 400 problem document naming the parameter and the rule, and nothing leaked. */
export async function expectRefusal(t: Test, url: string, parameter: string, rule: string): Promise<Json> {
  const r = await get(url);
  t.equal(r.status, 400, url);
  t.match(r.headers.get('content-type'), /application\/problem\+json/);
  t.equal(schemaErrors('problem.json', r.json), '', 'a problem document');
  t.equal(
    documentErrors(url, r.status, r.headers.get('content-type') ?? '', r.json),
    '',
    'as the OpenAPI document says',
  );
  t.ok(
    r.json.errors.some((e: Json) => e.parameter === parameter && e.rule === rule),
    `${url}: ${parameter} ${rule} (${r.json.detail})`,
  );
  t.notMatch(r.text, /at \w+ \(|\/work\/|node_modules/, 'no stack trace or path');
  return r.json;
}

export interface ServeProcess {
  child: ChildProcessByStdio<null, null, Readable>;
  /** The server's base URL, or '' when the process exited before it listened. */
  url: string;
  /** What it wrote to stderr so far. */
  stderr: () => string;
  /** Its exit code, once it exits. */
  exited: Promise<number | null>;
}

/** `make serve`'s command (src/main.ts) in a child process on a free port, with `env` added to ours. */
export async function serveProcess(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  const url = await Promise.race([
    new Promise<string>((resolve) =>
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /at (http:\/\/[^/]+)\//.exec(stderr);
        if (m) resolve(m[1]);
      }),
    ),
    exited.then(() => ''),
  ]);
  return { child, url, stderr: () => stderr, exited };
}
