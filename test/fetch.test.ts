// `make fetch` end to end against a loopback mirror of each host in its real shape: the Clerk's archive (its Drupal
// Views listing, test/mirror/archive.ts), sfbos.org (`/meeting/{kind}/YYYY/bag…` without `.pdf`; old file paths
// redirect to the archive), the sf.gov media host (`/documents/bag….pdf`) and Legistar (per-year feeds, Gateway.aspx
// → MeetingDetail.aspx, View.ashx, the calendar grid: test/mirror/legistar.ts). Each host is its own server, so hosts
// differ as they do in production (by host:port here). Real PDFs of ../shared/corpus are served for 2016–2020;
// 2024–2026 documents are small PDFs made here and labelled synthetic.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';

import { DuckDBInstance } from '@duckdb/node-api';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import t, { type Test } from 'tap';

import { configFrom, defaultConfig, type FetchConfig, parseFeeds } from '../pipelines/fetch/config.ts';
import { candidatesOf, type FetchReport, guessDays, runFetch } from '../pipelines/fetch/fetcher.ts';
import { readManifest } from '../pipelines/fetch/manifest.ts';
import { readMeetingItems } from '../pipelines/fetch/meeting-items.ts';
import { formatReport } from '../pipelines/fetch/report.ts';
import type { MeetingItem } from '../pipelines/fetch/source.ts';
import { STATE_FILE } from '../pipelines/fetch/state.ts';
import { CORPUS, ROOT } from './fixture.ts';
import { archiveListingPages, type MirrorMeeting } from './mirror/archive.ts';
import {
  answerLegistar,
  type FeedItemSpec,
  type LegistarSite,
  renderCalendar,
  renderFeed,
  renderMeetingPage,
  viewHref,
} from './mirror/legistar.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;
interface Hit {
  host: string;
  path: string;
  ua: string;
  inm: string | null;
  status: number;
  at: number;
}
interface Host {
  server: Server;
  origin: string;
  routes: Handler;
}

const hits: Hit[] = [];
const hosts: Record<'archive' | 'sfbos' | 'media' | 'legistar' | 'elsewhere', Host> = {} as never;
/** Faults by host and path (with query): replace the normal answer while set. */
const faults = new Map<string, Handler>();
const files = new Map<string, Buffer>(); // document key (YYYY-MM-DD-kind) → bytes currently served
/** Takes over a 200 document answer while set (true: answered). */
let onPdf: ((res: ServerResponse, body: Buffer) => boolean) | null = null;
const LAST_MODIFIED = 'Tue, 01 Nov 2016 20:00:00 GMT';
const etagOf = (b: Buffer) => `"${createHash('sha256').update(b).digest('hex').slice(0, 16)}"`;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A document, conditionally: 304 to a matching If-None-Match. */
function servePdf(req: IncomingMessage, res: ServerResponse, key: string): void {
  const body = files.get(key);
  if (body && onPdf?.(res, body)) return;
  if (!body) return send(res, 404, 'text/html', '<h1>Page not found</h1>');
  const etag = etagOf(body);
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag, 'last-modified': LAST_MODIFIED });
    return void res.end();
  }
  send(res, 200, 'application/pdf', body, { etag, 'last-modified': LAST_MODIFIED });
}

/** A small PDF for a meeting the shared corpus does not hold, labelled synthetic in its text and title. */
async function syntheticPdf(meetingDate: string, kind: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`SYNTHETIC TEST DOCUMENT: Board of Supervisors ${kind} of ${meetingDate}`);
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  const [y, m, d] = meetingDate.split('-').map(Number);
  page.drawText('SYNTHETIC TEST DOCUMENT', { x: 72, y: 720, size: 14, font });
  page.drawText(`Board of Supervisors  Meeting ${kind === 'agenda' ? 'Agenda' : 'Minutes'}  ${m}/${d}/${y}`, {
    x: 72,
    y: 690,
    size: 11,
    font,
  });
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

// What the mirror holds. Real documents of the shared corpus, by meeting:
const REAL: Record<string, string> = {
  '2016-11-01-agenda': 'bag110116_agenda.pdf',
  '2016-11-01-minutes': 'bag110116_minutes.pdf',
  '2016-11-15-agenda': 'bag111516_agenda.pdf',
  '2017-01-10-agenda': 'bag011017_agenda.pdf',
  '2020-03-31-agenda': 'bag033120_agenda.pdf',
  '2019-10-08-agenda': 'bag100819_agenda.pdf',
  '2020-09-15-agenda': 'bag091520_agenda.pdf',
};
const SYNTHETIC = ['2024-11-05-minutes', '2025-09-16-agenda', '2026-03-03-agenda', '2026-03-03-minutes'];

