// Fetch configuration: defaults, overridable by environment variables and CLI flags, so a mirror can stand in for a source.
import { parseArgs } from 'node:util';
import type { HttpOptions } from './http.ts';

export type SourceName = 'clerk-archive' | 'legistar';

export interface FetchConfig extends HttpOptions {
  dest: string;
  since: string;
  until: string;
  sources: SourceName[];
  /** Where the `bagMMDDYY_{agenda|minutes}.pdf` files are fetched from (first the official layout, then the archive). */
  clerkBase: string;
  archiveBase: string;
  /** The archive's meeting listing page (links to bag files); when it yields nothing, meeting Tuesdays are probed. */
  clerkListing: string;
  /** Years the Clerk's archive pattern covers; meeting days outside are never probed. */
  probeFrom: string;
  probeUntil: string;
  legistarBase: string;
  /** Calendar feed URL, `{year}` replaced by each year from SINCE to UNTIL. */
  legistarCalendar: string;
  legistarBody: string;
}

/** The public addresses recorded in the manifest, whatever mirror the bytes came from. */
export const CANONICAL = {
  clerk: 'https://sfbos.org/sites/default/files/',
  archive: 'https://sfbos.archive.sf.gov/sites/default/files/',
  legistar: 'https://sfgov.legistar.com/',
};

const VERSION = '2.0.0';

export function defaultConfig(env: NodeJS.ProcessEnv = process.env): FetchConfig {
  const contact = env.FETCH_CONTACT ? `; ${env.FETCH_CONTACT}` : '';
  return {
    dest: '.cache/corpus',
    since: '2012-01-01',
    until: new Date().toISOString().slice(0, 10),
    sources: ['clerk-archive', 'legistar'],
    clerkBase: CANONICAL.clerk,
    archiveBase: CANONICAL.archive,
    clerkListing: 'https://sfbos.archive.sf.gov/meetings/full-board-supervisors',
    probeFrom: '2012-01-01',
    probeUntil: '2024-12-31',
    legistarBase: CANONICAL.legistar,
    legistarCalendar: `${CANONICAL.legistar}Feed.ashx?M=Calendar&Mode={year}&Title=Board+of+Supervisors`,
    legistarBody: 'Board of Supervisors',
    userAgent: `board-records-fetch/${VERSION} (San Francisco Board of Supervisors public records indexer; polite, conditional requests${contact})`,
    concurrency: 2,
    delayMs: 1000,
    retries: 4,
    timeoutMs: 30_000,
    backoffMs: 1000,
    maxRetryAfterMs: 300_000,
  };
}

/** Flag name → config key; each flag also reads the environment variable FETCH_<FLAG> (and SINCE, UNTIL, DEST bare). */
const FLAGS: Record<string, keyof FetchConfig> = {
  dest: 'dest', since: 'since', until: 'until', sources: 'sources',
  'clerk-base': 'clerkBase', 'archive-base': 'archiveBase', 'clerk-listing': 'clerkListing',
  'probe-from': 'probeFrom', 'probe-until': 'probeUntil',
  'legistar-base': 'legistarBase', 'legistar-calendar': 'legistarCalendar', 'legistar-body': 'legistarBody',
  'user-agent': 'userAgent', concurrency: 'concurrency', 'delay-ms': 'delayMs', retries: 'retries',
  'timeout-ms': 'timeoutMs', 'backoff-ms': 'backoffMs', 'max-retry-after-ms': 'maxRetryAfterMs',
};

export class ConfigError extends Error {}

export function configFrom(argv: string[], env: NodeJS.ProcessEnv = process.env): FetchConfig & { help: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: { ...Object.fromEntries(Object.keys(FLAGS).map((f) => [f, { type: 'string' as const }])), help: { type: 'boolean', short: 'h' } },
  });
  const cfg = defaultConfig(env) as unknown as Record<string, unknown>;
  for (const [flag, key] of Object.entries(FLAGS)) {
    const envName = ['dest', 'since', 'until'].includes(flag) ? flag.toUpperCase() : `FETCH_${flag.toUpperCase().replace(/-/g, '_')}`;
    const raw = (values as Record<string, string | undefined>)[flag] ?? (env[envName] || undefined);
    if (raw === undefined) continue;
    if (typeof cfg[key] === 'number') {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0) throw new ConfigError(`--${flag}: expected a non-negative number, got '${raw}'`);
      cfg[key] = n;
    } else if (key === 'sources') {
      const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
      for (const s of list) if (s !== 'clerk-archive' && s !== 'legistar') throw new ConfigError(`--sources: unknown source '${s}' (clerk-archive, legistar)`);
      cfg[key] = list;
    } else cfg[key] = raw;
  }
  const out = cfg as unknown as FetchConfig;
  for (const k of ['since', 'until', 'probeFrom', 'probeUntil'] as const) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(out[k]) || Number.isNaN(Date.parse(out[k]))) throw new ConfigError(`${k}: expected YYYY-MM-DD, got '${out[k]}'`);
  }
  if (out.concurrency < 1) throw new ConfigError('--concurrency: at least 1');
  return { ...out, help: Boolean(values.help) };
}

export const USAGE = `usage: tsx pipelines/fetch/cli.ts [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--dest DIR] [options]

Fetches Board of Supervisors agendas and minutes into DIR (pdfs/ + MANIFEST.tsv), adding to what is there.
Exit status 1 if any document failed.

  --dest DIR               corpus folder (env DEST; default .cache/corpus)
  --since / --until DATE   meeting-date window (env SINCE, UNTIL; default 2012-01-01 .. today)
  --sources LIST           clerk-archive,legistar (env FETCH_SOURCES)
  --clerk-base URL         official files base   (env FETCH_CLERK_BASE;   default ${CANONICAL.clerk})
  --archive-base URL       archive files base    (env FETCH_ARCHIVE_BASE; default ${CANONICAL.archive})
  --clerk-listing URL      archive meeting listing page (env FETCH_CLERK_LISTING)
  --legistar-base URL      (env FETCH_LEGISTAR_BASE; default ${CANONICAL.legistar})
  --legistar-calendar URL  yearly calendar feed, {year} substituted (env FETCH_LEGISTAR_CALENDAR)
  --legistar-body NAME     meeting body to keep (default "Board of Supervisors")
  --concurrency N --delay-ms MS --retries N --timeout-ms MS --backoff-ms MS --max-retry-after-ms MS
  --user-agent UA          (env FETCH_USER_AGENT; FETCH_CONTACT adds a contact to the default)
`;
