// The Clerk's archive listing (pipelines/fetch/sources/archive.ts) on its fixtures and against a real loopback HTTP
// server serving pages rendered by test/mirror/archive.ts; the sfbos.org and media host URL patterns; the weekdays
// the last-resort guess tries.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import t, { type Test } from 'tap';

import { defaultConfig, type FetchConfig } from '../pipelines/fetch/config.ts';
import { HttpClient } from '../pipelines/fetch/http.ts';
import { Robots } from '../pipelines/fetch/robots.ts';
import type { Discovery } from '../pipelines/fetch/source.ts';
import { archiveUrl, discoverArchive, parseArchiveListing } from '../pipelines/fetch/sources/archive.ts';
import { weekdays } from '../pipelines/fetch/sources/guess.ts';
import { mediaUrls } from '../pipelines/fetch/sources/media.ts';
import { sfbosUrls } from '../pipelines/fetch/sources/sfbos.ts';
import { CORPUS, ROOT } from './fixture.ts';
import { archiveListingPages, type MirrorMeeting } from './mirror/archive.ts';

const FIXTURES = join(ROOT, 'pipelines', 'fetch', 'fixtures');
const LISTING = 'https://sfbos.archive.sf.gov/meetings/full-board-meetings';

const agenda = (meetingDate: string, href?: string) => {
  const [y, m, d] = meetingDate.split('-');
  return { kind: 'agenda' as const, href: href ?? `/sites/default/files/bag${m}${d}${y.slice(2)}_agenda.pdf` };
};

/** The meetings the two fixtures were rendered from (7 a page). */
const FIXTURE_MEETINGS: MirrorMeeting[] = [
  { meetingDate: '2020-09-15', documents: [agenda('2020-09-15', '/sites/default/files/bag091520_agenda')] },
  {
    meetingDate: '2020-03-31',
    documents: [agenda('2020-03-31', 'https://sfbos.archive.sf.gov/sites/default/files/bag033120_agenda.pdf')],
  },
  { meetingDate: '2020-03-26', label: 'Special Meeting', documents: [] },
  ...['2019-11-12', '2019-10-08', '2017-09-26', '2017-09-19', '2017-09-12', '2017-09-05']
    .concat(['2016-12-13', '2016-12-06', '2016-11-29', '2016-11-15'])
    .map((d) => ({ meetingDate: d, documents: [agenda(d)] })),
  {
    meetingDate: '2016-11-01',
    documents: [agenda('2016-11-01'), { kind: 'minutes', href: '/sites/default/files/m110116.pdf' }],
  },
];

const withoutTopComment = (html: string) => html.replace(/^<!--[\s\S]*?-->\n/, '');

t.test('the first listing page fixture: dates, labels, kinds, links with and without .pdf, the pager', async (t) => {
  const page = parseArchiveListing(await readFile(join(FIXTURES, 'archive-listing-page-0.html'), 'utf8'), LISTING);
  t.same(
    page.rows.map((r) => r.meetingDate),
    ['2020-09-15', '2020-03-31', '2020-03-26', '2019-11-12', '2019-10-08', '2017-09-26', '2017-09-19'],
  );
  const special = page.rows.find((r) => r.meetingDate === '2020-03-26')!;
  t.equal(special.label, 'Special Meeting', 'the Thursday special meeting keeps its label');
  t.same(special.documents, []);
  t.equal(page.rows[0].label, 'Regular Meeting');
  t.same(page.rows[0].documents, [
    { kind: 'agenda', url: 'https://sfbos.archive.sf.gov/sites/default/files/bag091520_agenda' },
  ]);
  t.same(page.rows[1].documents, [
    { kind: 'agenda', url: 'https://sfbos.archive.sf.gov/sites/default/files/bag033120_agenda.pdf' },
  ]);
  t.same(page.pager, { next: `${LISTING}?page=1` }, 'li.next links ?page=1');
});

