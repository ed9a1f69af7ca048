// The renderers on their own (src/render/): real answers of the queries over the fixture release, opened directly (no
// server, no HTTP), turned into Markdown, HTML and Atom, and read for what a user reads: the file number, the roll
// call and its counts, the totals, and a `<` that stays text.
import t from 'tap';

import { readParams } from '../src/http/params.ts';
import { Urls } from '../src/http/urls.ts';
import { votesAggregate } from '../src/queries/aggregates/votes.ts';
import { getItem, searchItems } from '../src/queries/items.ts';
import { getPage } from '../src/queries/pages.ts';
import { search } from '../src/queries/search.ts';
import { atomFeed } from '../src/render/atom/feed.ts';
import { type Form, resultsHtml } from '../src/render/html/page.ts';
import { itemHtml, pageRecordHtml, rollCallTable } from '../src/render/html/records.ts';
import { votesAggregateMarkdown } from '../src/render/markdown/answers.ts';
import { itemMarkdown, itemsMarkdown, searchMarkdown, tally } from '../src/render/markdown/records.ts';
import { openFixtureRelease } from './fixture.ts';
import type { Json } from './json.ts';

const release = await openFixtureRelease(t);
const urls = new Urls('http://records.test');
const ITEM = '2016-11-01-minutes-161169';

const form = (q: string): Form => ({
  q,
  type: 'all',
  from: '',
  to: '',
  supervisor: '',
  position: '',
  final: false,
  page: 1,
});

