// Supervisor identities: the roster facts (pipelines/data/supervisors.tsv) and reconciliation of recorded names.
// Roll calls print surnames only, and surnames repeat across years (Mar) or nearly collide (Chu/Chiu, Chan/Chen),
// so a surname resolves by the meeting's own roster first and by term dates second. Matching is exact on the
// whole surname (case-insensitive): a near miss is never "corrected" into a neighbour.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { supervisorId } from '../../core/lake/ids.ts';
import type { SupervisorRecord } from '../records.ts';

export const ROSTER_PATH = fileURLToPath(new URL('../data/supervisors.tsv', import.meta.url));

// Every recorded name is matched against the same few roster and member names: each one's key is computed once
// (a bounded cache; the names of a corpus are a few hundred).
const keys = new Map<string, string>();
const key = (s: string) => {
  let k = keys.get(s);
  if (k === undefined) {
    if (keys.size >= 10000) keys.clear();
    keys.set(s, k = s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim());
  }
  return k;
};

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

/** Months since year 0, from `YYYY-MM` or `YYYY-MM-DD`. */
const month = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)) - 1;

/** Whether `date` lies in the member's term, widened by `slack` months (term months are approximate). */
function serving(s: SupervisorRecord, date: string, slack = 0): boolean {
  const m = month(date);
  return month(s.termFrom) - slack <= m && (s.termTo === null || m <= month(s.termTo) + slack);
}

export function membersOnDate(roster: SupervisorRecord[], date: string): SupervisorRecord[] {
  return roster.filter((s) => serving(s, date));
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
export function resolveName(name: string, meetingDate: string, roster: SupervisorRecord[], meetingRoster?: string[]): Resolution {
  const k = key(name.replace(/^(vice\s+)?(supervisors?|president)\s+/i, '').replace(/[.,;]+$/, ''));
  if (k === '') return { id: null, status: 'unresolved', candidates: [] };
  const byFull = roster.filter((s) => s.nameVariants.some((v) => key(v) === k && v !== s.surname));
  if (byFull.length === 1) return { id: byFull[0].id, status: 'resolved', candidates: byFull };
  const bySurname = byFull.length > 1 ? byFull : roster.filter((s) => key(s.surname) === k);
  const dated = /^\d{4}-\d{2}/.test(meetingDate);
  if (meetingRoster && meetingRoster.length > 0) {
    const present = meetingRoster.filter((full) => key(surnameOf(full)) === k || key(full) === k);
    if (present.length === 1) {
      const full = key(present[0]);
      const first = full.split(' ')[0];
      const match = bySurname.filter((s) => key(s.fullName) === full || (key(s.surname) === key(surnameOf(full)) && key(s.fullName).startsWith(first + ' ')));
      if (match.length === 1) return { id: match[0].id, status: 'resolved', candidates: match };
      if (match.length === 0 && bySurname.length === 0) return { id: supervisorId(present[0]), status: 'resolved', candidates: [] };
    }
  }
  if (bySurname.length === 0) return { id: null, status: 'unresolved', candidates: [] };
  if (!dated) {
    return bySurname.length === 1 ? { id: bySurname[0].id, status: 'resolved', candidates: bySurname } : { id: null, status: 'ambiguous', candidates: bySurname };
  }
  for (const slack of [0, 2]) {
    const inTerm = bySurname.filter((s) => serving(s, meetingDate, slack));
    if (inTerm.length === 1) return { id: inTerm[0].id, status: 'resolved', candidates: inTerm };
    if (inTerm.length > 1) return { id: null, status: 'ambiguous', candidates: inTerm };
  }
  // The surname is known but nobody by that name sat on this date: do not guess.
  return { id: null, status: 'unresolved', candidates: bySurname };
}
