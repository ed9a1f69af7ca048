// The unified search reference page in headless Chromium: typing, filters, result types, links, shared URLs,
// rendering without JavaScript, empty and error states. Screenshots go to test-artifacts/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import t from 'tap';
import { ROOT, startFixtureServer } from './fixture.ts';

const running = await startFixtureServer();
const artifacts = join(ROOT, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const browser: Browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
t.teardown(async () => {
  await browser.close();
  await running.close();
});

const types = (page: Page) => page.$$eval('#results li.result', (els) => els.map((e) => (e as HTMLElement).dataset.type));
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `web-${name}.png`), fullPage: true });

t.test('type a query: legislative files first, with type labels, ahead of page matches', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${running.url}/`);
  t.equal(await page.getAttribute('#q', 'type'), 'search');
  t.ok(await page.$('label[for=q]'), 'the search box is labelled');
  await page.fill('#q', 'Better Roof Requirements');
  await page.press('#q', 'Enter');
  await page.waitForURL(/\?q=Better\+Roof\+Requirements/);
  await page.waitForSelector('#results li.result');
  const order = await types(page);
  t.equal(order[0], 'legislation', 'a file first');
  t.ok(order.includes('page'), 'page matches too');
  const pageLinks = await page.$$eval('#results li[data-type=page] h2 a', (as) => as.map((a) => (a as HTMLAnchorElement).href));
  t.notOk(pageLinks.some((h) => /2016-11-01-(minutes-p4|agenda-p5)$/.test(h)), 'the pages that only repeat file 160965 are not listed again');
  const first = await page.textContent('#results li.result');
  t.match(first, /Legislation/);
  t.match(first, /File 160965/);
  t.match(first, /FINALLY PASSED/);
  t.match(first, /Official PDF, page \d+/);
  await shot(page, 'results');
  await page.close();
});

t.test('a supervisor and position filter show the recorded position and the roll call', async (t) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${running.url}/`);
  await page.fill('#q', 'Cuomo');
  await page.fill('#supervisor', 'Wiener');
  await page.selectOption('#position', 'no');
  await page.click('button[type=submit]');
  await page.waitForURL(/supervisor=Wiener/);
  await page.waitForSelector('#results li.result');
  t.match(page.url(), /q=Cuomo/);
  t.match(page.url(), /position=no/);
  const text = await page.textContent('#results');
  t.match(text, /Scott Wiener recorded no/);
  t.match(text, /Noes 3: Cohen, Tang, Wiener/);
  t.match(text, /NOT ADOPTED/);
  t.notOk((await types(page)).includes('page'), 'vote filters leave page matches out');
  await shot(page, 'filtered-phone');

  // Follow the record link of the first result.
  const href = await page.getAttribute('#results li.result .links a:nth-of-type(3)', 'href');
  t.match(href, /\/api\/items\/2016-11-01-minutes-161169\.md$/);
  await page.click('#results li.result .links a:nth-of-type(3)');
  await page.waitForURL(/161169\.md$/);
  t.match(await page.textContent('body'), /# File 161169/);

  // Back, then reload the shared URL as someone else would open it.
  const shared = `${running.url}/?q=Cuomo&supervisor=Wiener&position=no`;
  const other = await browser.newPage();
  await other.goto(shared);
  t.equal(await other.inputValue('#q'), 'Cuomo');
  t.equal(await other.inputValue('#supervisor'), 'Wiener');
  t.equal(await other.inputValue('#position'), 'no');
  t.match(await other.textContent('#results'), /Scott Wiener recorded no/);
  await other.close();
  await page.close();
});

t.test('without JavaScript the page renders results on the server', async (t) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${running.url}/`);
  await page.fill('#q', 'Falun Gong');
  await page.selectOption('#type', 'comments');
  await page.click('button[type=submit]');
  await page.waitForURL(/q=Falun\+Gong/);
  const order = await types(page);
  t.ok(order.length >= 5);
  t.ok(order.every((x) => x === 'comment'), 'only public comment');
  t.match(await page.textContent('#results'), /Public comment: Lorie Ten/);
  await shot(page, 'no-javascript');
  await context.close();
});

t.test('an empty result explains itself; an error shows the API message', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${running.url}/?q=zzqxv+wwkq&from=2017&to=2017`);
  const empty = await page.textContent('#results');
  t.match(empty, /No results for “zzqxv wwkq”/);
  t.match(empty, /Filters in force: from 2017, to 2017/);
  t.match(empty, /widen the years/);
  t.match(empty, /What the lake holds: The lake holds documents of 28 meetings in 2017 .* recorded votes for 0;/, 'the empty state states the coverage of its years');
  await page.goto(`${running.url}/?q=housing&supervisor=Peskin&position=no`);
  t.match(await page.textContent('#results'), /No results[\s\S]*recorded votes for 1 \(2016-11-01\)/, 'a zero count says which meetings it covers');
  await page.goto(`${running.url}/?q=housing`);
  t.match(await page.textContent('#results .coverage'), /documents of 37 meetings in 2012–2026/, 'beside every count');
  await page.goto(`${running.url}/`);
  t.match(await page.textContent('#results'), /What the lake holds: The lake holds documents of 37 meetings in 2012–2026/, 'and on the first screen');
  const res = await page.goto(`${running.url}/?q=housing&supervisor=Mar`);
  t.equal(res?.status(), 400);
  const error = await page.textContent('#results [role=alert]');
  t.match(error, /supervisor 'Mar' matches 2 supervisors/);
  t.notMatch(error, /voter/, 'the message names the parameter the page sent');
  t.match(error, /Eric Mar/);
  await shot(page, 'error');
  const headers = res!.headers();
  t.match(headers['content-security-policy'], /default-src 'self'/);
  t.equal(headers['x-content-type-options'], 'nosniff');
  await page.close();
});
