// pipelines/fetch against a real HTTP server on loopback that mirrors part of ../shared/corpus (explicit list below),
// in both URL layouts, with a listing page, a Legistar-like yearly calendar feed and a robots.txt.
import t from 'tap';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig, configFrom, type FetchConfig } from '../pipelines/fetch/config.ts';
import { runFetch, type Summary } from '../pipelines/fetch/fetcher.ts';
import { Limiter, parseRetryAfter } from '../pipelines/fetch/http.ts';
import { readManifest } from '../pipelines/fetch/manifest.ts';
import { parseRobots } from '../pipelines/fetch/robots.ts';
import { meetingTuesdays, parseListing } from '../pipelines/fetch/sources/clerk-archive.ts';
import { parseCalendar } from '../pipelines/fetch/sources/legistar.ts';
import { STATE_FILE } from '../pipelines/fetch/state.ts';

const CORPUS = new URL('../../shared/corpus/', import.meta.url).pathname;
const FIXTURE = new URL('../pipelines/fetch/fixtures/legistar-calendar-2025.html', import.meta.url).pathname;
const ROOT = new URL('..', import.meta.url).pathname;

// The mirrored subset: 7 of the 38 documents. Five are reached through the Clerk's listing page (one of them only via
// the archive layout, because robots.txt disallows its sfbos.org-layout path), two through the Legistar calendar.
const LISTED = ['bag110116_agenda.pdf', 'bag110116_minutes.pdf', 'bag111516_agenda.pdf', 'bag011017_agenda.pdf', 'bag092617_agenda.pdf'];
const LEGISTAR = { 'bag100819_agenda.pdf': { id: '9001', explicit: true }, 'bag091520_agenda.pdf': { id: '9002', explicit: false } } as const;
const MIRRORED = [...LISTED, ...Object.keys(LEGISTAR)];
const DISALLOWED = '/sfbos/sites/default/files/bag092617_agenda.pdf';
const guid = (id: string) => `5F0C${id}-AAAA-4BBB-8CCC-0000000${id}`;

type Fault = { kind: '500' | '429' | 'hang' | 'truncate' | 'html'; times: number };
interface Hit { path: string; ua: string; inm: string | null; ims: string | null; status: number; at: number }

const files = new Map<string, Buffer>(); // bag name → bytes currently served
const faults = new Map<string, Fault>(); // request path (with query) → injected fault
const hits: Hit[] = [];
let inFlight = 0;
let maxInFlight = 0;
let onPdf: ((path: string, res: ServerResponse, body: Buffer) => boolean) | null = null;
let origin = '';
const LAST_MODIFIED = 'Tue, 01 Nov 2016 20:00:00 GMT';

const etagOf = (b: Buffer) => `"${createHash('sha256').update(b).digest('hex').slice(0, 16)}"`;

function listingPage(page: number): string {
  const links =
    page === 0
      ? `<li><a href="/sfbos/sites/default/files/bag110116_agenda.pdf">Agenda, November 1, 2016</a></li>
         <li><a href='${origin}/archive/sites/default/files/bag110116_minutes.pdf'>Minutes (Draft), November 1, 2016</a></li>
         <li><a href="/archive/sites/default/files/bag120815_agenda.pdf">Agenda, December 8, 2015 (before SINCE)</a></li>
         <li><a href="/archive/about">About the Clerk</a></li>
         <nav class="pager"><a href="?page=1" title="Go to next page" rel="next">next ›</a></nav>`
      : `<li><a href="/sfbos/sites/default/files/bag111516_agenda.pdf">Agenda, November 15, 2016</a></li>
         <li><a href="/sfbos/sites/default/files/bag011017_agenda.pdf">Agenda, January 10, 2017</a></li>
         <li><a href="/archive/sites/default/files/bag092617_agenda.pdf">Agenda, September 26, 2017</a></li>`;
  return `<!DOCTYPE html><html><head><title>Full Board of Supervisors Meetings</title></head><body><ul>${links}</ul></body></html>`;
}

