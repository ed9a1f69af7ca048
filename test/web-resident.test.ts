// What a resident sees first, in headless Chromium at a phone's and a desktop's width: the header's links and search
// box on every page, an item's outcome before its title, the list of meetings with what each holds, counts that
// match what is listed, and labels in words. First-screen screenshots of each page kind go to test-artifacts/.
import type { Browser, Page } from 'playwright-core';
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

const DESKTOP = { width: 1280, height: 800 };
const ITEM = '2016-11-01-minutes-160965';

const KINDS: [string, string][] = [
  ['home', '/'],
  ['results', '/?q=housing'],
  ['item', `/items/${ITEM}`],
  ['item-rescinded', '/items/2016-11-01-minutes-161169'],
  ['meetings', '/meetings'],
  ['meeting', '/meetings/2016-11-01'],
  ['page', '/pages/2016-11-01-minutes-p4?q=roof'],
  ['comment', '/comments/2016-11-01-minutes-c012'],
  ['supervisors', '/supervisors'],
  ['supervisor', '/supervisors/aaron-peskin'],
];

/** The element's box, when it has a size and lies wholly in the first screen. */
async function onFirstScreen(page: Page, selector: string, size: { width: number; height: number }) {
  const box = await page.locator(selector).first().boundingBox();
  const ok =
    !!box &&
    box.width > 0 &&
    box.height > 0 &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= size.width &&
    box.y + box.height <= size.height;
  return {
    ok,
    box: box && `${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}`,
  };
}

