// The Legistar adapter: its parsers on the fixtures (pipelines/fetch/fixtures/legistar-*), then discoverLegistar end to
// end against a loopback mirror of sfgov.legistar.com serving pages in the same markup (test/mirror/legistar.ts):
// feeds, Gateway.aspx redirects, meeting pages, the calendar grid and its year POST, and every failure named by URL.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import t, { type Test } from 'tap';

import { defaultConfig, type LegistarFeed } from '../pipelines/fetch/config.ts';
import { HttpClient } from '../pipelines/fetch/http.ts';
import { Robots } from '../pipelines/fetch/robots.ts';
import type { Discovery, MeetingItem } from '../pipelines/fetch/source.ts';
import {
  discoverLegistar,
  parseCalendarPage,
  parseFeed,
  parseMeetingPage,
} from '../pipelines/fetch/sources/legistar.ts';
import {
  answerLegistar,
  type CalendarRowSpec,
  type FeedItemSpec,
  type LegistarSite,
  renderCalendar,
  renderFeed,
  renderMeetingPage,
  viewHref,
} from './mirror/legistar.ts';

const fixture = (name: string) => readFile(new URL(`../pipelines/fetch/fixtures/${name}`, import.meta.url), 'utf8');
const REAL = 'https://sfgov.legistar.com/';
const BOS = 'Board of Supervisors';
const guid = (id: string) => `5A0B0C0D-0000-4000-8000-${id.padStart(12, '0')}`;

t.test(
  'the 2016 feed fixture: Board items with dates and Gateway links, the committee and the cancelled one told apart',
  async (t) => {
    const feed = parseFeed(await fixture('legistar-feed-2016.xml'), `${REAL}Feed.ashx?M=Calendar&Mode=2016`);
    if (!feed.ok) return t.fail(feed.problem);
    t.same(
      feed.entries.map((e) => [e.body, e.meetingDate, e.time, e.cancelled]),
      [
        [BOS, '2016-11-15', '2:00 PM', false],
        ['Budget and Finance Committee', '2016-11-02', '10:00 AM', false],
        [BOS, '2016-11-08', null, true],
        [BOS, '2016-11-01', '2:00 PM', false],
      ],
    );
    t.equal(feed.entries[3].link, `${REAL}Gateway.aspx?M=MD&From=RSS&ID=516001&GUID=${guid('516001')}`);
  },
);