function calendarFeed(year: string): string {
  const items: string[] = [];
  const item = (title: string, id: string, description = '') =>
    `<item><title>${title}</title><link>${origin}/legistar/MeetingDetail.aspx?ID=${id}&amp;GUID=${guid(id)}&amp;Options=info|&amp;Search=</link>` +
    `<description>${description}</description><category>Board of Supervisors</category></item>`;
  if (year === '2019') {
    items.push(item('Budget and Finance Committee - 10/9/2019 - 10:00 AM', '8001', '&lt;a href="View.ashx?M=A&amp;amp;ID=8001&amp;amp;GUID=x"&gt;Agenda&lt;/a&gt;'));
    items.push(item('Board of Supervisors - 10/8/2019 - 2:00 PM', LEGISTAR['bag100819_agenda.pdf'].id,
      `&lt;a href="View.ashx?M=A&amp;amp;ID=9001&amp;amp;GUID=${guid('9001')}"&gt;Agenda&lt;/a&gt; Minutes: Not available`));
    items.push(item('Board of Supervisors - 10/15/2019 - 2:00 PM (CANCELLED)', '8002'));
  }
  if (year === '2020') items.push(item('Board of Supervisors - 9/15/2020 - 2:00 PM', LEGISTAR['bag091520_agenda.pdf'].id));
  return `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>City and County of San Francisco - Calendar (${year})</title>${items.join('')}</channel></rss>`;
}

function servePdf(req: IncomingMessage, res: ServerResponse, path: string, name: string): number {
  const body = files.get(name);
  if (!body) return send(res, 404, 'text/html', '<h1>Page not found</h1>');
  const fault = faults.get(path);
  if (fault && fault.times > 0) {
    fault.times--;
    switch (fault.kind) {
      case '500': return send(res, 500, 'text/plain', 'Internal Server Error');
      case '429': res.setHeader('retry-after', '1'); return send(res, 429, 'text/plain', 'Too Many Requests');
      case 'hang': return 0; // never answers; the client's timeout must fire
      case 'html': return send(res, 200, 'application/pdf', '<!DOCTYPE html><html><body><h1>Service temporarily unavailable</h1></body></html>');
      case 'truncate':
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
        res.write(body.subarray(0, body.length >> 1), () => res.socket?.destroy());
        return 200;
    }
  }
  const etag = etagOf(body);
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag, 'last-modified': LAST_MODIFIED });
    res.end();
    return 304;
  }
  if (onPdf?.(path, res, body)) return 200;
  res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length, etag, 'last-modified': LAST_MODIFIED });
  res.end(body);
  return 200;
}

function send(res: ServerResponse, status: number, type: string, body: string): number {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return status;
}

function route(req: IncomingMessage, res: ServerResponse): number {
  const url = new URL(req.url ?? '/', origin);
  const path = url.pathname + url.search;
  if (url.pathname === '/robots.txt') {
    return send(res, 200, 'text/plain', `# mirror\nUser-agent: *\nDisallow: ${DISALLOWED}\nDisallow: /private/\n\nUser-agent: other-bot\nDisallow: /\n`);
  }
  if (url.pathname === '/archive/meetings/full-board-supervisors') return send(res, 200, 'text/html', listingPage(Number(url.searchParams.get('page') ?? 0)));
  const file = /^\/(?:sfbos|archive)\/sites\/default\/files\/(bag\d{6}_(?:agenda|minutes)\.pdf)$/.exec(url.pathname);
  if (file) return servePdf(req, res, path, file[1]);
  if (url.pathname === '/legistar/Feed.ashx') return send(res, 200, 'application/rss+xml', calendarFeed(url.searchParams.get('Mode') ?? ''));
  if (url.pathname === '/legistar/View.ashx') {
    const id = url.searchParams.get('ID');
    const entry = Object.entries(LEGISTAR).find(([, v]) => v.id === id && url.searchParams.get('M') === 'A' && url.searchParams.get('GUID') === guid(id));
    if (entry) return servePdf(req, res, path, entry[0]);
  }
  return send(res, 404, 'text/html', '<h1>Page not found</h1>');
}

const server = createServer((req, res) => {
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  res.on('close', () => inFlight--);
  const hit: Hit = { path: req.url ?? '', ua: req.headers['user-agent'] ?? '', inm: (req.headers['if-none-match'] as string) ?? null, ims: (req.headers['if-modified-since'] as string) ?? null, status: 0, at: Date.now() };
  hits.push(hit);
  hit.status = route(req, res);
});

const original = new Map<string, Record<string, string>>();
let work = '';

