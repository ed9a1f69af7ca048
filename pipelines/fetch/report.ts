// What a fetch run found and did, per source and year, and every error it met: written to DEST/fetch-report.json and
// printed as a table. An error is anything a person should look at: a listing or feed that failed or read as
// nothing, a document that is not a PDF or could not be fetched, a year with far fewer meetings than the Board
// holds, the same bytes under two meetings.
import type { FetchConfig, SourceName } from './config.ts';
import type { Candidate, Discovery, Kind, ListedMeeting } from './source.ts';
import type { StateEntry } from './state.ts';

export type Outcome = 'added' | 'changed' | 'unchanged' | 'failed' | 'absent' | 'planned';

export interface DocumentResult {
  key: string;
  file: string;
  source: SourceName;
  meetingDate: string;
  kind: Kind;
  outcome: Outcome;
  /** The URL that answered (or the first to try, in a plan). */
  url?: string;
  error?: string;
  sha256?: string;
}

/** One source's year: meetings it listed (guess: weekdays where a document was found), documents tried and how. */
export interface SourceYear {
  source: SourceName;
  year: number;
  meetings: number;
  documents: number;
  fetched: number;
  unchanged: number;
  failed: number;
  absent: number;
}

export interface YearCount {
  year: number;
  meetings: number;
  /** The floor a year in the window is held to (FETCH_MIN_MEETINGS_PER_YEAR, prorated to the window's days). */
  expectedAtLeast: number;
}

export type ErrorKind = 'source' | 'document' | 'too-few-meetings' | 'nothing-found' | 'same-bytes';

export interface FetchError {
  kind: ErrorKind;
  source: SourceName | null;
  url: string;
  expected: string;
  message: string;
}

export interface FetchReport {
  startedAt: string;
  finishedAt: string;
  dest: string;
  window: { since: string; until: string };
  plan: boolean;
  totals: Record<Exclude<Outcome, 'planned'>, number> & { meetings: number; documents: number; errors: number };
  sources: SourceYear[];
  years: YearCount[];
  errors: FetchError[];
  notes: string[];
  documents: DocumentResult[];
}

interface Inputs {
  cfg: FetchConfig;
  startedAt: string;
  discoveries: Discovery[];
  listed: { source: SourceName; meeting: ListedMeeting }[];
  candidates: Candidate[];
  documents: DocumentResult[];
  /** Every document the corpus holds from fetching (this run's and earlier ones'). */
  held: StateEntry[];
}

const FOUND: Outcome[] = ['added', 'changed', 'unchanged'];
const year = (date: string) => Number(date.slice(0, 4));

/** Days of `y` inside [since, until] over the days of `y`. */
function windowShare(y: number, since: string, until: string): number {
  const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
  const from = Math.max(day(`${y}-01-01`), day(since));
  const to = Math.min(day(`${y}-12-31`), day(until));
  return Math.max(0, to - from + 1) / (day(`${y}-12-31`) - day(`${y}-01-01`) + 1);
}