for (const [label, size] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  t.test(`${label} (${size.width} px): header links, a search box and the outcome on the first screen`, async (t) => {
    const page = await browser.newPage({ viewport: size });
    for (const [kind, path] of KINDS) {
      await page.goto(`${base}${path}`);
      const links = await page.$$eval('header a', (as) => as.map((a) => a.textContent));
      t.same(links, ['Board Records', 'Meetings', 'Supervisors', 'API'], `${kind}: the header's links`);
      for (const name of ['Meetings', 'Supervisors', 'API']) {
        const seen = await onFirstScreen(page, `header nav a:text-is("${name}")`, size);
        t.ok(seen.ok, `${kind}: ${name} is on the first screen with a size (${seen.box})`);
      }
      const box = await onFirstScreen(page, 'form[role=search] input[type=search][name=q]', size);
      t.ok(box.ok, `${kind}: a search box on the first screen (${box.box})`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      t.ok(width <= size.width, `${kind}: no sideways scrolling (${width} px)`);
      if (kind.startsWith('item')) {
        const outcome = await onFirstScreen(page, 'section.outcome', size);
        t.ok(outcome.ok, `${kind}: the outcome is on the first screen (${outcome.box})`);
      }
      await shot(page, `${kind}-${size.width}`, false);
    }
    // The header's search box runs a search from any record page.
    await page.goto(`${base}/meetings/2016-11-01`);
    await page.fill('header input[type=search]', 'Cuomo');
    await page.press('header input[type=search]', 'Enter');
    await page.waitForURL(/\/\?q=Cuomo$/);
    await page.waitForSelector('#results li.result');
    t.equal(await page.inputValue('#q'), 'Cuomo', 'the search page shows the query');
    await page.close();
  });
}

t.test('an item page: the outcome in words first, the long title folded', async (t) => {
  const page = await browser.newPage({ viewport: PHONE });
  await page.goto(`${base}/items/${ITEM}`);
  t.equal(await page.textContent('.outcome .verdict'), 'Passed 11–0', 'result and vote count');
  t.match(await page.textContent('.outcome'), /On final passage, the final action: “FINALLY PASSED”/);
  t.match(await page.textContent('h1'), /^File 160965: Planning, Green Building Codes/);
  t.notOk(await page.isVisible('details.title .long'), 'the description is folded');
  await page.click('details.title > summary');
  t.match(await page.textContent('details.title .long'), /^Ordinance amending the Planning Code/, 'one tap opens it');
  const y = async (sel: string) => (await page.locator(sel).boundingBox())!.y;
  const [h1, outcome0, title] = [await y('h1'), await y('section.outcome'), await y('details.title')];
  t.ok(h1 < outcome0 && outcome0 < title, `heading, outcome, then the full title (${h1}, ${outcome0}, ${title})`);
  t.match(
    await page.textContent('#vote-1 .tag'),
    /^Passed 11–0 · on final passage · final action/,
    'the vote in words',
  );

  await page.goto(`${base}/items/2016-11-01-minutes-161169`);
  const outcome = await page.textContent('.outcome');
  t.match(
    outcome,
    /REFERRED to the Government Audit and Oversight Committee/,
    'a rescinded vote leaves the last action',
  );
  t.match(outcome, /Vote 2 \(Not adopted 7–3\) was undone by vote 3/);
  t.match(await page.textContent('h1'), /…$/, 'a long title is cut at a word in the heading');
  await page.close();
});

t.test('the list of meetings: every meeting by year, newest first, with what it holds', async (t) => {
  const api = (await get(`${base}/api/meetings?limit=100`)).json;
  const page = await browser.newPage();
  await page.goto(`${base}/meetings`);
  const rows = await page.$$eval('ul.meetings li', (li) =>
    li.map((l) => ({
      href: l.querySelector('a')!.getAttribute('href'),
      holds: l.querySelector('.holds')!.textContent,
    })),
  );
  t.equal(rows.length, api.total, `all ${api.total} meetings`);
  const dates = rows.map((r) => r.href!.replace('/meetings/', ''));
  t.same(dates, [...dates].sort().reverse(), 'newest first');
  t.same([...dates].sort(), api.meetings.map((m: Json) => m.date).sort(), 'the meetings the API lists');
  t.equal(
    rows.find((r) => r.href === '/meetings/2016-11-01')?.holds,
    'agenda and minutes · 91 items · 44 roll calls · 16 public comments',
  );
  t.equal(rows.find((r) => r.href === '/meetings/2017-01-10')?.holds, 'agenda · 41 items · no recorded vote');
  const years = await page.$$eval('table.years tbody tr', (tr) => tr.map((r) => r.textContent));
  t.match(years.at(-1), /^20162?5 meetings: agendas for 5, minutes for 1, recorded votes in 1, public comment in 1\.$/);
  await page.click('a[href="/meetings/2016-11-01"]');
  await page.waitForURL(/\/meetings\/2016-11-01$/);
  t.match(await page.textContent('h1'), /1 Nov 2016/);

  // "Coverage by year" is this page, in words, from wherever the coverage is stated.
  await page.goto(`${base}/`);
  t.equal(await page.getAttribute('.coverage a', 'href'), '/meetings#coverage');
  await page.close();
});

t.test('a meeting page lists as many items as it says, and links to the rest', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${base}/meetings/2016-11-01`);
  const listed = await page.$$eval('ol.items > li', (li) => li.length);
  const shown = await page.textContent('p.shown');
  t.equal(
    shown,
    `${listed} of the 91 items shown: those of the minutes, which record what was done. Show the agenda’s ${91 - listed} instead.`,
  );
  t.equal(listed, 45);
  t.match(await page.textContent('ol.items'), /Vote 1: Passed 11–0 · “FINALLY PASSED” · Ayes 11/, 'votes in words');
  await page.click('p.shown a');
  await page.waitForURL(/\?items=agenda$/);
  t.equal(await page.$$eval('ol.items > li', (li) => li.length), 46, 'the agenda’s items');
  t.match(await page.textContent('p.shown'), /^46 of the 91 items shown: those of the agenda/);
  t.notMatch(await page.textContent('ol.items'), /Vote \d/, 'an agenda records no vote');
  await page.goto(`${base}/meetings/2017-01-10`);
  t.equal(await page.textContent('p.shown'), 'All 41 items, from the agenda, which lists what was to be taken up.');
  t.equal(await page.$$eval('ol.items > li', (li) => li.length), 41);
  await page.close();
});

t.test('search paging: every result reachable, the count equal to what the pages list', async (t) => {
  const first = (await get(`${base}/?q=housing`)).text;
  const stated = /<p class="summary">Results 1–20 of (\d+) for “housing”<\/p>/.exec(first);
  t.ok(stated, 'the first page states one count');
  const count = Number(stated?.[1]);
  t.ok(count > 100, `more than 100 results (${count})`);
  const ids: string[] = [];
  let html = first;
  let pages = 1;
  let lastPage = '';
  for (;;) {
    const listed = [...html.matchAll(/<li class="result [^"]+"[^]*?<h2><a href="([^"]+)"/g)].map((m) => m[1]);
    const start = Number(/<ol class="results" start="(\d+)">/.exec(html)?.[1]);
    t.equal(start, ids.length + 1, `page ${pages} numbers on from the page before`);
    ids.push(...listed);
    const next = /<a rel="next" href="([^"]+)">/.exec(html)?.[1];
    if (!next) break;
    const r = await get(`${base}${next.replace(/&amp;/g, '&')}`);
    t.equal(r.status, 200, next);
    html = r.text;
    pages++;
    lastPage = next;
  }
  t.equal(ids.length, count, `the ${pages} pages list the ${count} results the first page states`);
  t.equal(new Set(ids).size, ids.length, 'no result listed twice');
  t.equal(pages, Math.ceil(count / 20));
  t.match(html, new RegExp(`<span>Page ${pages} of ${pages}</span>`), 'the last page says so');
  t.match(
    html,
    new RegExp(`<p class="summary">Results ${(pages - 1) * 20 + 1}–${count} of ${count} `),
    'and holds the last',
  );
  t.notMatch(html, /The best \d+ results are listed/, 'every match was ranked');
  // What the API counts beyond the list: PDF pages of files listed here, said in words, not listed again.
  const api = (await get(`${base}/api/search?q=housing&type=all&limit=1`)).json;
  const folded = Number(
    /<p class="folded">(\d+) more matching PDF pages print a file listed here/.exec(first)?.[1] ?? 0,
  );
  t.equal(count + folded, api.total, `${count} listed and ${folded} folded make the API's ${api.total}`);

  const past = await get(`${base}${lastPage.replace(/&amp;/g, '&').replace(/page=\d+/, `page=${pages + 1}`)}`);
  t.equal(past.status, 400, 'a page past the last is refused');
  t.match(past.text, new RegExp(`There is no page ${pages + 1} of these results: they fill pages 1 to ${pages}\\.`));
  t.notMatch(past.text, /rel="next"/, 'and links nowhere further');
  t.match(past.text, new RegExp(`<a href="[^"]*page=${pages}">Go to page ${pages}, the last</a>`), 'but to the last');
});