t.before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const name of MIRRORED) files.set(name, await readFile(join(CORPUS, 'pdfs', name)));
  for (const [file, row] of (await readManifest(CORPUS)).rows) original.set(file, row);
  work = await mkdtemp(join(tmpdir(), 'fetch-test-'));
});
t.teardown(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(work, { recursive: true, force: true });
});

function config(dest: string, over: Partial<FetchConfig> = {}): FetchConfig {
  return {
    ...defaultConfig({}),
    dest,
    since: '2016-01-01',
    until: '2020-12-31',
    clerkBase: `${origin}/sfbos/sites/default/files/`,
    archiveBase: `${origin}/archive/sites/default/files/`,
    clerkListing: `${origin}/archive/meetings/full-board-supervisors`,
    legistarBase: `${origin}/legistar/`,
    legistarCalendar: `${origin}/legistar/Feed.ashx?M=Calendar&Mode={year}`,
    concurrency: 3,
    delayMs: 2,
    retries: 2,
    timeoutMs: 400,
    backoffMs: 20,
    maxRetryAfterMs: 5000,
    ...over,
  };
}

const pdfHits = (from: number) => hits.slice(from).filter((h) => /\.pdf$|View\.ashx/.test(h.path));
const outcome = (s: Summary, key: string) => s.results.find((r) => r.key === key);

async function tempLeftovers(dir: string): Promise<string[]> {
  const names = [...(await readdir(dir)), ...(await readdir(join(dir, 'pdfs'))).map((n) => `pdfs/${n}`)];
  return names.filter((n) => /\.part$|\.tmp$/.test(n));
}

t.test('unit: robots.txt rules', async (t) => {
  const robots = parseRobots(
    'User-agent: *\nDisallow: /private/\nAllow: /private/ok$\nDisallow: /*.cgi\n\nUser-agent: Board-Records-Fetch\nUser-agent: x\nDisallow: /tmp/ # ours\nAllow: /tmp/public\n',
    'board-records-fetch/2.0.0 (test)',
  );
  t.equal(robots.allowed('/tmp/a'), false, 'our own group applies');
  t.equal(robots.allowed('/tmp/public/x'), true, 'longest match wins');
  t.equal(robots.allowed('/private/x'), true, '`*` group ignored when ours exists');
  const star = parseRobots('User-agent: *\nDisallow: /private/\nAllow: /private/ok$\nDisallow: /*.cgi\nDisallow:\n', 'someone/1');
  t.equal(star.allowed('/private/x'), false);
  t.equal(star.allowed('/private/ok'), true, '$ anchor');
  t.equal(star.allowed('/private/ok2'), false);
  t.equal(star.allowed('/a/b.cgi?x=1'), false, '* wildcard');
  t.equal(star.allowed('/'), true);
});

t.test('unit: Legistar calendar parse (HTML grid fixture and RSS)', async (t) => {
  const html = await readFile(FIXTURE, 'utf8');
  const base = 'https://sfgov.legistar.com/Calendar.aspx';
  const v = (m: string, id: string) => `https://sfgov.legistar.com/View.ashx?M=${m}&ID=${id}&GUID=6C0C4B1A-2F1E-4E0B-9A55-1A2B3C4D5E0${id.slice(-1)}`;
  t.same(parseCalendar(html, base, 'Board of Supervisors'), [
    { meetingDate: '2025-01-07', agendaUrl: v('A', '1250001'), minutesUrl: v('M', '1250001'), derived: false },
    { meetingDate: '2025-01-14', agendaUrl: v('A', '1250003'), minutesUrl: null, derived: false },
    { meetingDate: '2025-02-04', agendaUrl: v('A', '1250006'), minutesUrl: v('M', '1250006'), derived: false },
    { meetingDate: '2025-02-04', agendaUrl: v('A', '1250007'), minutesUrl: null, derived: false },
  ], 'committees, the cancelled meeting, iCal and packet links are left out');
  t.same(parseCalendar(html, base, 'Land Use and Transportation Committee').map((m) => m.meetingDate), ['2025-01-27']);
  const rss = `<rss><channel><item><title><![CDATA[Board of Supervisors - 3/4/2025 - 2:00 PM]]></title>
    <link>https://sfgov.legistar.com/MeetingDetail.aspx?ID=77&amp;GUID=G-77&amp;Options=info|&amp;Search=</link></item></channel></rss>`;
  t.same(parseCalendar(rss, 'https://sfgov.legistar.com/Feed.ashx?M=Calendar', 'Board of Supervisors'), [
    { meetingDate: '2025-03-04', agendaUrl: 'https://sfgov.legistar.com/View.ashx?M=A&ID=77&GUID=G-77', minutesUrl: 'https://sfgov.legistar.com/View.ashx?M=M&ID=77&GUID=G-77', derived: true },
  ], 'an item with only MeetingDetail gets derived links');
  t.same(parseCalendar('<html>garbage <tr><td>Board of Supervisors</td><td>13/45/2025</td></tr>', base, 'Board of Supervisors'), [], 'bad date dropped');
});

