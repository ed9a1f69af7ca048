// Fetch configuration: defaults, overridable by environment variables and CLI flags, so a mirror can stand in for a source.
import { parseArgs } from 'node:util';

import { type HttpOptions, LIMITS } from './http.ts';

/**
 * How meetings are found, in the order their links are preferred when two list the same meeting: the archive's
 * listing, Legistar's feeds and meeting pages (or its calendar grid), and, last, file names guessed for every weekday.
 */
export const SOURCE_NAMES = ['archive', 'legistar', 'guess'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** A Legistar calendar feed: the site's feed ID and GUID for one year (`Feed.ashx?M=Calendar&ID=…&GUID=…&Mode=YYYY`). */
export interface LegistarFeed {
  id: string;
  guid: string;
}

export interface FetchConfig extends HttpOptions {
  dest: string;
  since: string;
  until: string;
  sources: SourceName[];
  /** Each host's root (scheme, host, `/`): the real paths lie beneath, so a mirror can stand in for a host. */
  archiveBase: string;
  sfbosBase: string;
  mediaBase: string;
  legistarBase: string;
  /** The Board's calendar feed per year; a year without one is read from the calendar grid instead. */
  legistarFeeds: Record<string, LegistarFeed>;
  legistarBody: string;
  /** A whole year in the window with fewer meetings than this is an error (the Board meets 30–40 times a year). */
  minMeetingsPerYear: number;
  /** Print what would be fetched, download nothing. */
  plan: boolean;
}

/** The public roots recorded in the manifest, whatever mirror the bytes came from. */
export const CANONICAL = {
  archive: 'https://sfbos.archive.sf.gov/',
  sfbos: 'https://sfbos.org/',
  media: 'https://media.api.sf.gov/',
  legistar: 'https://sfgov.legistar.com/',
};

/** The Board's per-year calendar feeds (../shared/reference/sources.md, from a public scraper's list). */
export const LEGISTAR_FEEDS: Record<string, LegistarFeed> = {
  '2012': { id: '43067606', guid: '67ef31e5-ed46-4e48-8fbe-6587a4dc6af2' },
  '2013': { id: '43067628', guid: 'bf15dc11-2bea-4d7d-85c5-3fb7c582108f' },
  '2014': { id: '43067643', guid: 'bec6103a-8d35-4ae6-9204-061abff45455' },
  '2015': { id: '43067660', guid: '2711a9f8-c35c-4d88-ab17-507bd82dc9c6' },
  '2016': { id: '43067692', guid: '40eeb97f-f213-462f-8376-caf3dd4502da' },
  '2017': { id: '43067712', guid: '6414f8fd-2eaa-484e-807f-39880b6fba05' },
  '2018': { id: '43067731', guid: 'd92eb129-1f04-49b8-92de-13b6141f86c7' },
  '2019': { id: '43067743', guid: 'a621c99b-4de0-43dc-8734-57f4284a0bf1' },
  '2020': { id: '43067767', guid: '172aa752-68c4-4d99-8ef3-cc0302d86321' },
  '2021': { id: '43067801', guid: '62a8624a-e05e-4d27-8701-b2cfce16cc23' },
  '2022': { id: '43067831', guid: '12caf9d0-228b-4883-98ec-ca93d2d9ed8a' },
  '2023': { id: '43067850', guid: 'd0019ced-be23-40bc-ac18-9229370c5efe' },
  '2024': { id: '43067870', guid: '89d2024e-c297-4d36-b1b0-ad958d220a63' },
  '2025': { id: '43067890', guid: '13a9cb1f-8bab-4352-acbf-e4d936f3fc0a' },
};

const VERSION = '2.0.0';

export function defaultConfig(env: NodeJS.ProcessEnv = process.env): FetchConfig {
  const contact = env.FETCH_CONTACT ? `; ${env.FETCH_CONTACT}` : '';
  return {
    dest: '.cache/corpus',
    since: '2012-01-01',
    until: new Date().toISOString().slice(0, 10),
    sources: [...SOURCE_NAMES],
    archiveBase: CANONICAL.archive,
    sfbosBase: CANONICAL.sfbos,
    mediaBase: CANONICAL.media,
    legistarBase: CANONICAL.legistar,
    legistarFeeds: { ...LEGISTAR_FEEDS },
    legistarBody: 'Board of Supervisors',
    minMeetingsPerYear: 25,
    plan: false,
    userAgent: `board-records-fetch/${VERSION} (San Francisco Board of Supervisors public records indexer; polite, conditional requests${contact})`,
    concurrency: 2,
    delayMs: 1000,
    retries: 4,
    timeoutMs: 30_000,
    backoffMs: 1000,
    maxRetryAfterMs: 300_000,
    maxBytes: LIMITS.maxBytes,
    maxTextBytes: LIMITS.maxTextBytes,
    maxDownloadMs: LIMITS.maxDownloadMs,
  };
}

/** Flag name → config key; each flag also reads the environment variable FETCH_<FLAG> (and SINCE, UNTIL, DEST bare). */
const FLAGS: Record<string, keyof FetchConfig> = {
  dest: 'dest',
  since: 'since',
  until: 'until',
  sources: 'sources',
  plan: 'plan',
  'archive-base': 'archiveBase',
  'sfbos-base': 'sfbosBase',
  'media-base': 'mediaBase',
  'legistar-base': 'legistarBase',
  'legistar-feeds': 'legistarFeeds',
  'legistar-body': 'legistarBody',
  'min-meetings-per-year': 'minMeetingsPerYear',
  'user-agent': 'userAgent',
  concurrency: 'concurrency',
  'delay-ms': 'delayMs',
  retries: 'retries',
  'timeout-ms': 'timeoutMs',
  'backoff-ms': 'backoffMs',
  'max-retry-after-ms': 'maxRetryAfterMs',
  'max-bytes': 'maxBytes',
  'max-text-bytes': 'maxTextBytes',
  'max-download-ms': 'maxDownloadMs',
};

const BARE = ['dest', 'since', 'until'];

export class ConfigError extends Error {}

/** `2026=ID:GUID,2027=ID:GUID`: feeds added to (or replacing) the defaults; `2019=` drops a year's feed. */
export function parseFeeds(raw: string, base: Record<string, LegistarFeed>): Record<string, LegistarFeed> {
  const feeds = { ...base };
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d{4})=(?:(\d+):([0-9a-f-]{36}))?$/i.exec(entry);
    if (!m) throw new ConfigError(`--legistar-feeds: expected YEAR=ID:GUID, got '${entry}'`);
    if (m[2]) feeds[m[1]] = { id: m[2], guid: m[3].toLowerCase() };
    else delete feeds[m[1]];
  }
  return feeds;
}

