// The housing aggregate: a supervisor's most recent matching recorded position on each housing-related file, with the
// file's unit count by the maximum-unit-mention rule, deterministic totals per position, cautions and evidence.
import { type Position, POSITIONS } from '../../../core/lake/format.ts';
import type { Release } from '../../lake/release.ts';
import { coverageOf } from '../coverage.ts';
import type { Links } from '../links.ts';
import { type LooseRow, Params } from '../sql.ts';
import { keptPositions, positionTable } from './positions.ts';
import { type AggregateParams, INTERPRETATION_LIMITS, resolveAggregateVoter, shownPositions } from './shared.ts';

/** What makes a file housing-related: any of these in a record's title, long title or text (case-insensitive), or a unit mention. */
export const HOUSING_SIGNALS: { label: string; pattern: string }[] = [
  { label: 'housing', pattern: String.raw`\bhousing\b` },
  { label: 'dwelling', pattern: String.raw`\bdwellings?\b` },
  { label: 'residential', pattern: String.raw`\bresidential\b` },
  { label: 'multifamily', pattern: String.raw`\bmulti-?family\b` },
  { label: 'apartments', pattern: String.raw`\bapartments?\b` },
  { label: 'inclusionary', pattern: String.raw`\binclusionary\b` },
  { label: 'below market rate', pattern: String.raw`\bbelow[- ]market[- ]rate\b` },
  { label: 'single room occupancy', pattern: String.raw`\bsingle[- ]room[- ]occupancy\b` },
];
const SIGNAL_PATTERN = HOUSING_SIGNALS.map((s) => s.pattern).join('|');
const signalRegexes = HOUSING_SIGNALS.map((s) => ({ label: s.label, re: new RegExp(s.pattern, 'i') }));

export const HOUSING_RULE = `A file is housing-related when any record of it in this release (agenda or minutes item) has an extracted unit mention ("80-unit", "350 dwelling units"…), or its title, long title or text contains one of: ${HOUSING_SIGNALS.map((s) => `"${s.label}"`).join(', ')} (whole words, case-insensitive; this covers affordable housing and housing revenue bonds). Each file is counted once, by the voter's most recent matching roll call on it (latest meeting, then the last vote in that item).`;

export const UNIT_RULE =
  'Units per file = the largest unit count mentioned in any record of that file (the maximum-unit-mention rule), never the sum of its mentions: a file that mentions an 80-unit and a 350-unit project counts 350. A file with no unit mention counts 0 units and is still counted as a file.';

export const CAUTIONS = [
  'Unit mentions are what the legislation text says; they are not completed, permitted or occupied units.',
  'The same units may appear in several files of one project (financing, lease, approvals), so unit totals across files can count a project more than once.',
  'Amendments change texts: mentions are read from the records in this release and may differ from the final enacted text.',
  "The housing rule is textual: a file that mentions housing only in passing (a commendation, a code update) is included; read each file's signals and evidence.",
];

type Row = LooseRow;

interface HousingFiles {
  /** Per housing-related file: unit mentions, addresses and matched signals (the evidence of the response). */
  facts: Map<string, FileFacts>;
  /** Every housing-related file: its units by the maximum-unit-mention rule. */
  units: Map<string, number>;
}

/**
 * The release's housing-related files, decided once per release on first use: table `housing_files` (file_number,
 * units by the maximum-unit-mention rule) in the release's own in-memory DuckDB, and each file's evidence in memory.
 * The rule is HOUSING_SIGNALS/HOUSING_RULE, applied to every record of the release exactly as a per-request scan would.
 */
function housingFiles(release: Release): Promise<HousingFiles> {
  return release.memo('housing-files', async () => {
    const q = new Params();
    await release.pool.with(async (c) => {
      await c.run(
        `
        CREATE TABLE IF NOT EXISTS housing_files AS
        WITH f AS (SELECT DISTINCT file_number FROM items
                   WHERE len(unit_mentions) > 0 OR regexp_matches(concat_ws(' ', title, long_title, text), ${q.add(SIGNAL_PATTERN)}, 'i')),
        u AS (SELECT file_number, max(m.units) AS units FROM (SELECT file_number, unnest(unit_mentions) AS m FROM items) GROUP BY file_number)
        SELECT f.file_number, coalesce(u.units, 0)::INTEGER AS units FROM f LEFT JOIN u USING (file_number) ORDER BY f.file_number`,
        q.values,
      );
    }, 120_000);
    const facts = new Map<string, FileFacts>();
    const records = release.pool.stream(
      `
      SELECT file_number, item_id, unit_mentions, addresses, concat_ws(' ', title, long_title, text) AS body, official_url
      FROM items WHERE file_number IN (SELECT file_number FROM housing_files)
      ORDER BY file_number, meeting_date DESC, kind DESC, item_id`,
      [],
      120_000,
    );
    for await (const chunk of records) for (const r of chunk) addRecord(facts, r);
    for (const f of facts.values())
      f.unitMentions.sort((a, b) => b.units - a.units || a.sentence.localeCompare(b.sentence));
    const units = new Map(
      (await release.pool.rows('SELECT file_number, units FROM housing_files')).map((r) => [
        String(r.file_number),
        Number(r.units),
      ]),
    );
    return { facts, units };
  });
}