t.test('an "Invalid feed" answer is a problem quoting it, not an empty feed', async (t) => {
  const body = (await fixture('legistar-invalid-feed.txt')).replace(/^#.*\n/gm, '');
  const feed = parseFeed(body, `${REAL}Feed.ashx`);
  t.equal(feed.ok, false);
  if (!feed.ok) t.match(feed.problem, /Invalid feed/);
  t.equal(parseFeed('', `${REAL}Feed.ashx`).ok, false, 'an empty body');
});

t.test(
  'the 11/1/2016 meeting page: date, label, View.ashx links, grid rows with file numbers, actions, results',
  async (t) => {
    const url = `${REAL}MeetingDetail.aspx?ID=516001&GUID=${guid('516001')}&Options=info|&Search=`;
    const page = parseMeetingPage(await fixture('legistar-meeting-detail.html'), url);
    t.equal(page.body, BOS);
    t.equal(page.meetingDate, '2016-11-01');
    t.equal(page.time, '2:00 PM');
    t.equal(page.label, 'Regular Meeting');
    t.equal(page.cancelled, false);
    t.same(page.documents, [
      { kind: 'agenda', url: `${REAL}View.ashx?M=A&ID=516001&GUID=${guid('516001')}` },
      { kind: 'minutes', url: `${REAL}View.ashx?M=M&ID=516001&GUID=${guid('516001')}` },
    ]);
    const items = page.items ?? [];
    t.equal(items.length, 7);
    t.same(
      items.map((r) => [r.fileNumber, r.version, r.agendaNumber, r.action, r.result]),
      [
        ['160424', '1', '1', 'FINALLY PASSED', 'Pass'],
        ['160789', '1', '6', 'FINALLY PASSED', 'Pass'],
        ['160222', '1', '7', 'AMENDED, AN AMENDMENT OF THE WHOLE BEARING SAME TITLE', 'Pass'],
        ['160222', '2', '7', 'RE-REFERRED AS AMENDED', 'Pass'],
        ['161034', '1', '8', 'PASSED ON FIRST READING', 'Pass'],
        ['161050', '1', '13', 'ADOPTED', 'Pass'],
        ['', '', '39', '', ''],
      ],
    );
    const bonds = items.find((r) => r.fileNumber === '161050')!;
    t.equal(bonds.type, 'Resolution');
    t.match(bonds.name, /^Multifamily Housing Revenue Notes .* Not to Exceed \$302,390,833$/);
    t.match(bonds.title, /250 Fremont Street \(also known as Transbay Block 8 Affordable Apartments\)/);
  },
);

t.test('a meeting page whose minutes are "Not available" links the agenda only', async (t) => {
  const html = renderMeetingPage({
    meetingDate: '2026-03-10',
    id: '9',
    guid: guid('9'),
    agendaHref: viewHref('A', '9', guid('9')),
    rows: [],
  });
  const page = parseMeetingPage(html, `${REAL}MeetingDetail.aspx?ID=9&GUID=${guid('9')}`);
  t.same(page.documents, [{ kind: 'agenda', url: `${REAL}View.ashx?M=A&ID=9&GUID=${guid('9')}` }]);
  t.same(page.items, [], 'a grid with "No records to display." is a grid without rows');
  t.equal(parseMeetingPage('<html><body>Error</body></html>', REAL).items, null, 'no grid at all');
});

t.test(
  'the calendar grid fixture: rows, "Not available" as no link, the committee, the special and cancelled meetings',
  async (t) => {
    const page = parseCalendarPage(await fixture('legistar-calendar-grid.html'), `${REAL}Calendar.aspx`);
    t.equal(page.yearShown, '2026');
    t.ok(page.form.__VIEWSTATE && page.form.__EVENTVALIDATION, 'the form state a postback sends back');
    t.equal(page.nextPageTarget, null, 'one page');
    const rows = page.rows ?? [];
    t.same(
      rows.map((r) => [r.body, r.meetingDate, r.time, r.label, r.cancelled, r.documents.map((d) => d.kind)]),
      [
        [BOS, '2026-03-10', '2:00 PM', null, false, ['agenda']],
        ['Land Use and Transportation Committee', '2026-03-09', '1:30 PM', null, false, ['agenda', 'minutes']],
        [BOS, '2026-03-03', '2:00 PM', null, false, ['agenda', 'minutes']],
        [BOS, '2026-02-27', '10:00 AM', 'Special Meeting', false, ['agenda']],
        [BOS, '2026-02-24', '2:00 PM', 'CANCELLED', true, []],
      ],
    );
    t.equal(rows[2].detailUrl, `${REAL}MeetingDetail.aspx?ID=526003&GUID=${guid('526003')}&Options=info|&Search=`);
    t.same(rows[2].documents, [
      { kind: 'agenda', url: `${REAL}View.ashx?M=A&ID=526003&GUID=${guid('526003')}` },
      { kind: 'minutes', url: `${REAL}View.ashx?M=M&ID=526003&GUID=${guid('526003')}` },
    ]);
  },
);

t.test('an empty calendar grid has no rows; a paged one names its next page', async (t) => {
  const empty = parseCalendarPage(await fixture('legistar-calendar-empty.html'), `${REAL}Calendar.aspx`);
  t.same(empty.rows, []);
  const paged = parseCalendarPage(renderCalendar({ yearShown: '2026', rows: [], page: { current: 1, of: 3 } }), REAL);
  t.equal(paged.nextPageTarget, 'ctl00$ContentPlaceHolder1$gridCalendar$ctl00$ctl03$ctl01$ctl02');
  const last = parseCalendarPage(renderCalendar({ yearShown: '2026', rows: [], page: { current: 3, of: 3 } }), REAL);
  t.equal(last.nextPageTarget, null);
});

// ---------------------------------------------------------------------------------------------------------------
// A loopback mirror of the Legistar site.

interface Mirror {
  base: string;
  hits: string[];
  posts: { form: URLSearchParams; cookie: string | undefined }[];
}

async function mirror(t: Test, site: LegistarSite): Promise<Mirror> {
  const hits: string[] = [];
  const posts: Mirror['posts'] = [];
  let base = '';
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', base);
    const form = Buffer.concat(chunks).toString('utf8');
    hits.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.method === 'POST') posts.push({ form: new URLSearchParams(form), cookie: req.headers.cookie });
    const answer = answerLegistar(site, req.method ?? 'GET', url, form, base) ?? { status: 404, body: 'not found' };
    res.writeHead(answer.status, { 'content-type': answer.type ?? 'text/html; charset=utf-8', ...answer.headers });
    res.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { base, hits, posts };
}