t.test('unit: listing, Tuesdays, Retry-After, limiter, flags', async (t) => {
  const page = parseListing('<a href="/f/bag110116_minutes.pdf">m</a> <a href=x.pdf>x</a> <a href="/f/bag023017_agenda.pdf">bad date</a> <a rel="next" href="?page=2">next</a>', 'https://h/list');
  t.same(page, { documents: [{ meetingDate: '2016-11-01', kind: 'minutes', url: 'https://h/f/bag110116_minutes.pdf' }], next: 'https://h/list?page=2' });
  t.same(meetingTuesdays('2016-10-26', '2016-11-15'), ['2016-11-01', '2016-11-08', '2016-11-15']);
  t.equal(parseRetryAfter('3'), 3000);
  t.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10_000);
  t.equal(parseRetryAfter('soon'), undefined);
  const limiter = new Limiter(2, 15);
  let active = 0;
  let peak = 0;
  const starts: number[] = [];
  await Promise.all(Array.from({ length: 6 }, () => limiter.run(async () => {
    starts.push(Date.now());
    peak = Math.max(peak, ++active);
    await new Promise((r) => setTimeout(r, 40));
    active--;
  })));
  t.equal(peak, 2, 'never more than N at once');
  // Starts are scheduled 15 ms apart; a busy event loop may wake one late, so check the span, not each gap.
  t.ok(starts[5] - starts[0] >= 5 * 15 - 10, `starts spaced by the delay (${starts.map((s) => s - starts[0])})`);
  const cfg = configFrom(['--since', '2020-01-01', '--concurrency', '4'], { DEST: '/x', FETCH_CLERK_BASE: 'http://127.0.0.1:1/f/' });
  t.match(cfg, { since: '2020-01-01', concurrency: 4, dest: '/x', clerkBase: 'http://127.0.0.1:1/f/' });
  t.throws(() => configFrom(['--since', '2020-13-45'], {}));
});

t.test('fetch into an empty folder: the manifest equals the original for the mirrored subset', async (t) => {
  const dest = join(work, 'corpus');
  const from = hits.length;
  const cfg = config(dest);
  const s = await runFetch(cfg);
  t.match(s, { added: 7, changed: 0, unchanged: 0, failed: 0, absent: 1 }, JSON.stringify(s.results));
  t.equal(outcome(s, '2020-09-15-minutes')?.outcome, 'absent', 'derived minutes link not published: not a failure');

  const got = (await readManifest(dest)).rows;
  t.same([...got.keys()], MIRRORED.map((n) => `pdfs/${n}`).sort(), 'rows sorted by file');
  for (const [file, row] of got) {
    const want = original.get(file)!;
    const legistar = LEGISTAR[file.slice(5) as keyof typeof LEGISTAR];
    if (legistar) {
      const { official_url: _o, archive_url: _a, ...rest } = want;
      t.same({ ...row, official_url: undefined, archive_url: undefined }, { ...rest, official_url: undefined, archive_url: undefined }, `${file} (Legistar)`);
      t.equal(row.official_url, `https://sfgov.legistar.com/View.ashx?M=A&ID=${legistar.id}&GUID=${guid(legistar.id)}`, 'public Legistar URL recorded');
    } else t.same(row, want, file);
  }
  for (const name of MIRRORED) {
    const bytes = await readFile(join(dest, 'pdfs', name));
    t.equal(createHash('sha256').update(bytes).digest('hex'), original.get(`pdfs/${name}`)!.sha256, `${name} on disk`);
  }

  const run = hits.slice(from);
  t.ok(run.every((h) => h.ua === cfg.userAgent), 'descriptive User-Agent on every request');
  t.notOk(run.some((h) => h.path === DISALLOWED), 'robots.txt Disallow honoured');
  t.ok(run.some((h) => h.path === '/archive/sites/default/files/bag092617_agenda.pdf' && h.status === 200), 'fell back to the archive layout');
  t.notOk(run.some((h) => h.path.includes('bag120815')), 'listing entries before SINCE are not fetched');
  t.ok(run.some((h) => h.path.includes('page=1')), 'listing pager followed');
  t.equal(run.filter((h) => h.path === '/robots.txt').length, 1, 'robots.txt fetched once per origin');
  t.ok(maxInFlight <= cfg.concurrency, `at most ${cfg.concurrency} requests at once (saw ${maxInFlight})`);
  t.same(await tempLeftovers(dest), []);
});