// The archive's listing: newest first, two rows a page (so three pages), a special meeting, a link without `.pdf`,
// minutes under another name (m110524.pdf, as one 2024 minutes file is cited).
const ARCHIVE_MEETINGS: MirrorMeeting[] = [
  {
    meetingDate: '2016-11-01',
    documents: [
      { kind: 'agenda', href: '/sites/default/files/bag110116_agenda.pdf' },
      { kind: 'minutes', href: '/sites/default/files/bag110116_minutes.pdf', text: 'Minutes (Draft)' },
    ],
  },
  { meetingDate: '2016-11-15', documents: [{ kind: 'agenda', href: '/sites/default/files/bag111516_agenda' }] },
  { meetingDate: '2017-01-10', documents: [{ kind: 'agenda', href: '/sites/default/files/bag011017_agenda.pdf' }] },
  {
    meetingDate: '2020-03-31',
    label: 'Special Meeting',
    documents: [{ kind: 'agenda', href: '/sites/default/files/bag033120_agenda.pdf' }],
  },
  { meetingDate: '2024-11-05', documents: [{ kind: 'minutes', href: '/sites/default/files/m110524.pdf' }] },
  { meetingDate: '2015-12-08', documents: [{ kind: 'agenda', href: '/sites/default/files/bag120815_agenda.pdf' }] },
];
/** archive path → document key */
const ARCHIVE_FILES: Record<string, string> = {
  '/sites/default/files/bag110116_agenda.pdf': '2016-11-01-agenda',
  '/sites/default/files/bag110116_minutes.pdf': '2016-11-01-minutes',
  '/sites/default/files/bag111516_agenda': '2016-11-15-agenda',
  '/sites/default/files/bag111516_agenda.pdf': '2016-11-15-agenda',
  '/sites/default/files/bag011017_agenda.pdf': '2017-01-10-agenda',
  '/sites/default/files/bag033120_agenda.pdf': '2020-03-31-agenda',
  '/sites/default/files/m110524.pdf': '2024-11-05-minutes',
};
let listingPages: string[] = [];

function hostRoutes(): Record<keyof typeof hosts, Handler> {
  return {
    archive: (req, res, url) => {
      if (url.pathname === '/robots.txt') return send(res, 200, 'text/plain', 'User-agent: *\nDisallow: /admin/\n');
      if (url.pathname === '/meetings/full-board-meetings') {
        const page = listingPages[Number(url.searchParams.get('page') ?? 0)];
        return page
          ? send(res, 200, 'text/html; charset=utf-8', page)
          : send(res, 404, 'text/html', '<h1>Page not found</h1>');
      }
      const key = ARCHIVE_FILES[url.pathname];
      if (key) return servePdf(req, res, key);
      send(res, 404, 'text/html', '<h1>Page not found</h1>');
    },
    sfbos: (req, res, url) => {
      if (url.pathname === '/robots.txt') return send(res, 200, 'text/plain', 'User-agent: *\nDisallow: /private/\n');
      // The old file paths now live on the archive host.
      if (url.pathname.startsWith('/sites/default/files/'))
        return send(res, 301, 'text/html', '', { location: hosts.archive.origin + url.pathname });
      const m = /^\/meeting\/(agenda|minutes)\/(\d{4})\/bag(\d\d)(\d\d)(\d\d)_(agenda|minutes)$/.exec(url.pathname);
      if (m && m[1] === m[6]) return servePdf(req, res, `20${m[5]}-${m[3]}-${m[4]}-${m[1]}`);
      send(res, 404, 'text/html', '<h1>Page not found</h1>');
    },
    media: (req, res, url) => {
      if (url.pathname === '/robots.txt') return send(res, 404, 'text/plain', 'no robots.txt');
      const m = /^\/documents\/bag(\d\d)(\d\d)(\d\d)_(agenda)\.pdf$/.exec(url.pathname); // agendas only, as seen
      if (m) return servePdf(req, res, `20${m[3]}-${m[1]}-${m[2]}-${m[4]}`);
      send(res, 404, 'application/json', '{"message":"Not Found"}');
    },
    legistar: legistarRoute,
    elsewhere: (_req, res, url) => {
      if (url.pathname === '/robots.txt') return send(res, 200, 'text/plain', 'User-agent: *\nDisallow:\n');
      send(res, 200, 'application/pdf', '%PDF-1.4 not from the configured hosts');
    },
  };
}

// ---- Legistar: a feed for each year of 2016–2025, each Board item's meeting page, the calendar grid for 2026 ----
const guid = (id: string) => `5f0c${id.padStart(4, '0')}-aaaa-4bbb-8ccc-0000000${id.padStart(5, '0')}`;
const LEGISTAR_FEEDS = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [String(2016 + i), { id: String(43067000 + i), guid: guid(String(9000 + i)) }]),
);
interface LegistarMeeting {
  meetingDate: string;
  id: string;
  label?: string;
  agenda?: string;
  minutes?: string;
  rows?: Partial<MeetingItem>[];
}
/** Board meetings as Legistar holds them; `agenda`/`minutes` name the document key View.ashx serves, if published. */
const LEGISTAR_MEETINGS: LegistarMeeting[] = [
  {
    meetingDate: '2016-11-01',
    id: '1601',
    agenda: '2016-11-01-agenda',
    minutes: '2016-11-01-minutes',
    // Synthetic rows in the real grid: file numbers, actions and results as the 2016-11-01 minutes print them.
    rows: [
      {
        fileNumber: '161034',
        version: '1',
        agendaNumber: '8',
        name: 'Early Learning Fund',
        type: 'Ordinance',
        action: 'PASSED ON FIRST READING',
        result: 'Pass',
      },
      {
        fileNumber: '161050',
        version: '1',
        agendaNumber: '13',
        name: 'Transbay Block 8',
        type: 'Resolution',
        action: 'ADOPTED',
        result: 'Pass',
      },
    ],
  },
  { meetingDate: '2016-11-15', id: '1602', agenda: '2016-11-15-agenda' },
  { meetingDate: '2017-01-10', id: '1701', agenda: '2017-01-10-agenda' },
  { meetingDate: '2018-01-09', id: '1801' },
  { meetingDate: '2019-10-08', id: '1901', agenda: '2019-10-08-agenda' },
  { meetingDate: '2020-03-31', id: '2001', label: 'Special Meeting', agenda: '2020-03-31-agenda' },
  { meetingDate: '2020-09-15', id: '2002', agenda: '2020-09-15-agenda' },
  { meetingDate: '2021-01-05', id: '2101' },
  { meetingDate: '2022-01-11', id: '2201' },
  { meetingDate: '2023-01-10', id: '2301' },
  { meetingDate: '2024-11-05', id: '2401', minutes: '2024-11-05-minutes' },
  { meetingDate: '2025-09-16', id: '2501' }, // the agenda is on the media host only
  { meetingDate: '2026-03-03', id: '2601', agenda: '2026-03-03-agenda' }, // the minutes are on sfbos.org only
];
const viewDocuments = new Map(
  LEGISTAR_MEETINGS.flatMap((m) => [
    [`A${m.id}`, m.agenda],
    [`M${m.id}`, m.minutes],
  ]),
);

