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
