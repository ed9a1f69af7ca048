// Supervisors: who served when, and the names they go by. The roster facts are pipelines/data/supervisors.tsv, one
// identity per row, published as the lake's `supervisors` table. The pipeline reconciles the names roll calls print
// (pipelines/enrich/supervisors.ts); the server resolves the names people type (`matchVoter`) and finds names in a
// question (src/queries/interpret.ts).
//
// The three name keys below differ on purpose, each for its side's input: merging them would change which names match.
import { distance, normalize } from './text/analysis.ts';

/** A supervisor identity as answers show it. */
export type Supervisor = {
  /** The slug of the full name (core/lake/ids.ts supervisorId): `eric-mar`. */
  id: string;
  fullName: string;
  surname: string;
  district: number | null;
  /** `YYYY-MM`. */
  termFrom: string;
  /** `YYYY-MM`, or null while still serving. */
  termTo: string | null;
};

/** A supervisor with every spelling recorded for them (a row of the `supervisors` table). */
export interface RosterEntry extends Supervisor {
  nameVariants: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Terms

const yearOf = (yearMonth: string) => Number(yearMonth.slice(0, 4));

/** Months since year 0, from `YYYY-MM` or `YYYY-MM-DD`. */
const month = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/** Whether the term overlaps the years from..to. */
export const servesIn = (s: Supervisor, from: number, to: number): boolean =>
  yearOf(s.termFrom) <= to && (s.termTo === null || yearOf(s.termTo) >= from);

/** Whether `date` lies in the term, widened by `slackMonths` months on each side (term months are approximate). */
export function servesOn(s: Supervisor, date: string, slackMonths = 0): boolean {
  const m = month(date);
  return month(s.termFrom) - slackMonths <= m && (s.termTo === null || m <= month(s.termTo) + slackMonths);
}

/** `2011-01–2019-01`, `2019-01–present`. */
export const termText = (s: Supervisor): string => `${s.termFrom}–${s.termTo ?? 'present'}`;

/** `Eric Mar (District 1, 2009-01–2017-01)`. */
export const describeSupervisor = (s: Supervisor): string =>
  `${s.fullName} (${s.district ? `District ${s.district}, ` : ''}${termText(s)})`;

// ---------------------------------------------------------------------------------------------------------------
// Names

/** Titles a roll call may print before a name (`Supervisor Mar`, `Vice President Chiu`). */
export const RECORDED_TITLE = /^(vice\s+)?(supervisors?|president)\s+/i;
/** Titles a client may type before a voter's name. */
export const TYPED_TITLE = /^(supervisor|sup\.?|president)\s+/;
/** Titles a question may put before a name (a regular expression source, matched case-insensitively). */
export const QUESTION_TITLE = String.raw`(?:supervisors?|sup\.?|president|commissioner)\s+`;

/** Without accents and other combining marks (NFKD, which also expands ligatures PDF text carries, such as U+FB03). */
const withoutMarks = (s: string): string => s.normalize('NFKD').replace(/\p{M}+/gu, '');

/** Name keys of recorded names, bounded: every recorded name of a corpus is matched against the same few hundred. */
const nameKeys = new Map<string, string>();

/** A recorded name's key: without marks, lower case, single spaces. */
export function nameKey(s: string): string {
  let k = nameKeys.get(s);
  if (k === undefined) {
    if (nameKeys.size >= 10000) nameKeys.clear();
    k = withoutMarks(s).toLowerCase().replace(/\s+/g, ' ').trim();
    nameKeys.set(s, k);
  }
  return k;
}

/**
 * A typed name's key: the text analysis' normal form (which drops in-word apostrophes), no title, and every character
 * but letters, spaces, apostrophes and hyphens a space.
 */
export const typedNameKey = (name: string): string =>
  normalize(name)
    .replace(TYPED_TITLE, '')
    .replace(/[^\p{L}\s'-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Lower case without accents, one character for one, so that offsets into the folded text are offsets into the
 * original (a question's names are found in its folded text).
 */
export const foldChars = (s: string): string =>
  [...s]
    .map((c) => {
      const d = withoutMarks(c).toLowerCase();
      return d.length === c.length ? d : c.toLowerCase();
    })
    .join('');

/**
 * Who a typed voter name (a surname, full name, variant or id) is, among those serving in from..to: `one`; `ambiguous`
 * (several serve); `not-serving` (the name matches, nobody by it served then); `unknown`, with the three closest
 * recorded names (by edit distance of surname or full name).
 */
export function matchVoter(
  roster: RosterEntry[],
  name: string,
  from: number,
  to: number,
): { status: 'one' | 'ambiguous' | 'not-serving' | 'unknown'; candidates: RosterEntry[] } {
  const wanted = typedNameKey(name);
  const named = roster.filter(
    (s) =>
      s.id === name.trim() ||
      [s.fullName, s.surname, s.id.replace(/-/g, ' '), ...(s.nameVariants ?? [])].some(
        (n) => typedNameKey(n) === wanted,
      ),
  );
  const serving = named.filter((s) => servesIn(s, from, to));
  if (serving.length === 1) return { status: 'one', candidates: serving };
  if (serving.length > 1) return { status: 'ambiguous', candidates: serving };
  if (named.length > 0) return { status: 'not-serving', candidates: named };
  const closest = roster
    .map((s) => ({
      s,
      d: Math.min(distance(wanted, typedNameKey(s.surname)), distance(wanted, typedNameKey(s.fullName))),
    }))
    .sort((a, b) => a.d - b.d || a.s.fullName.localeCompare(b.s.fullName))
    .slice(0, 3)
    .map((x) => x.s);
  return { status: 'unknown', candidates: closest };
}