const legistarSite: LegistarSite = {
  feed: (year, root) => {
    if (year === '2026' || !LEGISTAR_FEEDS[year]) return undefined;
    const items: FeedItemSpec[] = LEGISTAR_MEETINGS.filter((m) => m.meetingDate.startsWith(year)).map((m) => ({
      meetingDate: m.meetingDate,
      time: '2:00 PM',
      id: m.id,
      guid: guid(m.id),
      body: 'Board of Supervisors',
    }));
    if (year === '2016')
      items.push({
        meetingDate: '2016-11-02',
        time: '10:00 AM',
        id: '1699',
        guid: guid('1699'),
        body: 'Budget and Finance Committee',
      });
    return renderFeed(root, Number(year), items);
  },
  meetings: Object.fromEntries(
    LEGISTAR_MEETINGS.map((m) => [
      m.id,
      renderMeetingPage({
        meetingDate: m.meetingDate,
        id: m.id,
        guid: guid(m.id),
        label: m.label ?? 'Regular Meeting',
        agendaHref: m.agenda ? viewHref('A', m.id, guid(m.id)) : undefined,
        minutesHref: m.minutes ? viewHref('M', m.id, guid(m.id)) : undefined,
        rows: m.rows ?? [],
      }),
    ]),
  ),
  calendar: (year) =>
    renderCalendar({
      yearShown: year ?? 'This Month',
      rows: LEGISTAR_MEETINGS.filter((m) => year && m.meetingDate.startsWith(year)).map((m) => ({
        body: 'Board of Supervisors',
        meetingDate: m.meetingDate,
        time: '2:00 PM',
        id: m.id,
        guid: guid(m.id),
        agenda: Boolean(m.agenda),
        minutes: Boolean(m.minutes),
      })),
    }),
};

async function legistarRoute(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (url.pathname === '/robots.txt') return send(res, 200, 'text/plain', 'User-agent: *\nDisallow: /Admin/\n');
  if (url.pathname === '/View.ashx') {
    const key =
      url.searchParams.get('GUID') === guid(url.searchParams.get('ID') ?? '')
        ? viewDocuments.get(`${url.searchParams.get('M')}${url.searchParams.get('ID')}`)
        : undefined;
    // A document not published answers an HTML status page, not a PDF (sources.md).
    return key
      ? servePdf(req, res, key)
      : send(res, 200, 'text/html', '<html><body><h1>File not found</h1></body></html>');
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const answer = answerLegistar(
    legistarSite,
    req.method ?? 'GET',
    url,
    Buffer.concat(chunks).toString('utf8'),
    base('legistar'),
  );
  if (!answer) return send(res, 404, 'text/html', '<h1>Page not found</h1>');
  send(res, answer.status, answer.type ?? 'text/html; charset=utf-8', answer.body ?? '', answer.headers);
}

async function startHost(name: keyof typeof hosts, routes: Handler): Promise<void> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mirror');
    const hit: Hit = {
      host: name,
      path: url.pathname + url.search,
      ua: String(req.headers['user-agent'] ?? ''),
      inm: (req.headers['if-none-match'] as string) ?? null,
      status: 0,
      at: Date.now(),
    };
    hits.push(hit);
    res.on('finish', () => (hit.status = res.statusCode));
    const fault = faults.get(`${name}${hit.path}`);
    void (fault ?? routes)(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hosts[name] = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, routes };
}

let work = '';
t.before(async () => {
  const routes = hostRoutes();
  for (const name of Object.keys(routes) as (keyof typeof hosts)[]) await startHost(name, routes[name]);
  for (const [key, name] of Object.entries(REAL)) files.set(key, await readFile(join(CORPUS, 'pdfs', name)));
  for (const key of SYNTHETIC) files.set(key, await syntheticPdf(key.slice(0, 10), key.slice(11)));
  listingPages = archiveListingPages(ARCHIVE_MEETINGS, 2);
  work = await mkdtemp(join(tmpdir(), 'fetch-test-'));
});
t.teardown(async () => {
  for (const h of Object.values(hosts)) {
    h.server.closeAllConnections();
    await new Promise((resolve) => h.server.close(resolve));
  }
  await rm(work, { recursive: true, force: true });
});

const base = (name: keyof typeof hosts) => `${hosts[name].origin}/`;

