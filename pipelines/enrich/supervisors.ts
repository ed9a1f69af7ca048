// Supervisor identities: the roster facts (pipelines/data/supervisors.tsv) and reconciliation of recorded names (the
// terms and name keys: core/roster.ts).
// Roll calls print surnames only, and surnames repeat across years (Mar) or nearly collide (Chu/Chiu, Chan/Chen),
// so a surname resolves by the meeting's own roster first and by term dates second. Matching is exact on the
// whole surname (case-insensitive): a near miss is never "corrected" into a neighbour.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { supervisorId } from '../../core/lake/ids.ts';
import { nameKey, RECORDED_TITLE, servesOn } from '../../core/roster.ts';
import type { SupervisorRecord } from '../records.ts';

export const ROSTER_PATH = fileURLToPath(new URL('../data/supervisors.tsv', import.meta.url));

export function parseRoster(tsv: string): SupervisorRecord[] {
  const [head, ...rows] = tsv.split(/\r?\n/).filter((l) => l.trim() !== '');
  const cols = head.split('\t');
  return rows.map((r) => {
    const v = Object.fromEntries(r.split('\t').map((x, i) => [cols[i], x.trim()]));
    const words = v.full_name.split(/\s+/);
    const variants = new Set([v.surname, v.full_name, `${words[0]} ${words[words.length - 1]}`]);
    return {
      id: supervisorId(v.full_name),
      surname: v.surname,
      fullName: v.full_name,
      district: v.district ? Number(v.district) : null,
      termFrom: v.from,
      termTo: v.to || null,
      nameVariants: [...variants],
    };
  });
}

export function loadRoster(path = ROSTER_PATH): SupervisorRecord[] {
  return parseRoster(readFileSync(path, 'utf8'));
}

export function membersOnDate(roster: SupervisorRecord[], date: string): SupervisorRecord[] {
  return roster.filter((s) => servesOn(s, date));
}

export interface Resolution {
  id: string | null;
  status: 'resolved' | 'ambiguous' | 'unresolved';
  candidates: SupervisorRecord[];
}

const surnameOf = (fullName: string) => fullName.trim().split(/\s+/).pop() ?? '';

/**
 * Resolves a recorded name (surname or full name, any case; `Supervisor ` prefixes ignored) to one identity.
 * Order: full name or variant → the meeting's own roster (full names from "Members Present"/cover) → term dates.
 * `meetingDate` may be '' (e.g. a search filter): then a surname shared by several members is ambiguous.
 */
export function resolveName(
  name: string,
  meetingDate: string,
  roster: SupervisorRecord[],
  meetingRoster?: string[],
): Resolution {
  const k = nameKey(name.replace(RECORDED_TITLE, '').replace(/[.,;]+$/, ''));
  if (k === '') return { id: null, status: 'unresolved', candidates: [] };
  const byFull = roster.filter((s) => s.nameVariants.some((v) => nameKey(v) === k && v !== s.surname));
  if (byFull.length === 1) return { id: byFull[0].id, status: 'resolved', candidates: byFull };
  const bySurname = byFull.length > 1 ? byFull : roster.filter((s) => nameKey(s.surname) === k);
  const dated = /^\d{4}-\d{2}/.test(meetingDate);
  if (meetingRoster && meetingRoster.length > 0) {
    const present = meetingRoster.filter((full) => nameKey(surnameOf(full)) === k || nameKey(full) === k);
    if (present.length === 1) {
      const full = nameKey(present[0]);
      const first = full.split(' ')[0];
      const match = bySurname.filter(
        (s) =>
          nameKey(s.fullName) === full ||
          (nameKey(s.surname) === nameKey(surnameOf(full)) && nameKey(s.fullName).startsWith(first + ' ')),
      );
      if (match.length === 1) return { id: match[0].id, status: 'resolved', candidates: match };
      if (match.length === 0 && bySurname.length === 0)
        return { id: supervisorId(present[0]), status: 'resolved', candidates: [] };
    }
  }
  if (bySurname.length === 0) return { id: null, status: 'unresolved', candidates: [] };
  if (!dated) {
    return bySurname.length === 1
      ? { id: bySurname[0].id, status: 'resolved', candidates: bySurname }
      : { id: null, status: 'ambiguous', candidates: bySurname };
  }
  for (const slack of [0, 2]) {
    const inTerm = bySurname.filter((s) => servesOn(s, meetingDate, slack));
    if (inTerm.length === 1) return { id: inTerm[0].id, status: 'resolved', candidates: inTerm };
    if (inTerm.length > 1) return { id: null, status: 'ambiguous', candidates: inTerm };
  }
  // The surname is known but nobody by that name sat on this date: do not guess.
  return { id: null, status: 'unresolved', candidates: bySurname };
}
