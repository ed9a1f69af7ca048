// The search page in headless Chromium: typing, filters (folded on a phone), result types, shared URLs, rendering
// without JavaScript, empty states that state the coverage, and errors in plain words. Screenshots go to
// test-artifacts/ (test/browser.ts).
import type { Browser, Page } from 'playwright-core';
import t from 'tap';

import { launch, PHONE, shot } from './browser.ts';
import { startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
const browser: Browser = await launch();
t.teardown(async () => {
  await browser.close();
  await running.close();
});

const types = (page: Page) =>
  page.$$eval('#results li.result', (els) => els.map((e) => (e as HTMLElement).dataset.type));

/** Opens the folded filters (one control) when they are closed. */
async function openFilters(page: Page) {
  if (!(await page.$eval('details.filters', (d) => (d as HTMLDetailsElement).open)))
    await page.click('details.filters > summary');
}

t.test('type a query: legislative files first, with type labels, ahead of page matches', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${running.url}/`);
  await shot(page, 'home');
  t.equal(await page.getAttribute('#q', 'type'), 'search');
  t.ok(await page.$('label[for=q]'), 'the search box is labelled');
  await page.fill('#q', 'Better Roof Requirements');
  await page.press('#q', 'Enter');
  await page.waitForURL(/\?q=Better\+Roof\+Requirements/);
  await page.waitForSelector('#results li.result');
  const order = await types(page);
  t.equal(order[0], 'legislation', 'a file first');
  t.ok(order.includes('page'), 'page matches too');
  const pageLinks = await page.$$eval('#results li[data-type=page] h2 a', (as) =>
    as.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
  );
  t.ok(pageLinks.length > 0 && pageLinks.every((h) => h.startsWith('/pages/')), 'page results open page records');
  t.notOk(
    pageLinks.some((h) => /2016-11-01-(minutes-p4|agenda-p5)$/.test(h)),
    'the pages that only repeat file 160965 are not listed again',
  );
  const first = await page.textContent('#results li.result');
  t.match(first, /Legislation/);
  t.match(first, /File 160965/);
  t.match(first, /FINALLY PASSED/);
  t.match(first, /Official PDF, page \d+/);
  t.equal(
    await page.getAttribute('#results li.result h2 a', 'href'),
    '/items/2016-11-01-minutes-160965',
    'the title opens the item page',
  );
  t.equal(
    await page.getAttribute('link[rel=alternate][type="application/atom+xml"]', 'href'),
    '/feeds/search?q=Better+Roof+Requirements',
    'the head names the feed of the search shown',
  );
  const summary = await page.textContent('#results .summary');
  t.match(summary, /^Results 1–\d+ of (the best 100 of )?\d+ for “Better Roof Requirements”$/, 'a plain summary');
  t.notMatch(await page.textContent('body'), new RegExp(running.lake.releaseId), 'no release hash for citizens');
  await shot(page, 'results');
  await page.close();
});

t.test('a supervisor and position filter show the recorded position and the roll call', async (t) => {
  const page = await browser.newPage({ viewport: PHONE });
  await page.goto(`${running.url}/`);
  t.notOk(await page.isVisible('#supervisor'), 'on a phone the filters are folded');
  await page.fill('#q', 'Cuomo');
  await openFilters(page);
  await page.fill('#supervisor', 'Wiener');
  await page.selectOption('#position', 'no');
  await page.click('form.search .row button[type=submit]');
  await page.waitForURL(/supervisor=Wiener/);
  await page.waitForSelector('#results li.result');
  t.match(page.url(), /q=Cuomo/);
  t.match(page.url(), /position=no/);
  const text = await page.textContent('#results');
  t.match(text, /Scott Wiener recorded no/);
  t.match(text, /Noes 3: Cohen, Tang, Wiener/);
  t.match(text, /NOT ADOPTED/);
  t.match(text, /Supervisor Scott Wiener, recorded no/, 'the filters in words, the supervisor once, by full name');
  t.notMatch(text, /supervisor: /i, 'no repeated supervisor line');
  t.notOk((await types(page)).includes('page'), 'vote filters leave page matches out');
  await shot(page, 'filtered-phone');

  // The result's title opens the item's own page, not JSON.
  await page.click('#results li.result h2 a');
  await page.waitForURL(/\/items\/2016-11-01-minutes-161169/);
  t.match(await page.textContent('h1'), /File 161169/);

  // The shared URL, as someone else would open it.
  const other = await browser.newPage();
  await other.goto(`${running.url}/?q=Cuomo&supervisor=Wiener&position=no`);
  t.equal(await other.inputValue('#q'), 'Cuomo');
  t.equal(await other.inputValue('#supervisor'), 'Wiener');
  t.equal(await other.inputValue('#position'), 'no');
  t.match(await other.textContent('#results'), /Scott Wiener recorded no/);
  t.match(
    await other.textContent('details.filters > summary'),
    /Filters: Supervisor Wiener, recorded no/,
    'the folded control says which filters are set',
  );
  await other.close();
  await page.close();
});

t.test('without JavaScript the page renders results on the server', async (t) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${running.url}/`);
  await page.fill('#q', 'Falun Gong');
  await openFilters(page);
  await page.selectOption('#type', 'comments');
  await page.click('form.search .row button[type=submit]');
  await page.waitForURL(/q=Falun\+Gong/);
  const order = await types(page);
  t.ok(order.length >= 5);
  t.ok(
    order.every((x) => x === 'comment'),
    'only public comment',
  );
  t.match(await page.textContent('#results'), /Public comment: Lorie Ten/);
  await shot(page, 'no-javascript');
  await context.close();
});