/** A host root: absolute http(s) URL ending in `/`. */
function hostRoot(flag: string, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`--${flag}: expected an http(s) URL, got '${raw}'`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new ConfigError(`--${flag}: expected an http(s) URL, got '${raw}'`);
  return u.href.endsWith('/') ? u.href : `${u.href}/`;
}

export function configFrom(argv: string[], env: NodeJS.ProcessEnv = process.env): FetchConfig & { help: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(
        Object.keys(FLAGS)
          .filter((f) => f !== 'plan')
          .map((f) => [f, { type: 'string' as const }]),
      ),
      plan: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const cfg = defaultConfig(env) as unknown as Record<string, unknown>;
  for (const [flag, key] of Object.entries(FLAGS)) {
    const envName = BARE.includes(flag) ? flag.toUpperCase() : `FETCH_${flag.toUpperCase().replace(/-/g, '_')}`;
    const given = (values as Record<string, string | boolean | undefined>)[flag];
    const raw = given === true ? '1' : given === false ? undefined : (given ?? (env[envName] || undefined));
    if (raw === undefined) continue;
    if (key === 'plan') cfg.plan = raw !== '0' && raw !== '';
    else if (typeof cfg[key] === 'number') {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0)
        throw new ConfigError(`--${flag}: expected a non-negative number, got '${raw}'`);
      cfg[key] = n;
    } else if (key === 'sources') {
      const list = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const s of list) {
        if (!(SOURCE_NAMES as readonly string[]).includes(s))
          throw new ConfigError(`--sources: unknown source '${s}' (${SOURCE_NAMES.join(', ')})`);
      }
      cfg[key] = list;
    } else if (key === 'legistarFeeds') cfg[key] = parseFeeds(raw, LEGISTAR_FEEDS);
    else if (key.endsWith('Base')) cfg[key] = hostRoot(flag, raw);
    else cfg[key] = raw;
  }
  const out = cfg as unknown as FetchConfig;
  for (const k of ['since', 'until'] as const) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(out[k]) || Number.isNaN(Date.parse(out[k])))
      throw new ConfigError(`${k}: expected YYYY-MM-DD, got '${out[k]}'`);
  }
  if (out.concurrency < 1) throw new ConfigError('--concurrency: at least 1');
  return { ...out, help: Boolean(values.help) };
}

export const USAGE = `usage: tsx pipelines/fetch/cli.ts [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--dest DIR] [--plan] [options]

Fetches Board of Supervisors agendas and minutes into DIR (pdfs/ + MANIFEST.tsv, legistar/meeting_items.csv),
adding to what is there, and writes DIR/fetch-report.json. Exit status 1 if any source or document failed.

  --dest DIR               corpus folder (env DEST; default .cache/corpus)
  --since / --until DATE   meeting-date window (env SINCE, UNTIL; default 2012-01-01 .. today)
  --plan                   list what would be fetched; download no document (env FETCH_PLAN=1; make fetch PLAN=1)
  --sources LIST           ${SOURCE_NAMES.join(',')} (env FETCH_SOURCES)
  --archive-base URL       the Clerk's archive root  (env FETCH_ARCHIVE_BASE;  default ${CANONICAL.archive})
  --sfbos-base URL         sfbos.org root            (env FETCH_SFBOS_BASE;    default ${CANONICAL.sfbos})
  --media-base URL         the sf.gov media host     (env FETCH_MEDIA_BASE;    default ${CANONICAL.media})
  --legistar-base URL      the Legistar site root    (env FETCH_LEGISTAR_BASE; default ${CANONICAL.legistar})
  --legistar-feeds LIST    YEAR=ID:GUID,… calendar feeds added to the defaults of 2012–2025 (env FETCH_LEGISTAR_FEEDS)
  --legistar-body NAME     meeting body to keep (default "Board of Supervisors")
  --min-meetings-per-year N  a whole year with fewer meetings is an error (default 25; prorated for part of a year)
  --concurrency N --delay-ms MS --retries N --timeout-ms MS (idle) --backoff-ms MS --max-retry-after-ms MS
  --max-bytes N            largest document, declared or decoded (default ${LIMITS.maxBytes})
  --max-text-bytes N       largest listing page, feed or robots.txt (default ${LIMITS.maxTextBytes})
  --max-download-ms MS     wall-clock limit per request, however the bytes trickle (default ${LIMITS.maxDownloadMs})
  --user-agent UA          (env FETCH_USER_AGENT; FETCH_CONTACT adds a contact to the default)
`;