t.test('labels in words, not the lake’s values', async (t) => {
  for (const [kind, path] of KINDS) {
    const text = (await get(`${base}${path}`)).text.replace(/<[^>]+>/g, ' ');
    t.notMatch(text, /not-to-exceed|final-passage|first-reading|not-adopted|\badoption · adopted\b/, kind);
  }
});

t.test('axe-core: no serious or critical violation on the new and changed pages, at both widths', async (t) => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    for (const [kind, path] of KINDS) {
      await page.goto(`${base}${path}`);
      t.same(await axeViolations(page), [], `${kind} at ${size.width} px`);
    }
  }
  await context.close();
});

t.test('the list of meetings names its JSON: the same meetings from the API', async (t) => {
  const html = (await get(`${base}/meetings`)).text;
  const alternate = /<link rel="alternate" type="application\/json" href="([^"]+)">/.exec(html)?.[1];
  t.ok(alternate, 'a JSON alternate in the head');
  t.match(alternate, /\/api\/meetings\?limit=1000$/);
  const api = (await get(alternate!.replace(/&amp;/g, '&'))).json;
  const listed = [...html.matchAll(/<li><a href="\/meetings\/(\d{4}-\d{2}-\d{2})">/g)].map((m) => m[1]);
  t.equal(api.total, listed.length, `all ${listed.length} meetings in one answer`);
  t.same(api.meetings.map((m: Json) => m.date).sort(), [...listed].sort(), 'the dates the page lists');
  t.equal(api.nextAfter, null, 'nothing left for another page');
});
