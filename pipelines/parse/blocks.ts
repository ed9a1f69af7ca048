// Page text → a flat run of lines → segments: item blocks (file number + bracketed title at the left margin),
// section headings, and loose lines (text outside any item: roll call, public comment, block-level motions).
// Blocks run across page breaks because pages are flattened first; a block ends at the next item, at a line set
// further left than its body (a heading), or at a "called together" note that introduces the next items.
import type { PageText } from '../extract/pages.ts';

export interface Line {
  page: number;
  indent: number;
  text: string;
}

export const ITEM_START = /^(?:(\d{1,3})\.\s+)?(\d{6})\s+\[/;

/** Lines of all readable pages, in order; garbage pages are left out (the caller reports them). */
export function flatten(pages: PageText[]): Line[] {
  const out: Line[] = [];
  for (const p of pages) {
    if (p.quality === 'garbage' || p.quality === 'empty') continue;
    for (const raw of p.lines) {
      const text = raw.trim();
      if (text !== '') out.push({ page: p.page, indent: raw.length - raw.trimStart().length, text });
    }
  }
  return out;
}

/** A section heading: capitals up to an optional ` - subtitle` (`CONSENT AGENDA`, `SPECIAL ORDER 2:30 P.M. - …`). */
export function isHeading(text: string): boolean {
  const head = text.split(' - ')[0];
  return /[A-Z]{3}/.test(head) && !/[a-z]/.test(head) && !ITEM_START.test(text) && !/^\d/.test(text);
}

const CALLED_TOGETHER = /^(President|Chair|Vice President)\b.*\brequested File Nos?\./;

export type Segment =
  | {
      kind: 'item';
      fileNumber: string;
      agendaNumber: number | null;
      lines: Line[];
      section: string | null;
      index: number;
    }
  | { kind: 'loose'; lines: Line[]; section: string | null; index: number };

export function segment(lines: Line[]): Segment[] {
  const out: Segment[] = [];
  let section: string | null = null;
  let loose: Line[] = [];
  const flush = () => {
    if (loose.length > 0) out.push({ kind: 'loose', lines: loose, section, index: out.length });
    loose = [];
  };
  for (let i = 0; i < lines.length;) {
    const start = ITEM_START.exec(lines[i].text);
    if (!start) {
      if (isHeading(lines[i].text) && (loose.length === 0 || lines[i].indent <= loose[0].indent)) {
        flush();
        section = lines[i].text;
      }
      loose.push(lines[i]);
      i++;
      continue;
    }
    flush();
    const first = lines[i];
    const next = lines[i + 1];
    const body = next && next.indent > first.indent && !ITEM_START.test(next.text) ? next.indent : first.indent + 4;
    const block: Line[] = [first];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j];
      if (ITEM_START.test(l.text) || l.indent < body - 1 || CALLED_TOGETHER.test(l.text)) break;
      block.push(l);
    }
    out.push({
      kind: 'item',
      fileNumber: start[2],
      agendaNumber: start[1] ? Number(start[1]) : null,
      lines: block,
      section,
      index: out.length,
    });
    i = j;
  }
  flush();
  return out;
}

// ---- paragraph helpers shared by the item, roll-call and comment parsers ----------------------------------------

/** Action words the Clerk prints in capitals at the start of an action line. */
export const ACTION_START =
  /^(?:NOT\s+)?(?:FINALLY|PASSED|ADOPTED|APPROVED|AMENDED|CONTINUED|RE-REFERRED|REFERRED|TABLED|HEARD|FILED|REJECTED|FAILED|PREVIOUS VOTE|RESCINDED|SUBMITTED|DUPLICATED|RECEIVED|ASSIGNED|REACTIVATED|SEVERED|WITHDRAWN|REPEALED|AN AMENDMENT)\b/;
export const DATED_STATUS = /^\d{1,2}\/\d{1,2}\/\d{2,4};\s/;
export const ENACTMENT =
  /^(?:Motion No\.|Resolution No\.|Ordinance No\.|Enacted Number:|Enactment Number:|File No\.)\s*[A-Z]?\d[\w-]*\s*$/;

/** Whether a line closes its sentence (a period after an abbreviation such as `Inc.` or `No.` does not). */
export function endsSentence(text: string): boolean {
  if (!/[.:;)\]”"?]$/.test(text)) return false;
  return !/(?:\b(?:Inc|No|Nos|Co|Corp|Jr|Sr|St|Dr|Mr|Ms|Mrs|Ltd|Ave|vs|v)|\b[A-Z]|L\.P)\.$/.test(text);
}
