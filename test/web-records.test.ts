// Records as pages, paging, the phone layout, Atom feeds, accessibility (axe-core, keyboard only) and hostile paths,
// in headless Chromium over the fixture release. Screenshots of each state go to test-artifacts/.
import { parseFeed } from '@rowanmanning/feed-parser';
import type { Browser } from 'playwright-core';
import t from 'tap';

import { axeViolations, launch, PHONE, shot } from './browser.ts';
import { get, type Json, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
const base = running.url;
const browser: Browser = await launch();
t.teardown(async () => {
  await browser.close();
  await running.close();
});

const ITEM = '2016-11-01-minutes-161169';
const OFFICIAL = /^https:\/\/sfbos\.org\/sites\/default\/files\/bag110116_minutes\.pdf#page=\d+$/;

t.test('from a search to an item page, to its meeting and to the official PDF page', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${base}/?q=Cuomo&supervisor=Wiener`);
  await page.click('#results li.result h2 a');
  await page.waitForURL(new RegExp(`/items/${ITEM}$`));
  t.match(await page.textContent('h1'), /^File 161169: Commending New York Governor Andrew Cuomo/);
  const actions = await page.$$eval('ol.actions li', (li) => li.map((x) => x.textContent));
  t.same(actions[0], 'NOT ADOPTED', 'the actions in order');
  t.match(actions[1], /moved to rescind the previous vote/);
  const votes = await page.$$eval('section.vote', (s) => s.map((x) => x.id));
  t.same(votes, ['vote-1', 'vote-2', 'vote-3'], 'each roll call, in order');
  const vote2 = await page.$$eval('#vote-2 tbody tr', (rows) =>
    rows.map((r) => Array.from(r.children, (c) => c.textContent)),
  );
  t.same(vote2[1], ['No', '3', 'Cohen, Tang, Wiener'], 'a table of names by position');
  t.same(vote2[3], ['Excused', '1', 'Farrell']);
  t.match(await page.textContent('#vote-2 h3'), /Vote 2: NOT ADOPTED/, 'with the action text');
  t.equal(
    await page.textContent('#vote-2 a[href="/supervisors/scott-wiener"]'),
    'Wiener',
    'a name as recorded links to its supervisor',
  );
  t.match(await page.textContent('#vote-2 .tag'), /undone by vote 3/);
  t.match(await page.textContent('main'), /not a stance on the matter/, 'the caution that a position is not a stance');
  t.match(
    await page.textContent('main'),
    /Other meetings of file 161169[\s\S]*1 Nov 2016, agenda/,
    'its other meetings',
  );
  t.match(await page.getAttribute('a.official', 'href'), OFFICIAL, 'the official PDF page');
  t.equal(
    await page.getAttribute('link[rel=alternate][type="application/json"]', 'href'),
    `${base}/api/items/${ITEM}`,
    'the JSON stays at the API URL',
  );
  await shot(page, 'item');

  await page.click('.meta a[href^="/meetings/"]');
  await page.waitForURL(/\/meetings\/2016-11-01$/);
  t.match(await page.textContent('h1'), /Board of Supervisors meeting, 1 Nov 2016/);
  t.match(
    await page.textContent('main'),
    /The records hold the minutes of this meeting, with its recorded votes and its public comment\./,
  );
  t.match(
    await page.textContent('ol.items'),
    /Vote 2: Not adopted 7–3 · “NOT ADOPTED” · Ayes 7: Avalos, Breed, Campos, Kim, Mar, Peskin, Yee · Noes 3: Cohen, Tang, Wiener/,
    'each vote on one line',
  );
  const official = await page.$$eval('a.official', (as) => as.map((a) => (a as HTMLAnchorElement).href));
  t.ok(
    official.some((h) => /bag110116_minutes\.pdf$/.test(h)),
    'the meeting links its official minutes',
  );
  t.ok(await page.$(`ol.items a[href="/items/${ITEM}"]`), 'and its items, which link back');
  await shot(page, 'meeting');
  // The official link is asserted, never fetched: the tests do not reach the internet.
  await page.close();
});

t.test('a file with amounts and addresses shows them; a page record marks the query', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${base}/?q=${encodeURIComponent('T-Mobile West 1 South Van Ness')}&type=legislation`);
  await page.click('#results li.result h2 a');
  await page.waitForURL(/\/items\//);
  const facts = await page.textContent('dl.facts');
  t.match(facts, /Amounts\$60,000/);
  t.match(facts, /Addresses1 South Van Ness Avenue/);
  await page.goto(`${base}/?q=roof&type=pages`);
  await page.click('#results li.result h2 a');
  await page.waitForURL(/\/pages\/.*\?q=roof/);
  const marks = await page.$$eval('pre.page-text mark', (m) => m.map((x) => x.textContent?.toLowerCase()));
  t.ok(marks.length > 0 && marks.every((m) => /roof/.test(m ?? '')), `the query is marked (${marks.length})`);
  t.match(await page.textContent('.found'), /words? of “roof” marked on this page/);
  await shot(page, 'page-record');
  await page.goto(`${base}/comments/2016-11-01-minutes-c012`);
  t.match(await page.textContent('h1'), /Public comment: Cassie/);
  t.match(await page.textContent('main'), /Falun Gong/);
  t.match(await page.getAttribute('a.official', 'href'), OFFICIAL);
  await shot(page, 'comment');
  await page.close();
});