function config(dest: string, over: Partial<FetchConfig> = {}): FetchConfig {
  return {
    ...defaultConfig({}),
    dest,
    since: '2016-01-01',
    until: '2026-03-31',
    sources: ['archive', 'legistar'],
    archiveBase: base('archive'),
    sfbosBase: base('sfbos'),
    mediaBase: base('media'),
    legistarBase: base('legistar'),
    legistarFeeds: LEGISTAR_FEEDS,
    minMeetingsPerYear: 0,
    concurrency: 3,
    delayMs: 0,
    retries: 1,
    timeoutMs: 1000,
    backoffMs: 10,
    maxRetryAfterMs: 5000,
    ...over,
  };
}

const documentHits = (from: number) =>
  hits.slice(from).filter((h) => /\.pdf$|View\.ashx|\/meeting\/|\/documents\/|files\/bag\d{6}_agenda$/.test(h.path));
const result = (r: FetchReport, key: string) => r.documents.find((d) => d.key === key);
const errorsOf = (r: FetchReport) => r.errors.map((e) => `${e.kind} ${e.url} ${e.message}`).join('\n');

/** Every document the mirror lists, with where the manifest must say it came from. */
const EXPECTED: Record<string, RegExp> = {
  '2016-11-01-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag110116_agenda\.pdf$/,
  '2016-11-01-minutes': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag110116_minutes\.pdf$/,
  '2016-11-15-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag111516_agenda$/,
  '2017-01-10-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag011017_agenda\.pdf$/,
  '2020-03-31-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag033120_agenda\.pdf$/,
  '2024-11-05-minutes': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/m110524\.pdf$/,
};

t.test('config: host roots, per-year feeds with a year added, limits', async (t) => {
  const cfg = configFrom(['--since', '2020-01-01', '--concurrency', '4', '--plan'], {
    DEST: '/x',
    FETCH_SFBOS_BASE: 'http://127.0.0.1:1/mirror',
    FETCH_LEGISTAR_FEEDS: '2026=43067999:0f0e0d0c-0b0a-4908-8706-050403020100,2012=',
    FETCH_MAX_BYTES: '1000',
  });
  t.match(cfg, {
    since: '2020-01-01',
    concurrency: 4,
    dest: '/x',
    sfbosBase: 'http://127.0.0.1:1/mirror/',
    plan: true,
    maxBytes: 1000,
  });
  t.same(
    cfg.legistarFeeds['2026'],
    { id: '43067999', guid: '0f0e0d0c-0b0a-4908-8706-050403020100' },
    "next year's feed added",
  );
  t.notOk(cfg.legistarFeeds['2012'], 'a year dropped');
  t.same(cfg.legistarFeeds['2016'], { id: '43067692', guid: '40eeb97f-f213-462f-8376-caf3dd4502da' }, 'defaults kept');
  t.throws(() => configFrom(['--since', '2020-13-45'], {}), /since/);
  t.throws(() => parseFeeds('2026=abc', {}), /YEAR=ID:GUID/);
  t.throws(() => configFrom(['--archive-base', 'ftp://x/'], {}), /http/);
});

t.test('candidates: listed links first, then each host by year; guesses only for uncovered years', async (t) => {
  const cfg = config('/unused', {
    archiveBase: 'https://a.example/',
    sfbosBase: 'https://s.example/',
    mediaBase: 'https://m.example/',
  });
  const cs = candidatesOf(
    cfg,
    [
      {
        source: 'archive',
        meeting: {
          meetingDate: '2025-03-04',
          label: null,
          documents: [{ kind: 'agenda', url: 'https://a.example/x.pdf' }],
          foundAt: '',
        },
      },
    ],
    ['2026-03-03'],
  );
  t.same(cs.find((c) => c.key === '2025-03-04-agenda')?.urls, [
    'https://a.example/x.pdf',
    'https://m.example/documents/bag030425_agenda.pdf',
    'https://s.example/meeting/agenda/2025/bag030425_agenda',
    'https://a.example/sites/default/files/bag030425_agenda.pdf',
  ]);
  t.match(
    cs.find((c) => c.key === '2025-03-04-minutes'),
    { optional: true, source: 'archive' },
    'an unlisted kind is tried, optional',
  );
  t.match(
    cs.find((c) => c.key === '2026-03-03-minutes'),
    { optional: true, source: 'guess' },
  );
  t.same(guessDays({ ...cfg, since: '2025-12-30', until: '2026-01-06' }, new Set(['2026-01-06']), new Set([2025])), [
    '2026-01-01',
    '2026-01-02',
    '2026-01-05',
  ]);
});

/** The environment that points `make fetch` at the mirror. */
function mirrorEnv(): NodeJS.ProcessEnv {
  const feeds = Object.entries(LEGISTAR_FEEDS)
    .map(([y, f]) => `${y}=${f.id}:${f.guid}`)
    .join(',');
  return {
    ...process.env,
    UNTIL: '2026-03-31',
    FETCH_SOURCES: 'archive,legistar',
    FETCH_ARCHIVE_BASE: base('archive'),
    FETCH_SFBOS_BASE: base('sfbos'),
    FETCH_MEDIA_BASE: base('media'),
    FETCH_LEGISTAR_BASE: base('legistar'),
    FETCH_LEGISTAR_FEEDS: feeds,
    FETCH_MIN_MEETINGS_PER_YEAR: '1',
    FETCH_DELAY_MS: '0',
    FETCH_CONCURRENCY: '3',
    FETCH_RETRIES: '1',
    FETCH_BACKOFF_MS: '10',
    FETCH_TIMEOUT_MS: '5000',
  };
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = mirrorEnv(),
): { done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>; kill: () => void } {
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { done, kill: () => child.kill('SIGKILL') };
}

