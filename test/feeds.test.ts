// Atom feeds dated right: a supervisor's feed shows each vote on its meeting's day (the positions in the release's
// Parquet, read by DuckDB), updated when the change log last changed it; a search feed dates its entries by meeting;
// a refused feed query is a problem document naming the parameter.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import { parseFeed } from '@rowanmanning/feed-parser';
import t from 'tap';

import { meetingDay } from '../src/render/atom/feed.ts';
import { FIXTURE_LAKE, fixtureRelease, get, type Json, startFixtureServer } from './fixture.ts';

const releaseId = await fixtureRelease();
const running = await startFixtureServer();
t.teardown(() => running.close());
const dir = join(FIXTURE_LAKE, 'releases', releaseId);
const createdAt: string = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).createdAt;
const db = await (await DuckDBInstance.create(':memory:')).connect();

/** The entries as the XML writes them: id, published, updated. */
const entriesOf = (xml: string) =>
  [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map(([, e]) => ({
    id: /<id>([^<]*)<\/id>/.exec(e)?.[1] ?? '',
    published: /<published>([^<]*)<\/published>/.exec(e)?.[1] ?? '',
    updated: /<updated>([^<]*)<\/updated>/.exec(e)?.[1] ?? '',
  }));

t.test('meetingDay: midnight in San Francisco with the offset of that day', async (t) => {
  t.equal(meetingDay('2016-11-01'), '2016-11-01T00:00:00-07:00', 'daylight time');
  t.equal(meetingDay('2017-01-10'), '2017-01-10T00:00:00-08:00', 'standard time');
  t.equal(meetingDay('2016-11-06'), '2016-11-06T00:00:00-07:00', 'the day the clocks go back starts in daylight time');
  t.equal(meetingDay('2016-03-13'), '2016-03-13T00:00:00-08:00', 'the day they go forward starts in standard time');
});

t.test("a supervisor's feed shows each vote on its meeting's day", async (t) => {
  const res = await get(`${running.url}/feeds/supervisors/aaron-peskin`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/atom\+xml/);
  const entries = entriesOf(res.text);
  t.ok(entries.length > 10, `${entries.length} entries`);
  const rows = (
    await db.runAndReadAll(
      `SELECT p.roll_call_id, p.meeting_date::VARCHAR AS meeting_date,
         coalesce(max(c.time)::VARCHAR, 'this release') AS changed
       FROM read_parquet('${dir}/positions/**/*.parquet', hive_partitioning = false) p
       JOIN read_parquet('${dir}/changes.parquet') c ON c.entity = 'recorded-positions' AND c.record_id = p.position_id
       WHERE p.supervisor_id = 'aaron-peskin' GROUP BY ALL`,
    )
  ).getRowObjectsJson();
  const byRollCall = new Map(rows.map((r) => [String(r.roll_call_id), r]));
  const releaseTime = new Date(createdAt).toISOString().replace(/\.\d+Z$/, 'Z');
  let checked = 0;
  for (const e of entries) {
    const m = /\/items\/([^#]+)#vote-(\d+)$/.exec(e.id);
    const row = m && byRollCall.get(`${decodeURIComponent(m[1])}-v${m[2]}`);
    if (!row) {
      t.fail(`${e.id}: no recorded position of Aaron Peskin`);
      continue;
    }
    t.equal(e.published, meetingDay(String(row.meeting_date)), `${e.id}: published on ${row.meeting_date}`);
    // The fixture is one release: each position first appeared in it (the change log's own rows have no time).
    t.equal(row.changed, 'this release');
    t.equal(e.updated, releaseTime, `${e.id}: updated when the release carried it`);
    checked++;
  }
  t.equal(checked, entries.length, 'every entry is a vote of the supervisor');
  t.ok(
    entries.every((e) => !e.published.startsWith('2026')),
    'no 2016 vote is news of 2026',
  );
  const feed = parseFeed(res.text);
  t.equal(feed.updated?.toISOString().replace(/\.\d+Z$/, 'Z'), releaseTime, "the feed's updated is its latest entry's");
  t.same(
    feed.items.map((i) => i.published?.toISOString().slice(0, 10)),
    entries.map((e) => new Date(e.published).toISOString().slice(0, 10)),
    'a feed reader reads the same published dates',
  );
  const published = entries.map((e) => Date.parse(e.published));
  t.same(
    published,
    [...published].sort((a, b) => b - a),
    'the latest meeting first',
  );
});

t.test('a search feed dates each match by its meeting; refusals are problem documents', async (t) => {
  const res = await get(`${running.url}/feeds/search?q=housing`);
  t.equal(res.status, 200);
  const entries = entriesOf(res.text);
  const api = (await get(`${running.url}/api/search?q=housing&type=all&limit=50`)).json;
  const dates = new Set(api.results.map((r: Json) => meetingDay(r.meetingDate)));
  t.ok(entries.length > 0);
  t.ok(
    entries.every((e) => dates.has(e.published)),
    'every entry published on the day of a matching meeting',
  );
  t.ok(
    entries.every((e) => Date.parse(e.updated) >= Date.parse(e.published)),
    'never updated before it was published',
  );
  const refused = await get(`${running.url}/feeds/search?q=housing&from=1999`, {
    headers: { Accept: 'application/atom+xml' },
  });
  t.equal(refused.status, 400);
  t.match(refused.headers.get('content-type'), /^application\/problem\+json/);
  t.same(
    refused.json.errors.map((e: Json) => e.parameter),
    ['from'],
    'names the parameter',
  );
  const empty = await get(`${running.url}/feeds/search?q=`);
  t.equal(empty.status, 400, 'an empty query');
  t.match(empty.headers.get('content-type'), /^application\/problem\+json/);
  const nobody = await get(`${running.url}/feeds/supervisors/nobody`, {
    headers: { Accept: 'application/atom+xml' },
  });
  t.equal(nobody.status, 404);
  t.match(nobody.headers.get('content-type'), /^application\/problem\+json/);
});