t.test('an empty result states the coverage; errors are plain words', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${running.url}/?q=zzqxv+wwkq&from=2017&to=2017`);
  const empty = await page.textContent('#results');
  t.match(empty, /No results for “zzqxv wwkq”/);
  t.match(empty, /Filters in force: year 2017/);
  t.match(empty, /widen the years/);
  t.match(
    empty,
    /Agendas or minutes exist for 28 meetings in 2017 .*Recorded votes exist for 0 meetings in 2017\./,
    'the empty state states the coverage of its years',
  );
  await shot(page, 'empty');
  await page.goto(`${running.url}/?q=housing&supervisor=Peskin&position=no`);
  t.match(
    await page.textContent('#results'),
    /No results[\s\S]*Recorded votes exist for 1 meeting in 2016–2020: 1 Nov 2016\./,
    'a zero count says which meetings it covers',
  );
  await page.goto(`${running.url}/?q=housing`);
  t.match(
    await page.textContent('#results .coverage'),
    /Agendas or minutes exist for 37 meetings in 2016–2020 \(1 Nov 2016 to 15 Sep 2020\)/,
    'beside every count',
  );
  await page.goto(`${running.url}/`);
  t.match(await page.textContent('#results'), /Agendas or minutes exist for 37 meetings/, 'and on the first screen');

  const res = await page.goto(`${running.url}/?q=housing&supervisor=Mar`);
  t.equal(res?.status(), 400);
  const error = await page.textContent('#results [role=alert]');
  t.match(error, /“Mar” could be 2 supervisors/);
  t.match(error, /Eric Mar \(Jan 2009 to Jan 2017\)/);
  t.notMatch(error, /voter|supervisor '|from must|q must/, 'no parameter names');
  await shot(page, 'error');
  await page.click('#results [role=alert] a:text("Gordon Mar")');
  await page.waitForURL(/supervisor=Gordon\+Mar/);
  for (const [query, words] of [
    ['q=x', /Type at least two letters or digits to search\./],
    ['q=housing&from=2011', /Records can be searched from 2012 to 2026\./],
    ['q=housing&position=no', /Choose a supervisor to see how they voted/],
    ['q=housing&page=0', /There is no such page of results/],
    ['q=housing&from=2018&to=2016', /The first year comes after the last year: swap them\./],
  ] as const) {
    const r = await page.goto(`${running.url}/?${query}`);
    t.equal(r?.status(), 400, query);
    const said = await page.textContent('#results [role=alert]');
    t.match(said, words, `${query}: ${said}`);
    t.notMatch(said, /\b(q|from|to|position|page) must\b|≥|\(got/, `${query}: no parameter names or rules`);
  }
  const headers = res!.headers();
  t.match(headers['content-security-policy'], /default-src 'self'/);
  t.equal(headers['x-content-type-options'], 'nosniff');
  await page.close();
});