t.test('the last listing page fixture: the m-named minutes, no li.next', async (t) => {
  const page = parseArchiveListing(
    await readFile(join(FIXTURES, 'archive-listing-last.html'), 'utf8'),
    `${LISTING}?page=1`,
  );
  t.same(
    page.rows.map((r) => r.meetingDate),
    ['2017-09-12', '2017-09-05', '2016-12-13', '2016-12-06', '2016-11-29', '2016-11-15', '2016-11-01'],
  );
  t.same(page.rows.at(-1)!.documents, [
    { kind: 'agenda', url: 'https://sfbos.archive.sf.gov/sites/default/files/bag110116_agenda.pdf' },
    { kind: 'minutes', url: 'https://sfbos.archive.sf.gov/sites/default/files/m110116.pdf' },
  ]);
  t.same(page.pager, { next: null }, 'the last page has a pager without li.next');
});

t.test('the kind comes from the link text, else from the file name', async (t) => {
  const [html] = archiveListingPages(
    [
      {
        meetingDate: '2024-11-05',
        documents: [
          { kind: 'agenda', href: '/sites/default/files/bag110524_agenda', text: 'Download' },
          { kind: 'minutes', href: '/sites/default/files/m110524.pdf', text: 'PDF' },
          { kind: 'minutes', href: '/sites/default/files/notice.pdf', text: 'Minutes' },
        ],
      },
    ],
    10,
  );
  const [row] = parseArchiveListing(html, LISTING).rows;
  t.same(row.documents, [
    { kind: 'agenda', url: 'https://sfbos.archive.sf.gov/sites/default/files/bag110524_agenda' },
    { kind: 'minutes', url: 'https://sfbos.archive.sf.gov/sites/default/files/m110524.pdf' },
    { kind: 'minutes', url: 'https://sfbos.archive.sf.gov/sites/default/files/notice.pdf' },
  ]);
});

t.test('the fixtures are what the mirror generator renders, and link documents of the shared corpus', async (t) => {
  const pages = archiveListingPages(FIXTURE_MEETINGS, 7);
  t.equal(pages.length, 2);
  t.equal(pages[0], withoutTopComment(await readFile(join(FIXTURES, 'archive-listing-page-0.html'), 'utf8')));
  t.equal(pages[1], withoutTopComment(await readFile(join(FIXTURES, 'archive-listing-last.html'), 'utf8')));
  const manifest = new Set(
    (await readFile(join(CORPUS, 'MANIFEST.tsv'), 'utf8'))
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .map(([, meetingDate, kind]) => `${meetingDate} ${kind}`),
  );
  for (const m of FIXTURE_MEETINGS) {
    for (const d of m.documents)
      t.ok(manifest.has(`${m.meetingDate} ${d.kind}`), `${m.meetingDate} ${d.kind} in MANIFEST.tsv`);
  }
});

interface Answer {
  status?: number;
  type?: string;
  body: string;
}

/** A loopback archive host: `routes` maps path+query to an answer; every request is recorded. */
async function archiveHost(t: Test, routes: Record<string, Answer>) {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url!);
    const answer = routes[req.url!] ?? { status: 404, body: '<html><body><h1>Page not found</h1></body></html>' };
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'text/html; charset=utf-8' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { base, hits, listingHits: () => hits.filter((h) => h.startsWith('/meetings/')) };
}

function config(base: string, window: Partial<FetchConfig> = {}): FetchConfig {
  return {
    ...defaultConfig({}),
    archiveBase: base,
    sfbosBase: base,
    mediaBase: base,
    since: '2012-01-01',
    until: '2026-11-28',
    delayMs: 0,
    retries: 0,
    timeoutMs: 2000,
    backoffMs: 1,
    ...window,
  };
}

function discover(cfg: FetchConfig, maxPages?: number): Promise<Discovery> {
  const http = new HttpClient(cfg);
  return discoverArchive({ cfg, http, robots: new Robots(http, cfg.userAgent) }, maxPages);
}

/** Listing routes for pages rendered by the mirror generator. */
function listingRoutes(pages: string[], root = '/'): Record<string, Answer> {
  return Object.fromEntries(
    pages.map((body, p) => [`${root}meetings/full-board-meetings${p > 0 ? `?page=${p}` : ''}`, { body }]),
  );
}

/** Every Tuesday from `from` for `count` weeks, each with its agenda. */
function tuesdays(from: string, count: number): MirrorMeeting[] {
  const meetings: MirrorMeeting[] = [];
  for (let i = 0; i < count; i++) {
    const d = new Date(Date.parse(`${from}T00:00:00Z`) + i * 7 * 86_400_000).toISOString().slice(0, 10);
    meetings.push({ meetingDate: d, documents: [agenda(d)] });
  }
  return meetings;
}