async function discover(
  m: Mirror,
  since: string,
  until: string,
  feeds: Record<string, LegistarFeed>,
): Promise<Discovery> {
  const cfg = { ...defaultConfig({}), legistarBase: m.base, legistarFeeds: feeds, since, until };
  Object.assign(cfg, { delayMs: 0, retries: 1, backoffMs: 5, timeoutMs: 3000 });
  const http = new HttpClient(cfg);
  return discoverLegistar({ cfg, http, robots: new Robots(http, cfg.userAgent) });
}

const FEED = (n: number): LegistarFeed => ({
  id: String(43067000 + n),
  guid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
});
const item = (meetingDate: string, id: string, extra: Partial<FeedItemSpec> = {}): FeedItemSpec => ({
  meetingDate,
  time: '2:00 PM',
  id,
  guid: guid(id),
  body: BOS,
  ...extra,
});
const row = (meetingDate: string, id: string, extra: Partial<CalendarRowSpec> = {}): CalendarRowSpec => ({
  body: BOS,
  meetingDate,
  time: '2:00 PM',
  id,
  guid: guid(id),
  agenda: true,
  minutes: true,
  ...extra,
});

const FILES: Partial<MeetingItem>[] = [
  {
    fileNumber: '161050',
    version: '1',
    agendaNumber: '13',
    name: 'Transbay Block 8',
    type: 'Resolution',
    action: 'ADOPTED',
    result: 'Pass',
  },
  {
    fileNumber: '161034',
    version: '1',
    agendaNumber: '8',
    name: 'Early Learning Fund',
    type: 'Ordinance',
    action: 'PASSED ON FIRST READING',
    result: 'Pass',
  },
  { agendaNumber: '39', title: 'PUBLIC COMMENT' },
];

function meetingPage(
  meetingDate: string,
  id: string,
  extra: { label?: string; minutes?: boolean; rows?: Partial<MeetingItem>[] } = {},
) {
  return renderMeetingPage({
    meetingDate,
    id,
    guid: guid(id),
    label: extra.label ?? 'Regular Meeting',
    agendaHref: viewHref('A', id, guid(id)),
    minutesHref: extra.minutes === false ? undefined : viewHref('M', id, guid(id)),
    rows: extra.rows ?? [],
  });
}

const doc = (m: Mirror, mode: 'A' | 'M', id: string) => `${m.base}View.ashx?M=${mode}&ID=${id}&GUID=${guid(id)}`;