t.test('fetch again: conditional requests, nothing downloaded', async (t) => {
  const dest = join(work, 'corpus');
  const from = hits.length;
  const s = await runFetch(config(dest));
  t.match(s, { added: 0, changed: 0, unchanged: 7, failed: 0 });
  const pdfs = pdfHits(from).filter((h) => h.status !== 404);
  t.equal(pdfs.length, 7);
  t.ok(pdfs.every((h) => h.status === 304 && h.inm && h.ims === LAST_MODIFIED), 'every document answered 304 to If-None-Match/If-Modified-Since');
});

t.test('a damaged local copy is downloaded again and repaired; the source did not change', async (t) => {
  const dest = join(work, 'corpus');
  const name = 'bag111516_agenda.pdf';
  await writeFile(join(dest, 'pdfs', name), 'damaged');
  const from = hits.length;
  const s = await runFetch(config(dest));
  t.match(s, { added: 0, changed: 0, unchanged: 7, failed: 0 });
  const got = pdfHits(from).filter((h) => h.status === 200);
  t.same(got.map((h) => [h.path, h.inm]), [[`/sfbos/sites/default/files/${name}`, null]], 'unconditional request for the damaged file only');
  t.equal(createHash('sha256').update(await readFile(join(dest, 'pdfs', name))).digest('hex'), original.get(`pdfs/${name}`)!.sha256);
});

t.test('one file changes on the mirror (draft minutes → final): only it is fetched, same row, new sha256', async (t) => {
  const dest = join(work, 'corpus');
  const name = 'bag110116_minutes.pdf';
  const before = (await readManifest(dest)).rows;
  files.set(name, Buffer.concat([files.get(name)!, Buffer.from('\n% final minutes\n')]));
  const from = hits.length;
  const s = await runFetch(config(dest));
  t.match(s, { added: 0, changed: 1, unchanged: 6, failed: 0 });
  t.same(pdfHits(from).filter((h) => h.status === 200).map((h) => h.path), [`/sfbos/sites/default/files/${name}`]);
  const after = (await readManifest(dest)).rows;
  t.equal(after.size, before.size);
  const row = after.get(`pdfs/${name}`)!;
  t.equal(row.sha256, createHash('sha256').update(files.get(name)!).digest('hex'));
  t.not(row.sha256, before.get(`pdfs/${name}`)!.sha256);
  t.same({ ...row, sha256: '', bytes: '' }, { ...before.get(`pdfs/${name}`)!, sha256: '', bytes: '' }, 'same meeting, same row');
  files.set(name, await readFile(join(CORPUS, 'pdfs', name)));
});