const PAGER = /<div class="pagination" role="navigation">[\s\S]*?<\/ul><\/div>/;

t.test('discoverArchive reads every page of the listing, any weekday, labels and documents', async (t) => {
  const meetings = [
    ...tuesdays('2016-01-05', 24),
    {
      meetingDate: '2016-03-04',
      label: 'Special Meeting',
      documents: [agenda('2016-03-04', '/sites/default/files/bag030416_agenda')],
    },
  ];
  const host = await archiveHost(t, listingRoutes(archiveListingPages(meetings, 10)));
  const found = await discover(config(host.base));
  t.same(found.failures, []);
  t.same(host.listingHits(), [
    '/meetings/full-board-meetings',
    '/meetings/full-board-meetings?page=1',
    '/meetings/full-board-meetings?page=2',
  ]);
  t.equal(found.meetings.length, 25);
  const special = found.meetings.find((m) => m.meetingDate === '2016-03-04')!;
  t.equal(special.label, 'Special Meeting');
  t.same(special.documents, [{ kind: 'agenda', url: `${host.base}sites/default/files/bag030416_agenda` }]);
  t.equal(special.foundAt, `${host.base}meetings/full-board-meetings?page=1`);
  t.match(found.note, /3 listing pages read, 25 meetings and 25 documents/);
});

t.test('a mirror under a path prefix: the pager links stay under it', async (t) => {
  const host = await archiveHost(
    t,
    listingRoutes(archiveListingPages(tuesdays('2017-01-03', 12), 5, '/archive/'), '/archive/'),
  );
  const found = await discover(config(`${host.base}archive/`));
  t.same(found.failures, []);
  t.same(
    host.hits.filter((h) => h.includes('meetings')),
    [
      '/archive/meetings/full-board-meetings',
      '/archive/meetings/full-board-meetings?page=1',
      '/archive/meetings/full-board-meetings?page=2',
    ],
  );
  t.same(
    found.meetings.at(-1)!.documents,
    [{ kind: 'agenda', url: `${host.base}sites/default/files/bag010317_agenda.pdf` }],
    'document hrefs are as the caller wrote them (root-relative)',
  );
});

t.test('only meetings in [since, until]; paging stops after a page wholly older than since', async (t) => {
  const host = await archiveHost(t, listingRoutes(archiveListingPages(tuesdays('2016-01-05', 104), 20)));
  const found = await discover(config(host.base, { since: '2017-03-01', until: '2017-06-30' }));
  t.same(found.failures, []);
  const dates = found.meetings.map((m) => m.meetingDate);
  t.equal(dates[0], '2017-06-27', 'the newest meeting in the window');
  t.equal(dates.at(-1), '2017-03-07', 'the oldest meeting in the window');
  t.equal(dates.length, 17);
  t.same(host.listingHits().at(-1), '/meetings/full-board-meetings?page=3', 'pages 4 and 5 (2016) are not read');
  t.match(found.note, /stopped: older than the window/);
});

/** Runs discoverArchive against one broken listing and returns its single failure. */
async function oneFailure(t: Test, routes: Record<string, Answer>, maxPages?: number) {
  const host = await archiveHost(t, routes);
  const found = await discover(config(host.base), maxPages);
  t.equal(found.failures.length, 1, 'one failure');
  t.equal(found.failures[0].source, 'archive');
  return { host, found, failure: found.failures[0] };
}