t.test("Markdown of an item search: the file, the voter's recorded position and each roll call's tally", async (t) => {
  const body = await searchItems(release, urls, readParams('params/items.json', { q: 'Cuomo', voter: 'Wiener' }));
  const md = itemsMarkdown(body);
  t.match(md, /^# Legislative items: Cuomo$/m);
  t.match(
    md,
    new RegExp(`^${body.returned} of ${body.total} matching records\\. .*Voter: Scott Wiener\\.`, 'm'),
    'the count, as the answer gives it',
  );
  t.match(md, /\*\*File 161169: /, 'the file number');
  t.match(md, /Scott Wiener recorded \*\*no\*\* on: NOT ADOPTED/, 'the recorded position, with its action');
  const item = body.results.find((r: Json) => r.fileNumber === '161169') as Json;
  t.ok(item, 'the answer holds file 161169');
  for (const rc of item.rollCalls) t.ok(md.includes(tally(rc)), `vote ${rc.sequence}: ${tally(rc)}`);
});

t.test('Markdown of an item record: its roll calls in order, names by position', async (t) => {
  const item = (await getItem(release, urls, ITEM)) as Json;
  t.ok(item, ITEM);
  const md = itemMarkdown(item);
  t.match(md, /^# File 161169/);
  t.match(md, /Noes 3 \(Cohen, Tang, Wiener\)/, 'the roll call: three noes, by name');
  t.match(md, /^- Vote 2 \(rejection, rescinded by vote 3\): NOT ADOPTED — Ayes 7 .* — result: not-adopted$/m);
  t.match(md, new RegExp(`release ${release.id}`), 'the release that answered');
});

t.test('HTML of an item record: a roll-call table with counts and names, linked to supervisors', async (t) => {
  const item = (await getItem(release, urls, ITEM)) as Json;
  const html = itemHtml(item, null, (name) => (name === 'Wiener' ? 'scott-wiener' : null));
  t.match(html, /161169/, 'the file number');
  const rejected = item.rollCalls.find((rc: Json) => rc.actionType === 'rejection');
  const table = rollCallTable(rejected, rejected.sequence, (name) => (name === 'Wiener' ? 'scott-wiener' : null));
  t.ok(html.includes(table), 'the item page shows the roll call as its table');
  t.match(
    table,
    /<th scope="row">No<\/th><td>3<\/td><td>Cohen, Tang, <a href="\/supervisors\/scott-wiener">Wiener<\/a><\/td>/,
    'three noes, Wiener linked',
  );
  t.match(table, /<th scope="row">Aye<\/th><td>7<\/td>/, 'seven ayes');
  const marked = rollCallTable({ ...rejected, action: 'Motion <script>alert(1)</script> & more' }, 9);
  t.match(
    marked,
    /Vote 9: Motion &lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; more/,
    'an action is text, never markup',
  );
  t.notMatch(marked, /<script>/);
});

t.test('Markdown of the votes aggregate: the totals add up to the count', async (t) => {
  const body = (await votesAggregate(
    release,
    urls,
    readParams('params/votes.json', { voter: 'Tang', groupBy: 'roll-call' }),
  )) as Json;
  const md = votesAggregateMarkdown(body);
  const x = body.totals;
  t.equal(x.aye + x.no + x.absent + x.excused, body.total, `${body.total} positions counted`);
  t.match(md, /^# Recorded positions of Katy Tang$/m);
  t.ok(
    md.includes(
      `${body.total} counted: aye ${x.aye} · no ${x.no} · absent ${x.absent} · excused ${x.excused}. Showing ${body.returned}.`,
    ),
    'the totals line',
  );
  t.match(
    md,
    /\*\*no\*\* — File 161169: .* — 2016-11-01, vote 2 \(rejection\): NOT ADOPTED/,
    'a record: position, file, date, vote and action',
  );
  t.ok(
    body.interpretationLimits.every((l: string) => md.includes(l)),
    'every interpretation limit written out',
  );
});

t.test("search results as Markdown and as the page's HTML, with a query that holds `<`", async (t) => {
  const q = 'housing <b>';
  const body = (await search(release, urls, readParams('params/search.json', { q, limit: '20' }))) as Json;
  t.ok(body.results.length > 0, `${body.results.length} results for ${q}`);
  const md = searchMarkdown(body);
  t.match(md, /housing \\<b\\>/, 'Markdown escapes the angle brackets of the query');
  const html = resultsHtml(form(q), { body, first: 1 }, null, null);
  t.match(html, /for “housing &lt;b&gt;”/, 'the page shows the query as text');
  t.notMatch(html, /<b>/, 'no markup from the query');
  t.match(
    html,
    new RegExp(
      `<p class="summary">(?:Results 1–\\d+ of (?:the best \\d+ of \\d+ matches|\\d+)|${body.results.length} results?) for “housing &lt;b&gt;”`,
    ),
    'the count the page lists (its ranking is the whole list), in the summary line',
  );
});

t.test('HTML of a PDF page: the words of the query marked, and a `<` in the text escaped', async (t) => {
  const page = (await getPage(release, urls, '2016-11-01-minutes-p1')) as Json;
  t.ok(page, 'the first page of the 2016-11-01 minutes');
  const html = pageRecordHtml({ ...page, text: `${page.text}\nunits < 10 & "quoted"` }, 'committee');
  t.match(html, /<mark>Committee<\/mark>/, 'the query word marked');
  t.match(html, /\d+ words of “committee” marked on this page/, 'and counted');
  t.match(html, /units &lt; 10 &amp; &quot;quoted&quot;/, 'the text is escaped');
  t.match(html, /Official PDF, page 1/);
});

t.test("Atom feed of a supervisor's recorded positions: entries, categories, escaping", async (t) => {
  const body = (await votesAggregate(
    release,
    urls,
    readParams('params/votes.json', { voter: 'Wiener', groupBy: 'roll-call', limit: '5' }),
  )) as Json;
  t.ok(body.records.length > 0);
  const entries = body.records.map((r: Json) => ({
    url: `${urls.base}/items/${r.itemId}`,
    title: `Scott Wiener: ${r.position} on file ${r.fileNumber}, ${r.title}`,
    published: `${r.meetingDate}T00:00:00-08:00`,
    updated: '2026-01-01T00:00:00Z',
    summary: `${r.meetingDate}: ${r.action} <not markup>`,
    official: r.evidence?.officialUrl,
    category: r.position,
  }));
  const xml = atomFeed({
    self: `${urls.base}/feeds/supervisors/scott-wiener`,
    page: `${urls.base}/supervisors/scott-wiener`,
    title: 'Votes of <Wiener> & co',
    subtitle: 'Recorded positions',
    updated: '2026-01-01T00:00:00Z',
    entries,
  });
  t.match(xml, /^<\?xml version="1\.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/);
  t.equal(xml.match(/<entry>/g)?.length, body.records.length, 'one entry per record');
  t.ok(
    body.records.every((r: Json) => xml.includes(`file ${r.fileNumber}`)),
    'each entry names its file',
  );
  t.ok(
    body.records.every((r: Json) => xml.includes(`<category term="${r.position}"/>`)),
    'each position a category',
  );
  t.match(xml, /Votes of &lt;Wiener&gt; &amp; co/, 'the title escaped');
  t.notMatch(xml, /<not markup>/, 'a summary is text');
});
