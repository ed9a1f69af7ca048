// The release's supervisors, read once per release, and `voter` (a surname or full name, as people type it) → exactly
// one reconciled supervisor serving in the years asked, or a 400 that lists the candidates (ambiguous, not serving) or
// the closest recorded names (unknown). The rules are core/roster.ts.
import { describeSupervisor, matchVoter, type RosterEntry, type Supervisor } from '../../core/roster.ts';
import type { Release } from '../lake/release.ts';
import { InvalidParameter } from './errors.ts';

/** Every supervisor of the release with their name variants, by term start then id. */
export function supervisors(release: Release): Promise<RosterEntry[]> {
  return release.memo(
    'supervisors',
    async () =>
      (await release.pool.rows(`
    SELECT supervisor_id AS id, full_name AS "fullName", surname, district::INTEGER AS district, term_from AS "termFrom", term_to AS "termTo",
           name_variants AS "nameVariants"
    FROM supervisors ORDER BY term_from, supervisor_id`)) as unknown as RosterEntry[],
  );
}

/** Every supervisor's full name, by surname then full name (the page's list of voters). */
export async function supervisorNames(release: Release): Promise<string[]> {
  const byName = (a: RosterEntry, b: RosterEntry) =>
    a.surname < b.surname
      ? -1
      : a.surname > b.surname
        ? 1
        : a.fullName < b.fullName
          ? -1
          : a.fullName > b.fullName
            ? 1
            : 0;
  return [...(await supervisors(release))].sort(byName).map((s) => s.fullName);
}

/** A supervisor as answers show it: without the name variants. */
const shown = ({ nameVariants, ...s }: RosterEntry): Supervisor => s;

export async function resolveVoter(
  release: Release,
  parameter: string,
  name: string,
  from: number,
  to: number,
): Promise<Supervisor> {
  const { status, candidates } = matchVoter(await supervisors(release), name, from, to);
  if (status === 'one') return shown(candidates[0]);
  const list = candidates.map(describeSupervisor).join('; ');
  const message = {
    ambiguous: `${parameter} '${name}' matches ${candidates.length} supervisors in ${from}–${to}: ${list}. Give the full name, or narrow from/to to one term.`,
    'not-serving': `${parameter} '${name}' did not serve in ${from}–${to}: ${list}. Widen from/to.`,
    unknown: `${parameter} '${name}' is not a recorded supervisor. Closest recorded names: ${list}.`,
  }[status];
  throw new InvalidParameter([{ parameter, rule: status, message }], { candidates: candidates.map(shown) });
}
