// Labels as a resident reads them: the lake's enum values (`not-to-exceed`, `final-passage`, `not-adopted`) in words.
// One table per kind, with the rule for anything a later release adds: its hyphens read as spaces.

const words = (v: string) => v.replace(/-/g, ' ');

const ACTION_TYPES: Record<string, string> = {
  'final-passage': 'final passage',
  'first-reading': 'first reading',
  adoption: 'adoption',
  approval: 'approval',
  amendment: 'amendment',
  continuance: 'continuance',
  referral: 'referral',
  tabling: 'tabling',
  rejection: 'rejection',
  rescission: 'rescinding an earlier vote',
  other: 'a motion',
};

const RESULTS: Record<string, string> = {
  carried: 'Motion carried',
  failed: 'Motion failed',
  other: 'Recorded',
};

const QUALIFIERS: Record<string, string> = {
  'not-to-exceed': 'not to exceed',
  stated: 'as stated',
};

/** `final-passage` → `final passage`. */
export const actionTypeText = (v: string | null | undefined) => (v ? (ACTION_TYPES[v] ?? words(v)) : '');

/** `not-adopted` → `Not adopted` (a sentence's start). */
export function resultText(v: string | null | undefined): string {
  if (!v) return '';
  const s = RESULTS[v] ?? words(v);
  return s[0].toUpperCase() + s.slice(1);
}

/** An amount's qualifier: `not-to-exceed` → `not to exceed`. */
export const qualifierText = (v: string | null | undefined) => (v ? (QUALIFIERS[v] ?? words(v)) : '');

/** A vote's count, ayes to noes: `10–1`. */
export const tallyText = (ayes: number, noes: number) => `${ayes}–${noes}`;