/** Whether each file of the position table is housing-related (1), once per release. */
function housingFlags(release: Release): Promise<Uint8Array> {
  return release.memo('housing-file-flags', async () => {
    const [{ units }, t] = await Promise.all([housingFiles(release), positionTable(release)]);
    return Uint8Array.from(t.files, (f) => (units.has(f) ? 1 : 0));
  });
}

/** The housing files and their flags, read ahead of the first request (src/queries/warm.ts). */
export const warmHousing = (release: Release): Promise<unknown> => housingFlags(release);

export async function housingAggregate(release: Release, links: Links, p: AggregateParams) {
  const voter = await resolveAggregateVoter(release, p);
  const { facts, units } = await housingFiles(release);
  const t = await positionTable(release);
  const housing = await housingFlags(release);
  const kept = keptPositions(t, voter.id, p, true, housing);
  const byPosition = Object.fromEntries(POSITIONS.map((k) => [k, { files: 0, units: 0 }])) as Record<
    Position,
    { files: number; units: number }
  >;
  let withUnits = 0;
  for (const row of kept.rows) {
    const n = units.get(t.files[t.file[row]])!;
    byPosition[POSITIONS[t.position[row]]].files++;
    byPosition[POSITIONS[t.position[row]]].units += n;
    if (n > 0) withUnits++;
  }
  const shown = shownPositions(t, kept, p.limit);
  const files = shown.map(({ officialUrl, page, sharedVote, ...r }) => {
    const f = facts.get(r.fileNumber) ?? { unitMentions: [], addresses: [], signals: [] };
    return {
      ...r,
      units: units.get(r.fileNumber)!,
      unitMentions: f.unitMentions.map((u) => ({ ...u, transcriptUrl: links.item(u.itemId) })),
      addresses: f.addresses,
      housingSignals: f.signals,
      evidence: { officialUrl, page, transcriptUrl: links.item(r.itemId), markdownUrl: links.item(r.itemId, true) },
    };
  });
  const counted = kept.rows.length;
  return {
    coverage: await coverageOf(release, p),
    voter,
    filters: { voter: p.voter, position: p.position ?? null, from: p.from, to: p.to, final: p.final, limit: p.limit },
    housingRule: HOUSING_RULE,
    unitRule: UNIT_RULE,
    cautions: CAUTIONS,
    interpretationLimits: INTERPRETATION_LIMITS,
    totals: {
      files: counted,
      units: Object.values(byPosition).reduce((a, r) => a + r.units, 0),
      filesWithUnits: withUnits,
      byPosition,
    },
    total: counted,
    returned: files.length,
    files,
    release: release.id,
  };
}

interface FileFacts {
  unitMentions: { units: number; sentence: string; itemId: string; officialUrl: string }[];
  addresses: string[];
  signals: string[];
}

/** Adds one record of a file (records come latest first: file, meeting date descending, minutes before agenda, item id) to its facts: unit mentions distinct by count and sentence, addresses, and matched signals. */
function addRecord(out: Map<string, FileFacts>, r: Row): void {
  const key = String(r.file_number);
  const f = out.get(key) ?? out.set(key, { unitMentions: [], addresses: [], signals: [] }).get(key)!;
  for (const u of r.unit_mentions ?? []) {
    const units = Number(u.units);
    if (!f.unitMentions.some((x) => x.units === units && x.sentence === u.sentence))
      f.unitMentions.push({
        units,
        sentence: String(u.sentence),
        itemId: String(r.item_id),
        officialUrl: String(r.official_url),
      });
  }
  for (const a of r.addresses ?? []) if (!f.addresses.includes(a)) f.addresses.push(a);
  if ((r.unit_mentions ?? []).length && !f.signals.includes('unit mention')) f.signals.push('unit mention');
  for (const s of signalRegexes) if (s.re.test(String(r.body)) && !f.signals.includes(s.label)) f.signals.push(s.label);
}