/** Everything the mirror lists, by meeting and kind, with the public URL the manifest must record. */
const EVERYTHING: Record<string, RegExp> = {
  '2016-11-01-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag110116_agenda\.pdf$/,
  '2016-11-01-minutes': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag110116_minutes\.pdf$/,
  '2016-11-15-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag111516_agenda$/,
  '2017-01-10-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag011017_agenda\.pdf$/,
  '2019-10-08-agenda': /^https:\/\/sfgov\.legistar\.com\/View\.ashx\?M=A&ID=1901&GUID=/,
  '2020-03-31-agenda': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/bag033120_agenda\.pdf$/,
  '2020-09-15-agenda': /^https:\/\/sfgov\.legistar\.com\/View\.ashx\?M=A&ID=2002&GUID=/,
  '2024-11-05-minutes': /^https:\/\/sfbos\.archive\.sf\.gov\/sites\/default\/files\/m110524\.pdf$/,
  '2025-09-16-agenda': /^https:\/\/media\.api\.sf\.gov\/documents\/bag091625_agenda\.pdf$/,
  '2026-03-03-agenda': /^https:\/\/sfgov\.legistar\.com\/View\.ashx\?M=A&ID=2601&GUID=/,
  '2026-03-03-minutes': /^https:\/\/sfbos\.org\/meeting\/minutes\/2026\/bag030326_minutes$/,
};
const fileOf = (key: string) => `pdfs/bag${key.slice(5, 7)}${key.slice(8, 10)}${key.slice(2, 4)}_${key.slice(11)}.pdf`;

t.test(
  'make fetch, end to end over every host: each document with its meeting date, kind and public URL',
  async (t) => {
    const dest = join(work, 'everything');
    const first = await run('make', ['-s', 'fetch', `DEST=${dest}`, 'SINCE=2016-01-01']).done;
    t.equal(first.code, 0, first.stdout + first.stderr);
    const rows = (await readManifest(dest)).rows;
    for (const [key, url] of Object.entries(EVERYTHING)) {
      t.match(
        rows.get(fileOf(key)),
        { meeting_date: key.slice(0, 10), kind: key.slice(11), sha256: sha(files.get(key)!) },
        `${key} fetched`,
      );
      t.match(rows.get(fileOf(key))?.official_url, url, `${key}: ${rows.get(fileOf(key))?.official_url}`);
    }
    t.equal(rows.size, Object.keys(EVERYTHING).length, [...rows.keys()].join(' '));
    t.match(
      first.stdout,
      /^source\s+year\s+meetings\s+documents\s+fetched\s+unchanged\s+failed\s+absent$/m,
      'the table',
    );
    t.match(first.stdout, /^legistar\s+2016\s+2\s/m, 'Legistar lists 2 Board meetings of 2016 (not the committee)');
    t.match(first.stdout, /summary: 11 added, 0 changed, 0 unchanged, 0 failed, \d+ not published; 0 error\(s\)/);
    const report = JSON.parse(await readFile(join(dest, 'fetch-report.json'), 'utf8')) as FetchReport;
    t.match(report, {
      window: { since: '2016-01-01', until: '2026-03-31' },
      totals: { added: 11, failed: 0, errors: 0 },
    });
    t.same(
      report.years.map((y) => y.meetings),
      [2, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1],
      'meetings per year 2016–2026',
    );
    const items = await readMeetingItems(dest);
    t.same(
      items.map((i) => [i.meetingDate, i.fileNumber, i.action, i.result]),
      [
        ['2016-11-01', '161034', 'PASSED ON FIRST READING', 'Pass'],
        ['2016-11-01', '161050', 'ADOPTED', 'Pass'],
      ],
      "the meeting page's rows, a second witness",
    );
    t.match(items[0].meetingUrl, /^https:\/\/sfgov\.legistar\.com\/MeetingDetail\.aspx\?ID=1601&GUID=/);
    t.ok(
      hits.every((h) => h.ua.startsWith('board-records-fetch/')),
      'a descriptive User-Agent on every request',
    );

    const from = hits.length;
    const again = await run('make', ['-s', 'fetch', `DEST=${dest}`, 'SINCE=2016-01-01']).done;
    t.equal(again.code, 0, again.stdout + again.stderr);
    t.match(again.stdout, /summary: 0 added, 0 changed, 11 unchanged, 0 failed/);
    t.same(
      documentHits(from).filter((h) => h.status === 200),
      [],
      'no document body downloaded again',
    );
    t.equal(documentHits(from).filter((h) => h.status === 304).length, 11, 'each revalidated: 304');

    const plan = await run('make', ['-s', 'fetch', `DEST=${join(work, 'plan')}`, 'SINCE=2016-01-01', 'PLAN=1']).done;
    t.equal(plan.code, 0, plan.stderr);
    t.match(plan.stdout, /^plan\tpdfs\/bag030326_minutes\.pdf\tlegistar\t/m, 'PLAN=1 lists what would be fetched');
    t.notOk(existsSync(join(work, 'plan', 'MANIFEST.tsv')), 'and downloads nothing');
  },
);

