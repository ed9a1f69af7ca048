// What a record id says by itself: ids begin with their meeting date (README: stable ids), so the year names the one
// hive partition a lookup needs.

/** The meeting year an id begins with, or null for an id that does not (a lookup then reads every year). */
export function yearOfId(id: string): number | null {
  const m = /^(\d{4})-/.exec(id);
  return m ? Number(m[1]) : null;
}