t.test('a supervisor page: term, recorded positions with coverage, and a feed', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${base}/supervisors`);
  await page.click('a:text("Aaron Peskin")');
  await page.waitForURL(/\/supervisors\/aaron-peskin$/);
  t.match(await page.textContent('.meta'), /District 3 · Served Dec 2015 to Jan 2025/);
  const main = await page.textContent('main');
  t.match(main, /Recorded votes exist for 1 meeting in 2016–2020: 1 Nov 2016/, 'the coverage of the positions');
  t.match(main, /not a stance on the matter/);
  const totals = await page.$$eval('table.totals td', (td) => td.map((x) => Number(x.textContent)));
  const rows = await page.$$('table.positions tbody tr');
  t.equal(totals.at(-1), rows.length, `every recorded position listed (${rows.length})`);
  t.ok(rows.length > 10);
  t.match(
    await page.getAttribute('link[rel=alternate][type="application/atom+xml"]', 'href'),
    /^\/feeds\/supervisors\/aaron-peskin$/,
  );
  await shot(page, 'supervisor');
  const feed = parseFeed((await get(`${base}/feeds/supervisors/aaron-peskin`)).text);
  t.equal(feed.items.length, Math.min(50, rows.length), 'the feed lists the positions');
  t.match(feed.items[0].title, /^Aaron Peskin: (aye|no|absent|excused) on file \d+/);
  await page.close();
});

t.test('page through results; the page number is in the URL', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${base}/?q=housing`);
  const first = await page.$$eval('#results li.result h2 a', (as) => as.map((a) => a.getAttribute('href')));
  t.equal(first.length, 20);
  t.match(await page.textContent('#results .summary'), /^Results 1–20 of \d+ for “housing”$/);
  await page.click('.pager a[rel=next]');
  await page.waitForURL(/[?&]page=2/);
  t.match(await page.textContent('#results .summary'), /^Results 21–40 of \d+ for/);
  const second = await page.$$eval('#results li.result h2 a', (as) => as.map((a) => a.getAttribute('href')));
  t.equal(second.length, 20);
  t.same(
    second.filter((h) => first.includes(h)),
    [],
    'page 2 repeats nothing of page 1',
  );
  t.equal(await page.getAttribute('ol.results', 'start'), '21');
  await shot(page, 'page-2');
  await page.click('.pager a[rel=prev]');
  await page.waitForURL((u) => !u.search.includes('page='));
  t.same(
    await page.$$eval('#results li.result h2 a', (as) => as.map((a) => a.getAttribute('href'))),
    first,
    'back to the same first page',
  );
  const past = await page.goto(`${base}/?q=Cuomo&page=3`);
  t.equal(past?.status(), 400, 'a page past the results is refused');
  t.match(await page.textContent('#results [role=alert]'), /There is no page 3 of these results: they fill page 1\./);
  await page.click('#results .back a');
  await page.waitForURL(/\?q=Cuomo$/);
  t.ok(await page.$('#results li.result'), 'its link leads to the last page of results');
  await page.close();
});

t.test('on a phone the first result is on the first screen', async (t) => {
  for (const query of ['q=housing', 'q=Cuomo&supervisor=Wiener&position=no&from=2016&to=2016']) {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`${base}/?${query}`);
    t.notOk(await page.isVisible('#supervisor'), `${query}: the filters are folded behind one control`);
    const box = await page.locator('#results li.result h2').first().boundingBox();
    t.ok(
      box && box.y >= 0 && box.y + box.height <= PHONE.height,
      `${query}: the first result's title ends at ${box && Math.round(box.y + box.height)}px of ${PHONE.height}`,
    );
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    t.ok(scroll <= PHONE.width, `${query}: no sideways scrolling (${scroll}px)`);
    await shot(page, query.includes('Wiener') ? 'phone-filtered' : 'phone', false);
    await page.click('details.filters > summary');
    t.ok(await page.isVisible('#supervisor'), 'one tap unfolds them');
    await page.close();
  }
  const page = await browser.newPage({ viewport: PHONE });
  await page.goto(`${base}/items/${ITEM}`);
  t.ok(
    (await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width,
    'the item page fits a phone too',
  );
  await shot(page, 'item-phone');
  await page.close();
});