t.test('failures are reported with the page URL, never thrown', async (t) => {
  const pages = archiveListingPages(tuesdays('2016-01-05', 30), 10);

  t.test('an HTTP error status', async (t) => {
    const { host, failure, found } = await oneFailure(t, {
      '/meetings/full-board-meetings': { status: 403, body: '<html><body>Forbidden</body></html>' },
    });
    t.equal(failure.url, `${host.base}meetings/full-board-meetings`);
    t.match(failure.message, `${host.base}meetings/full-board-meetings: expected a Drupal Views listing page`);
    t.match(failure.message, 'got HTTP 403');
    t.same(found.meetings, []);
  });

  t.test('a server error after retries', async (t) => {
    const { host, failure } = await oneFailure(t, {
      '/meetings/full-board-meetings': { status: 503, body: 'busy' },
    });
    t.match(failure.message, `${host.base}meetings/full-board-meetings`);
    t.match(failure.message, /request failed: \S+full-board-meetings: HTTP 503/);
  });

  t.test('a page that parses to no rows', async (t) => {
    const empty = pages[0].replace(/<tbody>[\s\S]*<\/tbody>/, '<tbody>\n</tbody>');
    const { host, failure } = await oneFailure(t, { '/meetings/full-board-meetings': { body: empty } });
    t.match(failure.message, `${host.base}meetings/full-board-meetings`);
    t.match(failure.message, 'no table.views-table row on the page');
  });

  t.test('a first page without a pager', async (t) => {
    const { host, failure, found } = await oneFailure(t, {
      '/meetings/full-board-meetings': { body: pages[0].replace(PAGER, '') },
    });
    t.match(failure.message, `${host.base}meetings/full-board-meetings: expected a Drupal pager (ul.pager)`);
    t.match(failure.message, 'the first page has none');
    t.equal(found.meetings.length, 10, 'the rows read are kept');
  });

  t.test('a later page without a pager', async (t) => {
    const routes = listingRoutes(pages);
    routes['/meetings/full-board-meetings?page=1'].body = pages[1].replace(PAGER, '');
    const { host, failure, found } = await oneFailure(t, routes);
    t.equal(failure.url, `${host.base}meetings/full-board-meetings?page=1`);
    t.match(failure.message, 'this page has none');
    t.equal(found.meetings.length, 20, 'the meetings of both pages read are kept');
    t.notOk(host.listingHits().includes('/meetings/full-board-meetings?page=2'));
  });

  t.test('a row whose date cannot be read', async (t) => {
    const routes = listingRoutes(pages);
    routes['/meetings/full-board-meetings?page=1'].body = pages[1].replace(
      /<span class="date-display-single"[^>]*>[^<]*<\/span>/,
      '<span class="date-display-single">To be announced</span>',
    );
    const { host, failure, found } = await oneFailure(t, routes);
    t.equal(failure.url, `${host.base}meetings/full-board-meetings?page=1`);
    t.match(failure.message, "a row's date cannot be read ('To be announced')");
    t.equal(found.meetings.length, 29, 'every other row, on every page');
  });

  t.test('rows without a documents cell', async (t) => {
    const routes = listingRoutes(pages);
    routes['/meetings/full-board-meetings?page=2'].body = pages[2].replaceAll(
      'views-field-field-meeting-type-1',
      'views-field-field-documents',
    );
    const { host, failure, found } = await oneFailure(t, routes);
    t.equal(failure.url, `${host.base}meetings/full-board-meetings?page=2`);
    t.match(failure.message, 'expected document links in td.views-field-field-meeting-type-1; no row has that cell');
    t.equal(
      found.meetings.filter((m) => m.documents.length === 0).length,
      0,
      'the meetings keep the links their other cells hold',
    );
  });

  t.test('a page that is not HTML', async (t) => {
    const { host, failure } = await oneFailure(t, {
      '/meetings/full-board-meetings': { type: 'application/json', body: '{"meetings":[]}' },
    });
    t.match(failure.message, `${host.base}meetings/full-board-meetings: expected a Drupal Views listing page`);
    t.match(failure.message, 'got content-type application/json');
  });

  t.test('a pager that loops back', async (t) => {
    const routes = listingRoutes(pages);
    routes['/meetings/full-board-meetings?page=1'].body = pages[1].replace(
      /(<li class="next[^"]*"><a title="Go to next page" href=")[^"]*"/,
      '$1/meetings/full-board-meetings"',
    );
    const { host, failure } = await oneFailure(t, routes);
    t.equal(failure.url, `${host.base}meetings/full-board-meetings`);
    t.match(failure.message, 'the pager loops back to a page already read');
    t.equal(host.listingHits().length, 2);
  });

  t.test('a pager that goes on past the page cap', async (t) => {
    const { host, failure } = await oneFailure(t, listingRoutes(pages), 2);
    t.equal(failure.url, `${host.base}meetings/full-board-meetings?page=2`);
    t.match(failure.message, 'expected at most 2 listing pages');
  });

  t.test('robots.txt disallows the listing', async (t) => {
    const routes = listingRoutes(pages);
    routes['/robots.txt'] = { type: 'text/plain', body: 'User-agent: *\nDisallow: /meetings/\n' };
    const { host, failure } = await oneFailure(t, routes);
    t.match(failure.message, `${host.base}meetings/full-board-meetings: expected robots.txt to allow`);
    t.same(host.listingHits(), [], 'the listing was not requested');
  });
});

