// The housing aggregate: a supervisor's most recent matching recorded position on each housing-related file, with the
// file's unit count by the maximum-unit-mention rule, deterministic totals per position, cautions and evidence.
import type { Release } from '../lake/release.ts';
import type { Urls } from '../http/urls.ts';
import type { Position } from './items.ts';
import { INTERPRETATION_LIMITS, matchedPositions, POSITIONS, resolveAggregateVoter, type AggregateParams } from './votes.ts';

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

export const UNIT_RULE = 'Units per file = the largest unit count mentioned in any record of that file (the maximum-unit-mention rule), never the sum of its mentions: a file that mentions an 80-unit and a 350-unit project counts 350. A file with no unit mention counts 0 units and is still counted as a file.';

export const CAUTIONS = [
  'Unit mentions are what the legislation text says; they are not completed, permitted or occupied units.',
  'The same units may appear in several files of one project (financing, lease, approvals), so unit totals across files can count a project more than once.',
  'Amendments change texts: mentions are read from the records in this release and may differ from the final enacted text.',
  'The housing rule is textual: a file that mentions housing only in passing (a commendation, a code update) is included; read each file\'s signals and evidence.',
];

const HOUSING_FILES = `p.file_number IN (
  SELECT file_number FROM items
  WHERE len(unit_mentions) > 0 OR regexp_matches(concat_ws(' ', title, long_title, text), ?, 'i'))`;

type Row = Record<string, any>;

export async function housingAggregate(release: Release, urls: Urls, p: AggregateParams) {
  const voter = await resolveAggregateVoter(release, p);
  const m = matchedPositions(voter.id, p, HOUSING_FILES, [SIGNAL_PATTERN]);
  const counted = await release.pool.rows(`
    WITH k AS (SELECT * FROM (${m.sql}) WHERE rank = 1),
    units AS (SELECT file_number, max(u.units)::INTEGER AS units FROM (SELECT file_number, unnest(unit_mentions) AS u FROM items) GROUP BY file_number)
    SELECT k.file_number AS "fileNumber", i.matter, i.title, strftime(k.meeting_date, '%Y-%m-%d') AS "meetingDate", k.year::INTEGER AS year,
           k.item_id AS "itemId", k.roll_call_id AS "rollCallId", k.sequence, k.action, k.action_type AS "actionType", k.is_final AS "isFinal",
           k.position, k.name_as_recorded AS "nameAsRecorded", k.roll_calls_in_file AS "matchingRollCalls", coalesce(units.units, 0)::INTEGER AS units,
           k.page::INTEGER AS page, k.vote_url AS "officialUrl"
    FROM k JOIN items i USING (item_id) LEFT JOIN units ON units.file_number = k.file_number
    ORDER BY k.meeting_date DESC, k.file_number`, m.params);

  const byPosition = Object.fromEntries(POSITIONS.map((k) => [k, { files: 0, units: 0 }])) as Record<Position, { files: number; units: number }>;
  for (const r of counted) {
    byPosition[r.position as Position].files += 1;
    byPosition[r.position as Position].units += Number(r.units);
  }
  const shown = counted.slice(0, p.limit);
  const facts = await fileFacts(release, shown.map((r) => String(r.fileNumber)));
  const files = shown.map(({ officialUrl, page, units, ...r }) => {
    const f = facts.get(String(r.fileNumber)) ?? { unitMentions: [], addresses: [], signals: [] };
    return {
      ...r,
      units: Number(units),
      unitMentions: f.unitMentions.map((u) => ({ ...u, transcriptUrl: urls.item(u.itemId) })),
      addresses: f.addresses,
      housingSignals: f.signals,
      evidence: { officialUrl: String(officialUrl), page: Number(page), transcriptUrl: urls.item(String(r.itemId)), markdownUrl: urls.item(String(r.itemId), true) },
    };
  });
  return {
    voter,
    filters: { voter: p.voter, position: p.position ?? null, from: p.from, to: p.to, final: p.final, limit: p.limit },
    housingRule: HOUSING_RULE,
    unitRule: UNIT_RULE,
    cautions: CAUTIONS,
    interpretationLimits: INTERPRETATION_LIMITS,
    totals: {
      files: counted.length,
      units: counted.reduce((a, r) => a + Number(r.units), 0),
      filesWithUnits: counted.filter((r) => Number(r.units) > 0).length,
      byPosition,
    },
    total: counted.length,
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

/** Unit mentions (distinct by count and sentence, from the latest record that has them), addresses and matched signals per file. */
async function fileFacts(release: Release, fileNumbers: string[]): Promise<Map<string, FileFacts>> {
  const out = new Map<string, FileFacts>();
  if (fileNumbers.length === 0) return out;
  const rows = await release.pool.rows(`
    SELECT file_number, item_id, unit_mentions, addresses, concat_ws(' ', title, long_title, text) AS body, official_url
    FROM items WHERE file_number IN (${fileNumbers.map(() => '?').join(', ')})
    ORDER BY file_number, meeting_date DESC, kind DESC, item_id`, fileNumbers);
  for (const r of rows as Row[]) {
    const key = String(r.file_number);
    const f = out.get(key) ?? out.set(key, { unitMentions: [], addresses: [], signals: [] }).get(key)!;
    for (const u of r.unit_mentions ?? []) {
      const units = Number(u.units);
      if (!f.unitMentions.some((x) => x.units === units && x.sentence === u.sentence)) f.unitMentions.push({ units, sentence: String(u.sentence), itemId: String(r.item_id), officialUrl: String(r.official_url) });
    }
    for (const a of r.addresses ?? []) if (!f.addresses.includes(a)) f.addresses.push(a);
    if ((r.unit_mentions ?? []).length && !f.signals.includes('unit mention')) f.signals.push('unit mention');
    for (const s of signalRegexes) if (s.re.test(String(r.body)) && !f.signals.includes(s.label)) f.signals.push(s.label);
  }
  for (const f of out.values()) f.unitMentions.sort((a, b) => b.units - a.units || a.sentence.localeCompare(b.sentence));
  return out;
}