t.test('faults: 500s and 429 retried; timeout, truncated body and HTML-as-PDF reported; the rest completes', async (t) => {
  const dest = join(work, 'faults');
  await mkdir(join(dest, 'pdfs'), { recursive: true });
  // An existing corpus row the sources do not list is preserved.
  const kept = original.get('pdfs/bag121316_agenda.pdf')!;
  await copyFile(join(CORPUS, 'pdfs/bag121316_agenda.pdf'), join(dest, 'pdfs/bag121316_agenda.pdf'));
  await writeFile(join(dest, 'MANIFEST.tsv'), `${Object.keys(kept).join('\t')}\n${Object.values(kept).join('\t')}\n`);
  const legistarPath = `/legistar/View.ashx?M=A&ID=9001&GUID=${guid('9001')}`;
  faults.set('/sfbos/sites/default/files/bag110116_agenda.pdf', { kind: '500', times: 2 });
  faults.set('/sfbos/sites/default/files/bag111516_agenda.pdf', { kind: '429', times: 1 });
  faults.set('/sfbos/sites/default/files/bag011017_agenda.pdf', { kind: 'hang', times: 99 });
  faults.set('/sfbos/sites/default/files/bag110116_minutes.pdf', { kind: 'truncate', times: 99 });
  faults.set(legistarPath, { kind: 'html', times: 99 });
  const from = hits.length;
  const s = await runFetch(config(dest));
  t.match(s, { added: 4, changed: 0, unchanged: 0, failed: 3, absent: 1 }, JSON.stringify(s.results));
  t.equal(outcome(s, '2016-11-01-agenda')?.outcome, 'added', '500s retried');
  t.equal(hits.slice(from).filter((h) => h.path.endsWith('bag110116_agenda.pdf')).length, 3);
  const r429 = hits.slice(from).filter((h) => h.path.endsWith('bag111516_agenda.pdf'));
  t.equal(outcome(s, '2016-11-15-agenda')?.outcome, 'added', '429 retried');
  t.ok(r429.length === 2 && r429[1].at - r429[0].at >= 950, 'Retry-After: 1 honoured');
  t.match(outcome(s, '2017-01-10-agenda'), { outcome: 'failed', error: /timeout/ });
  t.equal(hits.slice(from).filter((h) => h.path.endsWith('bag011017_agenda.pdf')).length, 3, 'timeout retried, then reported');
  t.match(outcome(s, '2016-11-01-minutes'), { outcome: 'failed', error: /cut short after \d+ of \d+ bytes|truncated/ });
  t.match(outcome(s, '2019-10-08-agenda'), { outcome: 'failed', error: /not a PDF/ });
  t.same(await tempLeftovers(dest), [], 'nothing half-written');
  t.same((await readdir(join(dest, 'pdfs'))).sort(), ['bag091520_agenda.pdf', 'bag092617_agenda.pdf', 'bag110116_agenda.pdf', 'bag111516_agenda.pdf', 'bag121316_agenda.pdf']);
  const rows = (await readManifest(dest)).rows;
  t.same([...rows.keys()], ['pdfs/bag091520_agenda.pdf', 'pdfs/bag092617_agenda.pdf', 'pdfs/bag110116_agenda.pdf', 'pdfs/bag111516_agenda.pdf', 'pdfs/bag121316_agenda.pdf']);
  t.same(rows.get('pdfs/bag121316_agenda.pdf'), kept, 'existing row preserved');

  faults.clear();
  const again = await runFetch(config(dest));
  t.match(again, { added: 3, changed: 0, unchanged: 4, failed: 0 }, 'the failed ones are fetched on the next run');
  t.equal((await readManifest(dest)).rows.size, 8);
});

t.test('no listing: meeting Tuesdays are probed', async (t) => {
  const dest = join(work, 'probe');
  const from = hits.length;
  const s = await runFetch(config(dest, { clerkListing: `${origin}/archive/no-such-listing`, sources: ['clerk-archive'], since: '2016-10-25', until: '2016-11-16' }));
  t.match(s, { added: 3, failed: 0, absent: 5 });
  const probed = new Set(pdfHits(from).map((h) => /bag(\d{6})/.exec(h.path)![1]));
  t.same([...probed].sort(), ['102516', '110116', '110816', '111516']);
});

