// The last resort: when no listing names a year's meetings, every weekday of it (up to today) is tried by file name
// on each host's patterns. Special and rescheduled meetings fall on any weekday, so Tuesdays alone miss them.

/** Every Monday–Friday in [from, until] (ISO dates), in order. */
export function weekdays(from: string, until: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${until}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += 86_400_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