t.test('URL patterns of the archive, sfbos.org and the media host, 2016 and 2026', async (t) => {
  const cfg = defaultConfig({});
  t.equal(
    archiveUrl(cfg, '2016-11-01', 'minutes'),
    'https://sfbos.archive.sf.gov/sites/default/files/bag110116_minutes.pdf',
  );
  t.same(sfbosUrls(cfg, '2016-11-01', 'agenda'), ['https://sfbos.org/sites/default/files/bag110116_agenda.pdf']);
  t.same(mediaUrls(cfg, '2016-11-01', 'agenda'), [], 'nothing on the media host before 2025');
  t.same(sfbosUrls(cfg, '2026-03-03', 'minutes'), ['https://sfbos.org/meeting/minutes/2026/bag030326_minutes']);
  t.same(sfbosUrls(cfg, '2026-03-03', 'agenda'), ['https://sfbos.org/meeting/agenda/2026/bag030326_agenda']);
  t.same(mediaUrls(cfg, '2026-03-03', 'agenda'), ['https://media.api.sf.gov/documents/bag030326_agenda.pdf']);
  const mirror = config('http://127.0.0.1:8080/archive/');
  t.equal(
    archiveUrl(mirror, '2026-03-03', 'agenda'),
    'http://127.0.0.1:8080/archive/sites/default/files/bag030326_agenda.pdf',
  );
});

t.test('weekdays: Monday to Friday across a month, a year, and a whole leap year', async (t) => {
  t.same(weekdays('2016-11-26', '2016-12-05'), [
    '2016-11-28',
    '2016-11-29',
    '2016-11-30',
    '2016-12-01',
    '2016-12-02',
    '2016-12-05',
  ]);
  t.same(weekdays('2025-12-27', '2026-01-03'), ['2025-12-29', '2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02']);
  t.equal(weekdays('2024-01-01', '2024-12-31').length, 262, '2024: 52 weeks and two weekdays');
  t.same(weekdays('2026-11-28', '2026-11-29'), [], 'a weekend');
  t.same(weekdays('2026-11-30', '2026-11-27'), [], 'an empty range');
});

t.test('variants of the listing markup: Drupal core pager, minutes in a column of their own', async (t) => {
  // Drupal 7 core theme_pager (includes/pager.inc), which a theme change would bring back.
  const core = `<table class="views-table"><tbody><tr><td class="views-field views-field-field-date"><span class="date-display-single" content="2016-11-01T14:00:00-07:00">Tuesday, November 1, 2016</span></td>
<td class="views-field views-field-title">Regular Meeting</td>
<td class="views-field views-field-field-meeting-type-1"><a href="/sites/default/files/bag110116_agenda.pdf">Agenda</a></td>
<td class="views-field views-field-field-minutes"><a href="/sites/default/files/bag110116_minutes.pdf">Minutes</a></td></tr></tbody></table>
<h2 class="element-invisible">Pages</h2><div class="item-list"><ul class="pager"><li class="pager-current first">1</li>
<li class="pager-next"><a title="Go to next page" href="/meetings/full-board-meetings?page=1">next ›</a></li></ul></div>`;
  const page = parseArchiveListing(core, LISTING);
  t.same(page.pager, { next: `${LISTING}?page=1` }, 'li.pager-next');
  t.same(
    page.rows[0].documents.map((d) => d.kind),
    ['agenda', 'minutes'],
    'the minutes column is read',
  );
  t.equal(page.rows[0].label, 'Regular Meeting');
  const titled = core.replace('<li class="pager-next">', '<li>');
  t.same(
    parseArchiveListing(titled, LISTING).pager,
    { next: `${LISTING}?page=1` },
    'a link titled "Go to next page" in any item',
  );
});