export function buildReport(inp: Inputs): FetchReport {
  const { cfg } = inp;
  const inWindow = (d: string) => d >= cfg.since && d <= cfg.until;
  const errors: FetchError[] = inp.discoveries.flatMap((d) =>
    d.failures.map((f) => ({ kind: 'source' as const, ...f })),
  );
  for (const r of inp.documents) {
    if (r.outcome === 'failed')
      errors.push({
        kind: 'document',
        source: r.source,
        url: r.url ?? inp.candidates.find((c) => c.key === r.key)?.urls[0] ?? '',
        expected: `the ${r.kind} of ${r.meetingDate} as a PDF`,
        message: r.error ?? '',
      });
  }

  const rows = new Map<string, SourceYear>();
  const row = (source: SourceName, y: number) => {
    const key = `${source}|${y}`;
    let r = rows.get(key);
    if (!r)
      rows.set(
        key,
        (r = { source, year: y, meetings: 0, documents: 0, fetched: 0, unchanged: 0, failed: 0, absent: 0 }),
      );
    return r;
  };
  const meetingsBy = new Map<string, Set<string>>();
  const meet = (source: SourceName, date: string) => {
    const key = `${source}|${year(date)}`;
    if (!meetingsBy.has(key)) meetingsBy.set(key, new Set());
    meetingsBy.get(key)!.add(date);
  };
  for (const { source, meeting } of inp.listed) if (inWindow(meeting.meetingDate)) meet(source, meeting.meetingDate);
  for (const r of inp.documents) {
    const agg = row(r.source, year(r.meetingDate));
    if (r.source === 'guess' && FOUND.includes(r.outcome)) meet('guess', r.meetingDate);
    if (r.outcome !== 'absent') agg.documents++;
    if (r.outcome === 'added' || r.outcome === 'changed') agg.fetched++;
    else if (r.outcome === 'unchanged') agg.unchanged++;
    else if (r.outcome === 'failed') agg.failed++;
    else if (r.outcome === 'absent') agg.absent++;
  }
  for (const [key, dates] of meetingsBy) {
    const [source, y] = key.split('|');
    row(source as SourceName, Number(y)).meetings = dates.size;
  }

  // Meetings per year, all sources together, against what the Board holds in a year.
  const allMeetings = new Set([...meetingsBy.values()].flatMap((s) => [...s]));
  const years: YearCount[] = [];
  for (let y = year(cfg.since); y <= year(cfg.until); y++) {
    const meetings = [...allMeetings].filter((d) => year(d) === y).length;
    const expectedAtLeast = Math.floor(cfg.minMeetingsPerYear * windowShare(y, cfg.since, cfg.until));
    years.push({ year: y, meetings, expectedAtLeast });
    // A plan cannot know which guessed weekdays hold a meeting: it checks listed years only.
    const guessedYear = inp.candidates.some((c) => c.source === 'guess' && year(c.meetingDate) === y);
    if (meetings < expectedAtLeast && !(inp.cfg.plan && guessedYear)) {
      errors.push({
        kind: 'too-few-meetings',
        source: null,
        url: '',
        expected: `at least ${expectedAtLeast} meetings in ${y} (the Board meets 30–40 times a year)`,
        message: `${y}: ${meetings} meetings found by ${cfg.sources.join(', ')}; a listing may have changed its shape or stopped early`,
      });
    }
  }

  // The yearly floor prorates to nothing over a short window: a run that found no document at all still fails.
  if (!inp.documents.some((r) => FOUND.includes(r.outcome) || r.outcome === 'planned')) {
    errors.push({
      kind: 'nothing-found',
      source: null,
      url: '',
      expected: `at least one agenda or minutes between ${cfg.since} and ${cfg.until}`,
      message: `no document found by ${cfg.sources.join(', ')} (${allMeetings.size} meetings listed)`,
    });
  }

  const bySha = new Map<string, StateEntry[]>();
  for (const e of inp.held) bySha.set(e.sha256, [...(bySha.get(e.sha256) ?? []), e]);
  for (const [sha, entries] of bySha) {
    if (entries.length < 2) continue;
    const names = entries.map((e) => `${e.file} (${e.meeting_date} ${e.kind})`).join(', ');
    errors.push({
      kind: 'same-bytes',
      source: null,
      url: entries.map((e) => e.source_url).join(' '),
      expected: 'each meeting its own document',
      message: `the same bytes (sha256 ${sha.slice(0, 16)}…) under ${names}`,
    });
  }

  const count = (o: Outcome) => inp.documents.filter((r) => r.outcome === o).length;
  return {
    startedAt: inp.startedAt,
    finishedAt: new Date().toISOString(),
    dest: cfg.dest,
    window: { since: cfg.since, until: cfg.until },
    plan: cfg.plan,
    totals: {
      meetings: allMeetings.size,
      documents: inp.documents.filter((r) => r.outcome !== 'absent').length,
      added: count('added'),
      changed: count('changed'),
      unchanged: count('unchanged'),
      failed: count('failed'),
      absent: count('absent'),
      errors: errors.length,
    },
    sources: [...rows.values()].sort((a, b) => a.year - b.year || a.source.localeCompare(b.source)),
    years,
    errors,
    notes: inp.discoveries.map((d) => `${d.source}: ${d.note}`),
    documents: inp.documents,
  };
}

/** The report as the table printed on stdout: per source and year, then each error on its own line. */
export function formatReport(r: FetchReport): string {
  const head = ['source', 'year', 'meetings', 'documents', 'fetched', 'unchanged', 'failed', 'absent'];
  const body = r.sources.map((s) =>
    [s.source, s.year, s.meetings, s.documents, s.fetched, s.unchanged, s.failed, s.absent].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(head), ...body.map(line)];
  const t = r.totals;
  out.push(
    r.plan
      ? `plan: ${r.documents.length} documents of ${t.meetings} meetings would be tried (nothing downloaded)`
      : `summary: ${t.added} added, ${t.changed} changed, ${t.unchanged} unchanged, ${t.failed} failed, ${t.absent} not published; ${t.errors} error(s)`,
  );
  for (const e of r.errors) out.push(`error\t${e.kind}\t${e.url || '-'}\texpected ${e.expected}: ${e.message}`);
  return out.join('\n') + '\n';
}
