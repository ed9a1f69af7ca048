// `voter` (a surname or full name, as people type it) → exactly one reconciled supervisor serving in the years asked,
// or a 400 that lists the candidates (ambiguous) or the closest recorded names (unknown).
import type { Release } from '../lake/release.ts';
import { BadRequest } from '../http/errors.ts';
import { distance, normalize } from '../../core/text/analysis.ts';

export interface Supervisor {
  id: string;
  fullName: string;
  surname: string;
  district: number | null;
  termFrom: string;
  termTo: string | null;
}

const COLUMNS = `supervisor_id AS id, full_name AS "fullName", surname, district::INTEGER AS district, term_from AS "termFrom", term_to AS "termTo"`;

const clean = (name: string) => normalize(name).replace(/^(supervisor|sup\.?|president)\s+/, '').replace(/[^\p{L}\s'-]/gu, ' ').replace(/\s+/g, ' ').trim();

const term = (s: Supervisor) => `${s.termFrom}–${s.termTo ?? 'present'}`;
export const describeSupervisor = (s: Supervisor) => `${s.fullName} (${s.district ? `District ${s.district}, ` : ''}${term(s)})`;

/** Whether a term (YYYY-MM months) overlaps the years from..to. */
const serves = (s: Supervisor, from: number, to: number) => Number(s.termFrom.slice(0, 4)) <= to && (s.termTo === null || Number(s.termTo.slice(0, 4)) >= from);

export async function resolveVoter(release: Release, parameter: string, name: string, from: number, to: number): Promise<Supervisor> {
  const wanted = clean(name);
  const all = (await release.pool.rows(`SELECT ${COLUMNS}, name_variants AS variants FROM supervisors ORDER BY term_from, supervisor_id`)) as unknown as (Supervisor & { variants: string[] })[];
  const named = all.filter((s) => s.id === name.trim() || [s.fullName, s.surname, s.id.replace(/-/g, ' '), ...(s.variants ?? [])].some((n) => clean(n) === wanted));
  const inRange = named.filter((s) => serves(s, from, to));
  const strip = ({ variants, ...s }: Supervisor & { variants?: string[] }) => s;
  if (inRange.length === 1) return strip(inRange[0]);
  if (inRange.length > 1) {
    throw new BadRequest(
      [{ parameter, rule: 'ambiguous', message: `${parameter} '${name}' matches ${inRange.length} supervisors in ${from}–${to}: ${inRange.map(describeSupervisor).join('; ')}. Give the full name, or narrow from/to to one term.` }],
      { candidates: inRange.map(strip) },
    );
  }
  if (named.length > 0) {
    throw new BadRequest(
      [{ parameter, rule: 'not-serving', message: `${parameter} '${name}' did not serve in ${from}–${to}: ${named.map(describeSupervisor).join('; ')}. Widen from/to.` }],
      { candidates: named.map(strip) },
    );
  }
  const closest = all
    .map((s) => ({ s, d: Math.min(distance(wanted, clean(s.surname)), distance(wanted, clean(s.fullName))) }))
    .sort((a, b) => a.d - b.d || a.s.fullName.localeCompare(b.s.fullName))
    .slice(0, 3)
    .map((x) => x.s);
  throw new BadRequest(
    [{ parameter, rule: 'unknown', message: `${parameter} '${name}' is not a recorded supervisor. Closest recorded names: ${closest.map(describeSupervisor).join('; ')}.` }],
    { candidates: closest.map(strip) },
  );
}
