// Which dates get a synthetic meeting. Document ids are `<meetingDate>-<kind>`, so every meeting needs its own date.
//
// SCALE=1: the board's own rhythm — every Tuesday 2012-01-01..2026-12-31 except the winter break (the Tuesdays
// from Dec 20 through Jan 6), the August recess (Tuesdays Aug 1-21) and Thanksgiving week: ~46 a year, ~690 total.
// SCALE=S>1: S times as many meetings, taking extra weekdays in a fixed order (the recess Tuesdays, then Thursday,
// Monday, Wednesday, Friday, Saturday, Sunday), evenly spread over the 15 years within the last weekday taken.
// The range holds 5,479 days, so meetings stop there (SCALE≈7.9); beyond it each meeting carries proportionally
// more items (`density`) so that pages still grow with SCALE.

export const FIRST_DAY = '2012-01-01';
export const LAST_DAY = '2026-12-31';
const ALL_DAYS = 5479;

export interface Slot {
  date: string;
  /** Items per meeting relative to SCALE=1 (1 until the calendar is full). */
  density: number;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

function allDates(): Date[] {
  const out: Date[] = [];
  for (let t = Date.parse(`${FIRST_DAY}T00:00:00Z`); t <= Date.parse(`${LAST_DAY}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t));
  return out;
}

/** A regular (SCALE=1) board Tuesday. */
export function isRegularTuesday(d: Date): boolean {
  if (d.getUTCDay() !== 2) return false;
  const m = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  if ((m === 12 && day >= 20) || (m === 1 && day <= 6)) return false;
  if (m === 8 && day <= 21) return false;
  if (m === 11 && day >= 22 && day <= 28) return false; // Thanksgiving week
  return true;
}

/** Tuesday first; 0 = regular Tuesdays, then the order other days are drawn in. */
function tier(d: Date): number {
  if (isRegularTuesday(d)) return 0;
  return [7, 3, 4, 1, 5, 6, 2][d.getUTCDay()]; // Sun..Sat → recess Tue 1, Thu 2, Mon 3, Wed 4, Fri 5, Sat 6, Sun 7
}

/** Evenly spaced pick of `m` from `items`, keeping order. */
export function spread<T>(items: T[], m: number): T[] {
  if (m >= items.length) return items.slice();
  return Array.from({ length: m }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / m)]);
}

export function regularCount(): number {
  return allDates().filter(isRegularTuesday).length;
}

/**
 * Meeting slots for a scale; `limit` (the smoke option) keeps that many meetings spread over the whole range,
 * each exactly as it would be at that scale.
 */
export function schedule(scale: number, limit?: number): Slot[] {
  const days = allDates();
  const want = Math.round(regularCount() * scale);
  const count = Math.min(want, ALL_DAYS);
  const density = want / count;
  const tiers: Date[][] = Array.from({ length: 8 }, () => []);
  for (const d of days) tiers[tier(d)].push(d);
  const chosen: Date[] = [];
  for (const t of tiers) chosen.push(...spread(t, count - chosen.length));
  chosen.sort((a, b) => a.getTime() - b.getTime());
  const slots = chosen.map((d) => ({ date: iso(d), density }));
  return limit === undefined ? slots : spread(slots, limit);
}