t.test('follow a search: the subscribe link is valid Atom with entries', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${base}/?q=housing&from=2016&to=2017`);
  const linked = await page.getAttribute('link[rel=alternate][type="application/atom+xml"]', 'href');
  t.equal(linked, '/feeds/search?q=housing&from=2016&to=2017', 'the page names its feed');
  t.equal(await page.getAttribute('.follow a', 'href'), linked, 'and offers it');
  const res = await get(`${base}${linked}`);
  t.match(res.headers.get('content-type'), /^application\/atom\+xml/);
  const feed = parseFeed(res.text);
  t.match(feed.title, /“housing” \(years 2016–2017\)/);
  t.equal(feed.items.length, 50, 'the best 50 matches');
  t.ok(
    feed.items.every((i) => i.id && i.title && i.url?.startsWith(`${base}/`) && i.updated instanceof Date),
    'each entry: id, title, page link, date',
  );
  t.equal(feed.items[0].url, `${base}/items/2016-12-06-agenda-161230`, 'entries link to record pages');
  // The browser's own XML parser, strictly: well-formed, in the Atom namespace, with what RFC 4287 requires.
  // (No named functions inside: the test's loader would wrap them in a helper the page does not have.)
  const checked = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const atom = 'http://www.w3.org/2005/Atom';
    const entries = Array.from(doc.getElementsByTagNameNS(atom, 'entry'));
    return {
      errors: doc.getElementsByTagName('parsererror').length,
      root: doc.documentElement.namespaceURI + ' ' + doc.documentElement.localName,
      feed: ['id', 'title', 'updated', 'author'].every(
        (n) => doc.documentElement.getElementsByTagNameNS(atom, n).length > 0,
      ),
      entries: entries.length,
      complete: entries.every((e) =>
        ['id', 'title', 'updated', 'link'].every((n) => e.getElementsByTagNameNS(atom, n).length > 0),
      ),
      dates: Array.from(doc.getElementsByTagNameNS(atom, 'updated')).every((u) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(u.textContent ?? ''),
      ),
    };
  }, res.text);
  t.same(checked, {
    errors: 0,
    root: `http://www.w3.org/2005/Atom feed`,
    feed: true,
    entries: 50,
    complete: true,
    dates: true,
  });
  const refused = await get(`${base}/feeds/search?q=housing&from=1999`, { headers: { Accept: 'text/html' } });
  t.equal(refused.status, 400);
  t.match(refused.headers.get('content-type'), /^application\/problem\+json/, 'a feed refuses as the API does');
  t.same(
    refused.json.errors.map((e: Json) => e.parameter),
    ['from'],
  );
  await page.close();
});

t.test('axe-core: no serious or critical violation on any kind of page; keyboard use', async (t) => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const kinds = [
    ['home', '/'],
    ['results', '/?q=housing'],
    ['votes', '/?q=Cuomo&supervisor=Wiener'],
    ['empty', '/?q=zzqxv'],
    ['error', '/?q=housing&supervisor=Mar'],
    ['item', `/items/${ITEM}`],
    ['page', '/pages/2016-11-01-minutes-p4?q=roof'],
    ['comment', '/comments/2016-11-01-minutes-c012'],
    ['meeting', '/meetings/2016-11-01'],
    ['supervisor', '/supervisors/aaron-peskin'],
    ['supervisors', '/supervisors'],
    ['404', '/nope'],
    ['problem', '/problems/not-found'],
  ];
  for (const [kind, path] of kinds) {
    await page.goto(`${base}${path}`);
    t.same(await axeViolations(page), [], `${kind} (${path})`);
  }
  for (const size of [PHONE]) {
    await page.setViewportSize(size);
    await page.goto(`${base}/?q=housing`);
    t.same(await axeViolations(page), [], 'results on a phone');
  }
  await context.close();

  // Keyboard only: the skip link comes first and is seen, focus is visible, the search runs from the keyboard.
  const kb = await browser.newPage();
  await kb.goto(`${base}/`);
  await kb.keyboard.press('Tab');
  const skip = await kb.evaluate(() => {
    const a = document.activeElement as HTMLElement;
    const r = a.getBoundingClientRect();
    return { text: a.textContent, visible: r.left >= 0 && r.width > 0 };
  });
  t.same(skip, { text: 'Skip to main content', visible: true }, 'the skip link, shown when focused');
  await shot(kb, 'keyboard-skip', false);
  await kb.keyboard.press('Enter');
  t.equal(await kb.evaluate(() => document.activeElement?.id), 'main', 'it moves focus to the main content');
  let steps = 0;
  while ((await kb.evaluate(() => document.activeElement?.id)) !== 'q' && steps++ < 10) await kb.keyboard.press('Tab');
  t.equal(await kb.evaluate(() => document.activeElement?.id), 'q', 'the search box is reached by Tab');
  const outline = await kb.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  t.not(outline, 'none', 'focus is visible');
  await kb.keyboard.type('Cuomo');
  await kb.keyboard.press('Enter');
  await kb.waitForSelector('#results li.result');
  // On to the first result's title, and open it with Enter.
  steps = 0;
  while (
    !(await kb.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('li.result h2') !== null)) &&
    steps++ < 40
  )
    await kb.keyboard.press('Tab');
  await shot(kb, 'keyboard-result', false);
  await kb.keyboard.press('Enter');
  await kb.waitForURL(/\/items\//);
  t.match(await kb.textContent('h1'), /File 161169/, 'a result opens from the keyboard');
  await kb.close();
});

