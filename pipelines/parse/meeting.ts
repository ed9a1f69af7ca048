// The meeting's own roster: full names from the minutes' "Members Present/Absent/Excused:" lines, else from the
// cover (`LONDON BREED, PRESIDENT` / `JOHN AVALOS, DAVID CAMPOS, …`). It is the first authority for surnames.
import type { Line } from './blocks.ts';

const MEMBERS = /^Members (?:Present|Absent|Excused|Not Present):\s*(.*)$/;
const titleCase = (s: string) =>
  s.toLowerCase().replace(/(^|[\s'’-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());
const names = (s: string) =>
  s
    .split(/,\s*|\s+and\s+/)
    .map((n) => n.replace(/^and\s+/, '').trim())
    .filter((n) => /^\p{L}[\p{L}'’.\- ]+$/u.test(n) && n.includes(' '));

export function meetingRoster(lines: Line[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MEMBERS.exec(lines[i].text);
    if (!m) continue;
    let text = m[1];
    while (lines[i + 1] && /(,|\band)$/.test(text.trim())) text += ' ' + lines[++i].text;
    found.push(...names(text.replace(/\.$/, '')));
  }
  if (found.length > 0) return [...new Set(found)];
  // Cover: capitalised name lists between the meeting type and the Clerk's line, on the first page.
  const cover = lines.filter((l) => l.page === lines[0]?.page);
  const from = cover.findIndex(
    (l) => /\bMeeting\b/i.test(l.text) && /^(Regular|Special|Revised|Joint|Budget)/i.test(l.text),
  );
  const to = cover.findIndex((l, k) => k > from && /Clerk of the Board/.test(l.text));
  if (from < 0 || to < 0) return [];
  const caps = cover
    .slice(from + 1, to)
    .map((l) => l.text)
    .filter((t) => !/[a-z]/.test(t))
    .join(', ');
  return [...new Set(names(caps.replace(/,\s*(VICE\s+)?PRESIDENT\b/g, '')).map(titleCase))];
}

/** What a meeting's documents state about the meeting itself (the documents table's fact columns). */
export interface MeetingFacts {
  /** The cover's meeting line as printed: `Regular Meeting`, `Special Meeting`. */
  meetingType: string | null;
  /** Agenda: the numbered items, 1 to the last printed in order (file items and headings such as `PUBLIC COMMENT`). */
  numberedItems: number | null;
  /** Minutes: who presided (`London Breed`), when the meeting was called to order and adjourned (`2:04 p.m.`). */
  presiding: string | null;
  calledToOrder: string | null;
  adjournedAt: string | null;
  /** Minutes: members noted present after the roll call, by surname, and when. */
  notedPresent: { name: string; time: string }[];
}

/** `23.  ROLL CALL FOR INTRODUCTIONS`, `* * 76.  161336  [Final Map …]`: a numbered item of an agenda. */
const NUMBERED = /^(?:\*\s*)*(\d{1,3})\.\s+(?:\d{6}\b|[A-Z][A-Z ,&'’()-]{3,}$)/;
const TIME = String.raw`(\d{1,2}:\d{2}\s*[ap]\.?\s?m\.?)`;
const TYPE_LINE = /^((?:Regular|Special|Budget|Joint|Rescheduled|Adjourned)\b[\w ]*Meeting)$/i;

export function meetingFacts(lines: Line[], kind: 'agenda' | 'minutes'): MeetingFacts {
  const cover = lines.filter((l) => l.page === lines[0]?.page);
  const meetingType = cover.map((l) => TYPE_LINE.exec(l.text)?.[1]).find((t) => t !== undefined) ?? null;
  let next = 1;
  if (kind === 'agenda') for (const l of lines) if (Number(NUMBERED.exec(l.text)?.[1]) === next) next++;
  // Sentences run across lines: read the minutes as one text.
  const text = kind === 'minutes' ? lines.map((l) => l.text).join(' ') : '';
  const first = (re: RegExp) => re.exec(text)?.[1] ?? null;
  return {
    meetingType,
    numberedItems: kind === 'agenda' && next > 1 ? next - 1 : null,
    presiding: first(/\bwith (?:President|Vice President|Acting President) ([\p{Lu}][\p{L}'’. -]+?) presiding\b/u),
    calledToOrder: first(new RegExp(String.raw`called the meeting to order at ${TIME}`, 'i')),
    adjournedAt: first(new RegExp(String.raw`\badjourned at (?:the hour of |the hour )?${TIME}`, 'i')),
    notedPresent: [
      ...text.matchAll(new RegExp(String.raw`Supervisor ([\p{Lu}][\p{L}'’-]+) was noted present at ${TIME}`, 'gu')),
    ].map((m) => ({ name: m[1], time: m[2] })),
  };
}
