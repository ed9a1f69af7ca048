// A second MCP client, the MCP inspector's CLI, over real HTTP against a server over the fixture release: its strict
// portability check of tools/list finds nothing (no error, no warning), and every tool called as a user would call it
// answers what a user checks, its structured output validated by that client's SDK too. get_meeting's largest result
// stays under about 8k tokens, and its next page reaches the rest of the items.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

import t, { type Test } from 'tap';

import { tools } from '../src/mcp/tools.ts';
import { ITEMS_PER_CALL } from '../src/mcp/tools/get-meeting.ts';
import { get, type Json, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
t.teardown(() => running.close());
const endpoint = `${running.url}/api/mcp`;
const release = (await get(`${running.url}/api/health`)).json.release;

const require = createRequire(import.meta.url);
const CLI = join(require.resolve('@modelcontextprotocol/inspector/package.json'), '..', 'clients/cli/build/index.js');

/** Runs the inspector's CLI against the server; its exit code, stdout and stderr. */
async function inspector(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [CLI, endpoint, '--transport', 'http', ...args],
      { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
    );
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout, err: x.stderr };
  }
}

/** tools/call through the CLI: the result, after asserting it succeeded and names the release. */
async function call(t: Test, name: string, args: Record<string, string | number>): Promise<Json> {
  const pairs = Object.entries(args).map(([k, v]) => `${k}=${v}`);
  const r = await inspector(
    '--method',
    'tools/call',
    '--tool-name',
    name,
    ...(pairs.length ? ['--tool-arg', ...pairs] : []),
  );
  t.equal(r.code, 0, `${name} exits 0 ${r.err}`);
  const result = JSON.parse(r.out);
  t.notOk(result.isError, `${name} ${JSON.stringify(args)} succeeds: ${result.isError ? result.content[0].text : ''}`);
  t.equal(result.structuredContent?.release, release, `${name} names its release`);
  return result;
}

t.test('tools/list --strict: exit 0 and no finding at all', async (t) => {
  const r = await inspector('--method', 'tools/list', '--strict');
  t.equal(r.code, 0, 'exit 0');
  t.equal(r.err.trim(), '', 'nothing on stderr: no error and no warning');
  t.same(
    JSON.parse(r.out)
      .tools.map((x: Json) => x.name)
      .sort(),
    tools.map((x) => x.name).sort(),
    'every tool',
  );
});

t.test('every tool, called as a user would, answers what a user checks', async (t) => {
  const called = new Set<string>();
  const check = async (name: string, args: Record<string, string | number>, what: (s: Json, text: string) => void) => {
    const r = await call(t, name, args);
    called.add(name);
    what(r.structuredContent, r.content[0].text);
  };
  await check('ask', { q: 'How did Peskin vote on housing in 2016?' }, (s) => t.ok(s.interpretation, 'interpreted'));
  await check('search_pages', { q: 'roof' }, (s) => t.ok(s.results.some((x: Json) => x.meetingDate === '2016-11-01')));
  await check('search_items', { q: '160965' }, (s) => t.equal(s.results[0].fileNumber, '160965', 'file 160965 first'));
  await check('search_public_comments', { q: 'Millennium Towers' }, (s) =>
    t.equal(s.results[0]?.speaker, 'Francisco Da Costa', 'the speaker on Millennium Towers'),
  );
  await check('get_record', { id: '2016-11-01-minutes-160965' }, (s) =>
    t.match(JSON.stringify(s), /"fileNumber":"160965"/, 'item of file 160965'),
  );
  await check('get_meeting', { date: '2016-11-01' }, (s) => {
    t.equal(s.date, '2016-11-01');
    t.equal(s.itemsTotal, 45, 'the minutes’ 45 items');
  });
  await check('list_meetings', {}, (s) => t.ok(s.meetings.some((m: Json) => m.date === '2016-11-01')));
  await check('coverage', {}, (s) => t.match(JSON.stringify(s), /2016/));
  await check('vote_aggregate', { voter: 'Peskin' }, (s) => t.match(JSON.stringify(s), /Peskin/));
  await check('housing_aggregate', { voter: 'Peskin' }, (s) => t.match(JSON.stringify(s), /Peskin/));
  await check('read_changes', { limit: 5 }, (s) => t.ok(Array.isArray(s.changes ?? s.records), 'changes listed'));
  await check('snapshot_manifest', {}, (s) => t.match(JSON.stringify(s), /legislative-files/));
  await check('list_releases', {}, (s) => t.match(JSON.stringify(s), new RegExp(release)));
  t.same([...called].sort(), tools.map((x) => x.name).sort(), 'every tool called');
});

t.test(
  'get_meeting: the largest meeting in pages of at most ~8k tokens, the next page reaching the rest',
  async (t) => {
    const dates: string[] = (await get(`${running.url}/api/meetings?limit=1000`)).json.meetings.map(
      (m: Json) => m.date,
    );
    const sizes = await Promise.all(
      dates.map(async (date) => ({
        date,
        items: (await get(`${running.url}/api/meetings/${date}`)).json.items.length,
      })),
    );
    const largest = sizes.sort((a, b) => b.items - a.items)[0];
    let offset: number | null = 0;
    const seen: string[] = [];
    while (offset !== null) {
      const r = await call(t, 'get_meeting', { date: largest.date, offset });
      const chars = r.content[0].text.length + JSON.stringify(r.structuredContent).length;
      t.ok(chars < 32_000, `${largest.date} from item ${offset + 1}: ${chars} characters`);
      t.same(r.structuredContent.trimmed, [], 'nothing trimmed');
      t.ok(r.structuredContent.items.length <= ITEMS_PER_CALL);
      seen.push(...r.structuredContent.items.map((i: Json) => i.id));
      offset = r.structuredContent.nextOffset;
    }
    const rest = (await get(`${running.url}/api/meetings/${largest.date}`)).json.items.map((i: Json) => i.id);
    t.same(seen, rest, `every one of the ${rest.length} items of ${largest.date}, in order, once`);
  },
);