t.test('a feed that answers "Invalid feed" with 200: an error naming the feed, the rest fetched', async (t) => {
  const dest = join(work, 'invalid-feed');
  await cp(join(work, 'everything'), dest, { recursive: true });
  const before = (await readManifest(dest)).rows;
  const feed = `/Feed.ashx?M=Calendar&ID=${LEGISTAR_FEEDS['2019'].id}&GUID=${LEGISTAR_FEEDS['2019'].guid}&Mode=2019`;
  faults.set(`legistar${feed}`, (_q, res) => send(res, 200, 'text/html', 'Invalid feed'));
  const r = await run('make', ['-s', 'fetch', `DEST=${dest}`, 'SINCE=2016-01-01']).done;
  faults.clear();
  t.not(r.code, 0, 'make fails');
  t.match(r.stderr, /fetch\] Error 1/, 'because the fetcher exits 1');
  t.match(
    r.stdout,
    new RegExp(
      `^error\\tsource\\t${(base('legistar') + feed.slice(1)).replace(/[?.]/g, '\\$&')}\\t.*Invalid feed`,
      'm',
    ),
    r.stdout,
  );
  await nothingLost(t, dest, before);
});

t.test(
  'archive only: every listed document with its meeting date and kind; special meetings; other names',
  async (t) => {
    const dest = join(work, 'archive-only');
    const r = await runFetch(config(dest, { sources: ['archive'] }));
    t.equal(r.errors.length, 0, errorsOf(r));
    const rows = (await readManifest(dest)).rows;
    for (const [key, url] of Object.entries(EXPECTED)) {
      const file = `pdfs/bag${key.slice(5, 7)}${key.slice(8, 10)}${key.slice(2, 4)}_${key.slice(11)}.pdf`;
      const row = rows.get(file);
      t.match(
        row,
        { meeting_date: key.slice(0, 10), kind: key.slice(11), sha256: sha(files.get(key)!) },
        `${key} as ${file}`,
      );
      t.match(row?.official_url, url, `${key}: the public URL it came from`);
    }
    t.equal(rows.size, Object.keys(EXPECTED).length, 'nothing else: 2015 is before SINCE');
    t.match(result(r, '2016-11-15-minutes'), { outcome: 'absent' }, 'unlisted minutes tried by name, not an error');
    t.ok(
      r.sources.some((s) => s.source === 'archive' && s.year === 2016 && s.meetings === 2 && s.fetched === 3),
      formatReport(r),
    );
  },
);

t.test('again: conditional requests, no document body downloaded again', async (t) => {
  const dest = join(work, 'archive-only');
  const from = hits.length;
  const r = await runFetch(config(dest, { sources: ['archive'] }));
  t.equal(r.errors.length, 0, errorsOf(r));
  t.match(r.totals, { added: 0, changed: 0, unchanged: Object.keys(EXPECTED).length });
  const got = documentHits(from);
  t.same(
    got.filter((h) => h.status === 200),
    [],
    'no document body sent',
  );
  t.equal(
    got.filter((h) => h.status === 304 && h.inm).length,
    Object.keys(EXPECTED).length,
    'each held document revalidated: 304',
  );
});

/** A copy of the archive-only corpus, the run's report, and what it held before. */
async function faultRun(
  name: string,
  over: Partial<FetchConfig> = {},
): Promise<{ r: FetchReport; dest: string; before: Map<string, Record<string, string>> }> {
  const dest = join(work, name);
  await cp(join(work, 'archive-only'), dest, { recursive: true });
  const before = (await readManifest(dest)).rows;
  const r = await runFetch(config(dest, { sources: ['archive'], ...over }));
  return { r, dest, before };
}

async function nothingLost(t: Test, dest: string, before: Map<string, Record<string, string>>): Promise<void> {
  const after = (await readManifest(dest)).rows;
  for (const [file, row] of before) {
    t.same(after.get(file), row, `${file} still held`);
    t.equal(sha(await readFile(join(dest, file))), row.sha256, `${file} intact`);
  }
  t.same(
    (await readdir(join(dest, 'pdfs'))).filter((n) => n.endsWith('.part')),
    [],
    'no temp file left',
  );
}

const listingUrl = (page: number) => `${base('archive')}meetings/full-board-meetings${page ? `?page=${page}` : ''}`;

t.test('faults in the listing: an empty page, a missing pager', async (t) => {
  faults.set('archive/meetings/full-board-meetings?page=1', (_q, res) =>
    send(res, 200, 'text/html', listingPages[1].replace(/<tbody>[\s\S]*<\/tbody>/, '<tbody></tbody>')),
  );
  const empty = await faultRun('fault-empty');
  faults.clear();
  t.match(
    errorsOf(empty.r),
    new RegExp(`source ${listingUrl(1).replace(/[?.]/g, '\\$&')} .*no table\\.views-table row`),
    'an empty page names its URL',
  );
  await nothingLost(t, empty.dest, empty.before);

  faults.set('archive/meetings/full-board-meetings', (_q, res) =>
    send(
      res,
      200,
      'text/html',
      listingPages[0].replace(/<div class="pagination" role="navigation">[\s\S]*?<\/ul><\/div>/, ''),
    ),
  );
  const pagerless = await faultRun('fault-pager');
  faults.clear();
  t.match(
    errorsOf(pagerless.r),
    new RegExp(`source ${listingUrl(0).replace(/[?.]/g, '\\$&')} .*pager`),
    'a missing pager names the page',
  );
  await nothingLost(t, pagerless.dest, pagerless.before);
});