t.test(
  'a year read from its feed: Gateway.aspx redirects to each Board meeting page, read for documents and rows',
  async (t) => {
    const m = await mirror(t, {
      feed: (year, base) =>
        year === '2016'
          ? renderFeed(base, 2016, [
              item('2016-11-15', '516015'),
              item('2016-11-02', '516002', { body: 'Budget and Finance Committee', time: '10:00 AM' }),
              item('2016-11-08', '516008', { cancelled: true }),
              item('2016-11-01', '516001'),
              item('2016-12-13', '516213'),
            ])
          : undefined,
      meetings: {
        '516001': meetingPage('2016-11-01', '516001', { rows: FILES }),
        '516015': meetingPage('2016-11-15', '516015', { minutes: false }),
      },
    });
    const found = await discover(m, '2016-10-01', '2016-11-30', { '2016': FEED(2016) });
    t.same(found.failures, []);
    t.same(
      found.meetings.map((x) => [x.meetingDate, x.label, x.documents]),
      [
        [
          '2016-11-01',
          'Regular Meeting',
          [
            { kind: 'agenda', url: doc(m, 'A', '516001') },
            { kind: 'minutes', url: doc(m, 'M', '516001') },
          ],
        ],
        ['2016-11-15', 'Regular Meeting', [{ kind: 'agenda', url: doc(m, 'A', '516015') }]],
      ],
      'the committee, the cancelled meeting and the one after the window are left out',
    );
    t.match(found.meetings[0].foundAt, `${m.base}MeetingDetail.aspx?From=RSS&ID=516001`);
    t.ok(
      m.hits.includes(`GET /Gateway.aspx?M=MD&From=RSS&ID=516001&GUID=${guid('516001')}`),
      'the link followed as given',
    );
    t.ok(
      m.hits.includes(`GET /Feed.ashx?M=Calendar&ID=43069016&GUID=${FEED(2016).guid}&Mode=2016`),
      'the feed with its ID and GUID',
    );
    t.same(
      found.meetingItems.map((i) => [i.meetingDate, i.meetingUrl, i.fileNumber, i.action, i.result]),
      [
        ['2016-11-01', `${REAL}MeetingDetail.aspx?ID=516001&GUID=${guid('516001')}`, '161050', 'ADOPTED', 'Pass'],
        [
          '2016-11-01',
          `${REAL}MeetingDetail.aspx?ID=516001&GUID=${guid('516001')}`,
          '161034',
          'PASSED ON FIRST READING',
          'Pass',
        ],
      ],
      'rows with a file number, filed under the public MeetingDetail URL',
    );
    t.equal(m.hits.filter((h) => h.startsWith('GET /Calendar.aspx')).length, 0, 'no grid needed');
  },
);