function cli(dest: string, extra: string[] = []): { done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>; kill: () => void } {
  const flags = ['--dest', dest, '--since', '2016-01-01', '--until', '2020-12-31', '--clerk-base', `${origin}/sfbos/sites/default/files/`,
    '--archive-base', `${origin}/archive/sites/default/files/`, '--clerk-listing', `${origin}/archive/meetings/full-board-supervisors`,
    '--legistar-base', `${origin}/legistar/`, '--legistar-calendar', `${origin}/legistar/Feed.ashx?M=Calendar&Mode={year}`,
    '--concurrency', '1', '--delay-ms', '2', '--retries', '1', '--timeout-ms', '2000', '--backoff-ms', '10', ...extra];
  const child = spawn(process.execPath, ['--import', 'tsx', 'pipelines/fetch/cli.ts', ...flags], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { done, kill: () => child.kill('SIGKILL') };
}

t.test('CLI: killed mid-download, resumes; exit status says whether anything failed', async (t) => {
  const dest = join(work, 'crash');
  let served = 0;
  let run: ReturnType<typeof cli> | null = null;
  // The 4th download gets headers and half its body, then the fetcher is killed.
  onPdf = (_path, res, body) => {
    if (++served < 4) return false;
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
    res.write(body.subarray(0, body.length >> 1), () => setTimeout(() => run!.kill(), 100));
    return true;
  };
  run = cli(dest);
  const killed = await run.done;
  onPdf = null;
  server.closeAllConnections();
  t.equal(killed.signal, 'SIGKILL');
  const state = JSON.parse(await readFile(join(dest, STATE_FILE), 'utf8'));
  t.equal(Object.keys(state.documents).length, 3, 'state records the three finished downloads');
  t.equal((await readManifest(dest)).rows.size, 3, 'manifest kept in step');
  t.equal((await tempLeftovers(dest)).length, 1, 'the crash left a partial temp file');

  faults.set(`/legistar/View.ashx?M=A&ID=9001&GUID=${guid('9001')}`, { kind: 'html', times: 99 });
  const from = hits.length;
  const second = await cli(dest).done;
  faults.clear();
  t.equal(second.code, 1, 'exit status 1 when a document failed');
  t.match(second.stdout, /summary: 3 added, 0 changed, 3 unchanged, 1 failed, 1 not published/);
  t.match(second.stdout, /failed\tpdfs\/bag100819_agenda\.pdf\t.*not a PDF/);
  t.match(second.stderr, /resume: removed 1 temp file/);
  t.match(second.stderr, /^discover clerk-archive: 5 documents listed/m);
  t.notMatch(second.stderr + second.stdout, /\r/, 'no progress bar off a terminal');
  t.equal(pdfHits(from).filter((h) => h.status === 304).length, 3, 'finished downloads not repeated');
  t.same(await tempLeftovers(dest), []);

  const third = await cli(dest).done;
  t.equal(third.code, 0, third.stderr);
  t.match(third.stdout, /summary: 1 added, 0 changed, 6 unchanged, 0 failed/);
  t.equal((await readManifest(dest)).rows.size, 7);
});

t.test('make update: fetch, then publish a release only when the corpus changed', async (t) => {
  const dest = join(work, 'update-corpus');
  const lake = join(work, 'update-lake');
  const env = {
    ...process.env, DEST: dest, LAKE: lake, SINCE: '2016-01-01', UNTIL: '2020-12-31',
    FETCH_CLERK_BASE: `${origin}/sfbos/sites/default/files/`, FETCH_ARCHIVE_BASE: `${origin}/archive/sites/default/files/`,
    FETCH_CLERK_LISTING: `${origin}/archive/meetings/full-board-supervisors`, FETCH_LEGISTAR_BASE: `${origin}/legistar/`,
    FETCH_LEGISTAR_CALENDAR: `${origin}/legistar/Feed.ashx?M=Calendar&Mode={year}`, FETCH_DELAY_MS: '2', FETCH_CONCURRENCY: '3',
  };
  const make = () => new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('make', ['-s', 'update'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
  const releases = async () => (await readdir(join(lake, 'releases'))).sort();

  const first = await make();
  t.equal(first.code, 0, first.out);
  t.match(first.out, /summary: 7 added/);
  t.match(first.out, /release [0-9a-f]{16}: published/);
  const one = await releases();
  t.equal(one.length, 1);

  const again = await make();
  t.equal(again.code, 0, again.out);
  t.match(again.out, /release [0-9a-f]{16}: unchanged/);
  t.same(await releases(), one, 'an unchanged corpus publishes nothing');

  const name = 'bag110116_minutes.pdf';
  files.set(name, Buffer.concat([files.get(name)!, Buffer.from('\n% final minutes\n')]));
  const changed = await make();
  files.set(name, await readFile(join(CORPUS, 'pdfs', name)));
  t.equal(changed.code, 0, changed.out);
  t.match(changed.out, /1 changed/);
  const two = await releases();
  t.equal(two.length, 2, 'exactly one new release');
  const current = await readlink(join(lake, 'current'));
  t.equal(current, join('releases', two.find((id) => !one.includes(id))!), 'lake/current names the new release');
});