t.test('the same bytes under two meetings: an error naming both files', async (t) => {
  const right = files.get('2017-01-10-agenda')!;
  files.set('2017-01-10-agenda', files.get('2016-11-15-agenda')!);
  const { r, dest } = await faultRun('same-bytes');
  files.set('2017-01-10-agenda', right);
  t.match(
    r.errors,
    [
      {
        kind: 'same-bytes',
        message:
          /bag011017_agenda\.pdf \(2017-01-10 agenda\).*bag111516_agenda\.pdf \(2016-11-15 agenda\)|bag111516_agenda\.pdf \(2016-11-15 agenda\).*bag011017_agenda\.pdf \(2017-01-10 agenda\)/,
      },
    ],
    errorsOf(r),
  );
  t.equal(
    (await readManifest(dest)).rows.get('pdfs/bag011017_agenda.pdf')?.sha256,
    sha(files.get('2016-11-15-agenda')!),
    'kept, for the build to judge by its printed date',
  );
});

t.test('faults in downloads: oversized, gzip bomb, stalled, redirected off the configured hosts', async (t) => {
  const path = '/sites/default/files/bag011017_agenda.pdf';
  const url = `${base('archive')}${path.slice(1)}`;
  const over = { maxBytes: 1 << 20, maxDownloadMs: 400, timeoutMs: 2000, retries: 0 };
  // The held copy is removed so the document must be downloaded again.
  const cases: [string, (req: IncomingMessage, res: ServerResponse) => void, RegExp][] = [
    [
      'oversized',
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(50 << 20) });
        res.write(Buffer.alloc(1 << 16));
      },
      /larger than 1048576 bytes/,
    ],
    [
      'gzip-bomb',
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-encoding': 'gzip' });
        const gz = createGzip({ level: 9 });
        gz.pipe(res);
        const zeros = Buffer.alloc(1 << 20);
        let sent = 0;
        const pump = () => {
          while (sent < 1024 && gz.write(zeros)) sent++;
          if (sent < 1024) gz.once('drain', pump);
          else gz.end();
        };
        res.on('close', () => gz.destroy());
        pump();
      },
      /passed 1048576 bytes/,
    ],
    [
      'stalled',
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '1000' });
        const timer = setInterval(() => res.write('%'), 50);
        res.on('close', () => clearInterval(timer));
      },
      /time limit/,
    ],
    [
      'redirect',
      (_q, res) => send(res, 302, 'text/html', '', { location: `${hosts.elsewhere.origin}/bag011017_agenda.pdf` }),
      /host not among the configured sources/,
    ],
  ];
  for (const [name, handler, message] of cases) {
    faults.set(`archive${path}`, handler);
    const dest = join(work, `fault-${name}`);
    await cp(join(work, 'archive-only'), dest, { recursive: true });
    await rm(join(dest, 'pdfs/bag011017_agenda.pdf'));
    const before = (await readManifest(dest)).rows;
    before.delete('pdfs/bag011017_agenda.pdf');
    const r = await runFetch(config(dest, { sources: ['archive'], ...over }));
    faults.clear();
    const error = r.errors.find((e) => e.kind === 'document');
    t.match(error, { url, message: message }, `${name}: the error names the URL and the limit`);
    t.match(result(r, '2017-01-10-agenda'), { outcome: 'failed' });
    t.equal(r.errors.length, 1, `${name}: nothing else failed: ${errorsOf(r)}`);
    await nothingLost(t, dest, before);
  }
});

t.test(
  'guessing, the last resort: every weekday of a year no listing covers, on each host by its pattern',
  async (t) => {
    const dest = join(work, 'guess');
    const from = hits.length;
    const r = await runFetch(config(dest, { sources: ['guess'], since: '2026-03-02', until: '2026-03-06' }));
    t.equal(r.errors.length, 0, errorsOf(r));
    t.match(
      result(r, '2026-03-03-agenda'),
      { outcome: 'added', url: `${base('media')}documents/bag030326_agenda.pdf` },
      'agenda from the media host',
    );
    t.match(
      result(r, '2026-03-03-minutes'),
      { outcome: 'added', url: `${base('sfbos')}meeting/minutes/2026/bag030326_minutes` },
      'minutes from sfbos.org, no .pdf',
    );
    const rows = (await readManifest(dest)).rows;
    t.match(rows.get('pdfs/bag030326_minutes.pdf'), {
      meeting_date: '2026-03-03',
      kind: 'minutes',
      official_url: 'https://sfbos.org/meeting/minutes/2026/bag030326_minutes',
    });
    const days = new Set(
      documentHits(from)
        .map((h) => /bag(\d{6})/.exec(h.path)?.[1])
        .filter(Boolean),
    );
    t.same([...days].sort(), ['030226', '030326', '030426', '030526', '030626'], 'Monday to Friday, not only Tuesday');
    t.equal(r.totals.absent, 8, 'the other weekdays: not published, not errors');
    t.ok(r.sources.some((s) => s.source === 'guess' && s.year === 2026 && s.meetings === 1));
  },
);

