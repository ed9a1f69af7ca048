// `legistar/meeting_items.csv` in the corpus: the rows of every Legistar meeting page read, in the columns of the
// page's own grid (its Export button gives the same), with the meeting's date and page first. The build reads it as
// a second witness to the minutes' roll calls. Rows of a meeting read again replace that meeting's rows.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { readCsv } from '../exports/tables.ts';
import { writeFileAtomic } from './atomic.ts';
import type { MeetingItem } from './source.ts';

export const MEETING_ITEMS_FILE = join('legistar', 'meeting_items.csv');

/** Header → field, in file order. */
const COLUMNS: [string, keyof MeetingItem][] = [
  ['Meeting Date', 'meetingDate'],
  ['Meeting Details', 'meetingUrl'],
  ['File #', 'fileNumber'],
  ['Ver.', 'version'],
  ['Agenda #', 'agendaNumber'],
  ['Name', 'name'],
  ['Type', 'type'],
  ['Status', 'status'],
  ['Title', 'title'],
  ['Action', 'action'],
  ['Result', 'result'],
];

/** ISO 2016-11-01 ↔ Legistar's 11/1/2016. */
const toLegistarDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return `${m}/${d}/${y}`;
};
const fromLegistarDate = (s: string) => {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
  return m ? `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}` : s;
};

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export async function readMeetingItems(dest: string): Promise<MeetingItem[]> {
  let text: string;
  try {
    text = await readFile(join(dest, MEETING_ITEMS_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const [head, ...rows] = readCsv(text.replace(/^\uFEFF/, '')).filter((r) => r.some((f) => f !== ''));
  const at = COLUMNS.map(([name]) => head?.indexOf(name) ?? -1);
  if (at.some((i) => i < 0))
    throw new Error(`${MEETING_ITEMS_FILE}: expected the columns ${COLUMNS.map(([n]) => n).join(', ')}`);
  return rows.map((r) => {
    const item = Object.fromEntries(COLUMNS.map(([, key], i) => [key, r[at[i]] ?? ''])) as unknown as MeetingItem;
    return { ...item, meetingDate: fromLegistarDate(item.meetingDate) };
  });
}

/** The rows held, with every meeting read this run replaced by its new rows; sorted by date, agenda number, file. */
export function mergeMeetingItems(held: MeetingItem[], fresh: MeetingItem[]): MeetingItem[] {
  const reread = new Set(fresh.map((r) => r.meetingUrl));
  const rows = [...held.filter((r) => !reread.has(r.meetingUrl)), ...fresh];
  const agenda = (r: MeetingItem) => Number.parseInt(r.agendaNumber, 10) || Number.MAX_SAFE_INTEGER;
  return rows.sort(
    (a, b) =>
      a.meetingDate.localeCompare(b.meetingDate) ||
      a.meetingUrl.localeCompare(b.meetingUrl) ||
      agenda(a) - agenda(b) ||
      a.fileNumber.localeCompare(b.fileNumber),
  );
}

export async function writeMeetingItems(dest: string, rows: MeetingItem[]): Promise<void> {
  await mkdir(join(dest, 'legistar'), { recursive: true });
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const r of rows) {
    lines.push(
      COLUMNS.map(([, key]) => csvField(key === 'meetingDate' ? toLegistarDate(r.meetingDate) : r[key])).join(','),
    );
  }
  await writeFileAtomic(join(dest, MEETING_ITEMS_FILE), lines.join('\r\n') + '\r\n');
}