t.test('records as data; hostile and unknown paths are 404 pages; bad parameters are plain 400 pages', async (t) => {
  const html = { headers: { Accept: 'text/html' } };
  for (const path of [
    `/items/${ITEM}`,
    '/meetings/2016-11-01',
    '/supervisors/aaron-peskin',
    '/pages/2016-11-01-minutes-p4?q=%3Cscript%3E',
  ]) {
    const r = await get(`${base}${path}`, html);
    t.match(
      r.headers.get('content-security-policy'),
      /default-src 'self'; script-src 'self'/,
      `${path}: the site's CSP`,
    );
    t.match(r.headers.get('etag'), /^(W\/)?"/, `${path}: an ETag`);
    t.notMatch(r.text, /<script>/, `${path}: client text is escaped`);
  }
  const json = await fetch(`${base}/items/${ITEM}`, { headers: { Accept: 'application/json' }, redirect: 'manual' });
  t.equal(json.status, 303, 'a client that prefers JSON is sent to the API');
  t.equal(json.headers.get('location'), `${base}/api/items/${ITEM}`);
  const suffixed = await fetch(`${base}/items/${ITEM}.json`, { redirect: 'manual' });
  t.equal(suffixed.status, 308);
  t.equal(suffixed.headers.get('location'), `${base}/api/items/${ITEM}`);
  t.equal((await get(`${base}/items/${ITEM}.json`)).json.fileNumber, '161169', 'followed, the JSON record');
  const positions = await get(`${base}/supervisors/aaron-peskin.json`);
  t.equal(positions.json.voter.fullName, 'Aaron Peskin', "a supervisor's data: the positions the page lists");
  t.equal(positions.json.filters.groupBy, 'roll-call');
  t.equal(positions.json.filters.from, 2015);
  t.equal(
    (await get(`${base}/pages/..%2F..%2Fmanifest.json`)).status,
    404,
    'a hostile id is sent on, and names nothing there',
  );
  for (const path of [
    '/nope',
    '/items/nope',
    '/items/%00',
    '/pages/..%2F..%2Fmanifest',
    '/comments/x',
    '/meetings/2016-02-30',
    '/meetings/2016-11-02',
    '/meetings/%3Cscript%3E',
    '/supervisors/__proto__',
    '/supervisors/constructor',
    '/feeds/supervisors/nobody',
  ]) {
    const r = await get(`${base}${path}`, html);
    t.equal(r.status, 404, path);
    t.match(r.headers.get('content-type'), /^text\/html/, `${path}: a page`);
    t.match(r.text, /<h1>Page not found<\/h1>/);
    t.notMatch(r.text, /<script>/);
  }
  for (const query of [
    'q=housing&page=-1',
    'q=housing&page=1e3',
    'q=housing&page=7',
    'q=housing&page=101',
    'q=housing&type=secret',
    'q=' + 'x'.repeat(301),
    'q=housing&to=20161',
  ]) {
    const r = await get(`${base}/?${query}`, html);
    t.equal(r.status, 400, query.slice(0, 40));
    t.notMatch(r.text, /must be|\(got|minLength|maximum/, `${query.slice(0, 40)}: plain words`);
  }
  const page = await browser.newPage();
  await page.goto(`${base}/nope`);
  t.match(await page.textContent('h1'), /Page not found/);
  await shot(page, '404');
  await page.close();
});