t.test('each failure is named by its URL, nothing is thrown, and the other years are still read', async (t) => {
  const invalid = (await fixture('legistar-invalid-feed.txt')).replace(/^#.*\n/gm, '');
  const m = await mirror(t, {
    feed: (year, base) => {
      if (year === '2016') return { status: 200, body: invalid };
      if (year === '2017') return { status: 500, body: 'Server Error' };
      if (year === '2018') return renderFeed(base, 2018, []);
      return renderFeed(base, 2019, [
        item('2019-01-08', '519108'),
        item('2019-01-15', '519115'),
        item('2019-01-22', '519122'),
      ]).replace(`${BOS} - 1/22/2019 - 2:00 PM`, `${BOS} - date to be announced`);
    },
    meetings: {
      '516001': meetingPage('2016-11-01', '516001', { rows: FILES }),
      '519115': meetingPage('2019-01-15', '519115'),
    },
    calendar: (year) => {
      if (year === '2016')
        return renderCalendar({
          yearShown: '2016',
          rows: [row('2016-11-01', '516001'), row('2016-10-31', '516031', { body: 'Rules Committee' })],
        });
      if (year === '2018') return renderCalendar({ yearShown: '2018', rows: [row('2019-01-08', '519108')] });
      return renderCalendar({ yearShown: year ?? 'This Month', rows: [] });
    },
  });
  const feeds = { '2016': FEED(2016), '2017': FEED(2017), '2018': FEED(2018), '2019': FEED(2019) };
  const found = await discover(m, '2016-01-01', '2019-12-31', feeds);
  const feedOf = (year: number) =>
    `${m.base}Feed.ashx?M=Calendar&ID=${feeds[year as 2016].id}&GUID=${feeds[year as 2016].guid}&Mode=${year}`;
  const calendar = `${m.base}Calendar.aspx`;
  const gateway = (id: string) => `${m.base}Gateway.aspx?M=MD&From=RSS&ID=${id}&GUID=${guid(id)}`;
  t.same(
    found.failures.map((f) => [f.source, f.url]),
    [
      ['legistar', feedOf(2016)],
      ['legistar', feedOf(2017)],
      ['legistar', calendar],
      ['legistar', feedOf(2018)],
      ['legistar', calendar],
      ['legistar', feedOf(2019)],
      ['legistar', `${m.base}MeetingDetail.aspx?From=RSS&ID=519108&GUID=${guid('519108')}`],
    ],
  );
  const says = (i: number) => `${found.failures[i].expected} / ${found.failures[i].message}`;
  t.match(says(0), /RSS calendar feed of 2016 \/ not an RSS feed: 'Invalid feed'/, '200 with "Invalid feed"');
  t.match(says(1), /RSS calendar feed of 2017 \/ \S+Mode=2017: HTTP 500 .*after 2 attempts/, 'HTTP 500 after retries');
  t.match(says(2), /meetings of 2017 \/ an empty grid/, 'the grid tried for 2017 is empty');
  t.match(says(3), /RSS calendar feed of 2018 \/ no items at all, for a year that is over/);
  t.match(says(4), /meetings of 2018 \/ 1 row, none dated in 2018/);
  t.match(says(5), /item 'Board of Supervisors - date to be announced' has no readable date/);
  t.match(
    says(6),
    new RegExp(
      `MeetingDetail.aspx page .* / HTTP 404 \\(redirected from ${gateway('519108').replace(/[.?]/g, '\\$&')}\\)`,
    ),
  );
  t.same(
    found.meetings.map((x) => [x.meetingDate, x.documents.map((d) => d.kind), x.foundAt]),
    [
      [
        '2016-11-01',
        ['agenda', 'minutes'],
        `${m.base}MeetingDetail.aspx?ID=516001&GUID=${guid('516001')}&Options=info|&Search=`,
      ],
      ['2019-01-08', [], feedOf(2019)],
      ['2019-01-15', ['agenda', 'minutes'], `${m.base}MeetingDetail.aspx?From=RSS&ID=519115&GUID=${guid('519115')}`],
    ],
    '2016 from the grid after its feed failed; 2019 from its feed, the meeting whose page failed kept by its date',
  );
  t.same(
    found.meetingItems.map((i) => [i.meetingDate, i.fileNumber]),
    [
      ['2016-11-01', '161050'],
      ['2016-11-01', '161034'],
    ],
  );
  t.match(found.note, /4 feeds, 3 calendar grids/);
});

t.test(
  'a year without a feed is read from the calendar grid: the year chosen by form POST, every page followed',
  async (t) => {
    const m = await mirror(t, {
      calendar: (year, page) => {
        if (year === null) return renderCalendar({ yearShown: 'This Month', rows: [row('2026-11-24', '526124')] });
        if (page === 1)
          return renderCalendar({
            yearShown: year,
            page: { current: 1, of: 2 },
            rows: [
              row('2026-03-10', '526010', { minutes: false }),
              row('2026-03-09', '526009', { body: 'Land Use and Transportation Committee', time: '1:30 PM' }),
              row('2026-03-03', '526003'),
            ],
          });
        return renderCalendar({
          yearShown: year,
          page: { current: 2, of: 2 },
          rows: [
            row('2026-02-27', '526227', { time: '10:00 AM', label: 'Special Meeting', minutes: false }),
            row('2026-02-24', '526224', { label: 'CANCELLED', agenda: false, minutes: false }),
          ],
        });
      },
      meetings: {
        '526010': meetingPage('2026-03-10', '526010', { minutes: false }),
        '526003': meetingPage('2026-03-03', '526003', {
          rows: [{ fileNumber: '260101', action: 'ADOPTED', result: 'Pass' }],
        }),
      },
    });
    const found = await discover(m, '2026-01-01', '2026-12-31', {});
    t.same(
      found.meetings.map((x) => [x.meetingDate, x.label, x.documents]),
      [
        ['2026-02-27', 'Special Meeting', [{ kind: 'agenda', url: doc(m, 'A', '526227') }]],
        [
          '2026-03-03',
          'Regular Meeting',
          [
            { kind: 'agenda', url: doc(m, 'A', '526003') },
            { kind: 'minutes', url: doc(m, 'M', '526003') },
          ],
        ],
        ['2026-03-10', 'Regular Meeting', [{ kind: 'agenda', url: doc(m, 'A', '526010') }]],
      ],
      'Board meetings of both pages; the committee and the cancelled meeting left out; the grid row kept when its page fails',
    );
    t.same(
      found.failures.map((f) => [f.url, f.message]),
      [[`${m.base}MeetingDetail.aspx?ID=526227&GUID=${guid('526227')}&Options=info|&Search=`, 'HTTP 404']],
    );
    t.same(
      found.meetingItems.map((i) => [i.meetingUrl, i.fileNumber]),
      [[`${REAL}MeetingDetail.aspx?ID=526003&GUID=${guid('526003')}`, '260101']],
    );
    t.equal(m.posts.length, 2, 'the year, then the second page');
    const [chooseYear, nextPage] = m.posts;
    t.equal(chooseYear.form.get('__EVENTTARGET'), 'ctl00$ContentPlaceHolder1$lstYears');
    t.equal(chooseYear.form.get('ctl00_ContentPlaceHolder1_lstYears_ClientState'), '{"value":"2026"}');
    t.equal(chooseYear.form.get('__VIEWSTATE'), 'CAL-This Month-1', 'the form state of the page shown');
    t.equal(chooseYear.form.get('__EVENTVALIDATION'), 'EV-CAL-This Month-1');
    t.equal(chooseYear.cookie, 'ASP.NET_SessionId=s1', 'the session cookie sent back');
    t.equal(nextPage.form.get('__EVENTTARGET'), 'ctl00$ContentPlaceHolder1$gridCalendar$ctl00$ctl03$ctl01$ctl02');
    t.equal(nextPage.form.get('__VIEWSTATE'), 'CAL-2026-1');
  },
);

t.test('a grid that does not switch to the year asked is a failure naming Calendar.aspx', async (t) => {
  const m = await mirror(t, {
    calendar: () => renderCalendar({ yearShown: '2025', rows: [row('2025-12-16', '525216')] }),
  });
  const found = await discover(m, '2026-01-01', '2026-06-30', {});
  t.same(found.meetings, []);
  t.same(
    found.failures.map((f) => [f.url, f.message]),
    [[`${m.base}Calendar.aspx`, `the year list shows '2025' after choosing 2026`]],
  );
});

t.test(
  "a feed item's meeting page of another body is a failure, and its rows are not taken as the Board's",
  async (t) => {
    const m = await mirror(t, {
      feed: (year, base) =>
        renderFeed(base, 2019, [item('2019-02-05', '519205')]).replace(/\s*<category>[^<]*<\/category>/, ''),
      meetings: {
        '519205': renderMeetingPage({
          meetingDate: '2019-02-05',
          id: '519205',
          guid: guid('519205'),
          body: 'Rules Committee',
          rows: FILES,
        }),
      },
    });
    const found = await discover(m, '2019-01-01', '2019-12-31', { '2019': FEED(2019) });
    t.same(
      found.meetings.map((x) => [x.meetingDate, x.documents]),
      [['2019-02-05', []]],
      'read by its title, without a category',
    );
    t.same(found.meetingItems, []);
    t.same(
      found.failures.map((f) => [f.url, f.message]),
      [
        [
          `${m.base}MeetingDetail.aspx?From=RSS&ID=519205&GUID=${guid('519205')}`,
          'the page is a meeting of the Rules Committee',
        ],
      ],
    );
  },
);