t.test('a year with far fewer meetings than the Board holds is an error', async (t) => {
  const r = await runFetch(
    config(join(work, 'archive-only'), {
      sources: ['archive'],
      since: '2017-01-01',
      until: '2017-12-31',
      minMeetingsPerYear: 25,
    }),
  );
  t.match(r.errors, [
    { kind: 'too-few-meetings', expected: /at least 25 meetings in 2017/, message: /2017: 1 meetings/ },
  ]);
  const half = await runFetch(
    config(join(work, 'archive-only'), {
      sources: ['archive'],
      since: '2017-01-01',
      until: '2017-06-30',
      minMeetingsPerYear: 2,
    }),
  );
  t.same(half.years, [{ year: 2017, meetings: 1, expectedAtLeast: 0 }], 'prorated to the days of the window');
  // A window too short for the yearly floor that holds no document: still an error, not an empty success.
  const empty = await runFetch(
    config(join(work, 'archive-empty-window'), { sources: ['archive'], since: '2018-08-01', until: '2018-08-10' }),
  );
  t.same(empty.years, [{ year: 2018, meetings: 0, expectedAtLeast: 0 }]);
  t.match(empty.errors, [
    {
      kind: 'nothing-found',
      expected: 'at least one agenda or minutes between 2018-08-01 and 2018-08-10',
      message: 'no document found by archive (0 meetings listed)',
    },
  ]);
});

t.test(
  'the CLI killed mid-download resumes: finished documents not fetched again, the partial one removed',
  async (t) => {
    const dest = join(work, 'crash');
    let served = 0;
    let child: ReturnType<typeof run> | null = null;
    // The 4th download gets its headers and half its body, then the fetcher is killed.
    onPdf = (res, body) => {
      if (++served < 4) return false;
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
      res.write(body.subarray(0, body.length >> 1), () => setTimeout(() => child!.kill(), 100));
      return true;
    };
    const cli = [
      '--import',
      'tsx',
      'pipelines/fetch/cli.ts',
      '--dest',
      dest,
      '--since',
      '2016-01-01',
      '--concurrency',
      '1',
    ];
    child = run(process.execPath, cli);
    const killed = await child.done;
    onPdf = null;
    for (const h of Object.values(hosts)) h.server.closeAllConnections();
    t.equal(killed.signal, 'SIGKILL');
    t.equal(
      Object.keys(JSON.parse(await readFile(join(dest, STATE_FILE), 'utf8')).documents).length,
      3,
      'state records the three finished',
    );
    t.equal((await readManifest(dest)).rows.size, 3, 'the manifest in step');
    t.equal(
      (await readdir(join(dest, 'pdfs'))).filter((n) => n.endsWith('.part')).length,
      1,
      'the crash left a partial temp file',
    );

    const from = hits.length;
    const second = await run(process.execPath, cli).done;
    t.equal(second.code, 0, second.stdout + second.stderr);
    t.match(second.stderr, /resume: removed 1 temp file/);
    t.match(second.stdout, /summary: 8 added, 0 changed, 3 unchanged, 0 failed/);
    t.equal(documentHits(from).filter((h) => h.status === 304).length, 3, 'finished downloads not repeated');
    t.notMatch(second.stderr + second.stdout, /\r/, 'no progress bar off a terminal');
    t.same(
      (await readdir(join(dest, 'pdfs'))).filter((n) => n.endsWith('.part')),
      [],
    );
  },
);

t.test('make update: fetch, then publish a release only when the corpus changed', async (t) => {
  const dest = join(work, 'update-corpus');
  const lake = join(work, 'update-lake');
  const env = { ...mirrorEnv(), DEST: dest, LAKE: lake, SINCE: '2016-01-01' };
  const update = () => run('make', ['-s', 'update'], env).done;
  const releases = async () => (await readdir(join(lake, 'releases'))).sort();

  const first = await update();
  t.equal(first.code, 0, first.stdout + first.stderr);
  t.match(first.stdout, /summary: 11 added/);
  t.match(first.stderr, /release [0-9a-f]{16}: published/);
  const one = await releases();
  t.equal(one.length, 1);
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const witness = await db.runAndReadAll(
    `SELECT strftime(meeting_date, '%Y-%m-%d') AS d, file_number, action, result FROM read_parquet('${join(lake, 'current')}/legistar_meeting_items.parquet') ORDER BY ALL`,
  );
  t.same(
    witness.getRows(),
    [
      ['2016-11-01', '161034', 'PASSED ON FIRST READING', 'Pass'],
      ['2016-11-01', '161050', 'ADOPTED', 'Pass'],
    ],
    "the meeting pages' rows are in the release",
  );
  db.closeSync();

  const again = await update();
  t.equal(again.code, 0, again.stdout + again.stderr);
  t.match(again.stderr, /release [0-9a-f]{16}: unchanged/);
  t.same(await releases(), one, 'an unchanged corpus publishes nothing');

  const key = '2016-11-01-minutes';
  const draft = files.get(key)!;
  files.set(key, Buffer.concat([draft, Buffer.from('\n% final minutes\n')]));
  const changed = await update();
  files.set(key, draft);
  t.equal(changed.code, 0, changed.stdout + changed.stderr);
  t.match(changed.stdout, /1 changed/);
  const two = await releases();
  t.equal(two.length, 2, 'exactly one new release');
  t.equal(
    await readlink(join(lake, 'current')),
    join(
      'releases',
      two.find((id) => !one.includes(id))!,
    ),
    'lake/current names it',
  );
});
