// Tallies (`Ayes: 11 - Avalos, Breed, …`, also Noes/Absent/Excused, wrapped lists joined) and the action text that
// immediately precedes each one.
import type { RollCallRecord } from '../records.ts';
import { ACTION_START, ENACTMENT, endsSentence, type Line } from './blocks.ts';

/** A tally as found: the roll call's names, counts and action, before it is attached to an item. */
export interface Vote extends Pick<
  RollCallRecord,
  'page' | 'action' | 'ayes' | 'noes' | 'absent' | 'excused' | 'declaredCounts' | 'countMismatch'
> {
  /** Index of the vote's first tally line within the lines searched. */
  at: number;
  /** The preceding text as printed, joined (`FINALLY PASSED by the following vote:`). */
  rawAction: string;
  /** A consent / for-adoption block's `The foregoing items were acted upon by the following vote:`. */
  shared: boolean;
}

const TALLY = /^(Ayes|Noes|Nays|Absent|Excused|Recused)\s*:\s*(?:(\d+)\s*-\s*)?(.*)$/i;
const NAME_LIST = /^[A-Z][\p{L}'’.\- ]*(?:(?:,\s*|\s+and\s+)[A-Z][\p{L}'’.\- ]*)*,?$/u;
const MOTION_START =
  /^(?:Supervisor|President|Vice President|Chair|Acting President)\s+[A-Z][\p{L}'’-]+(?:,|\s+moved|\s+requested)/u;
const SHARED = /^The foregoing items? (?:were|was) acted upon\b/i;

const splitNames = (s: string) =>
  s
    .split(/,\s*|\s+and\s+/)
    .map((n) => n.trim().replace(/\.$/, ''))
    .filter((n) => n !== '');

export const isTally = (text: string) => TALLY.test(text);

/** Cleans the text preceding a vote down to the action itself. */
export function cleanAction(raw: string): string {
  return raw
    .replace(/\s*The motion\s+\w+\s+by the following vote[^:]*:?\s*$/i, '')
    .replace(/\s*by the following vote[^:]*:?\s*$/i, '')
    .trim();
}

export function findVotes(lines: Line[]): Vote[] {
  const votes: Vote[] = [];
  const tallyLines = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (!TALLY.test(lines[i].text) || tallyLines.has(i)) continue;
    const vote: Vote = {
      at: i,
      page: lines[i].page,
      rawAction: '',
      action: '',
      shared: false,
      ayes: [],
      noes: [],
      absent: [],
      excused: [],
      declaredCounts: { ayes: null, noes: null, absent: null, excused: null },
      countMismatch: false,
    };
    let j = i;
    while (j < lines.length) {
      const m = TALLY.exec(lines[j].text);
      if (!m) break;
      const kind = m[1].toLowerCase();
      const field =
        kind === 'nays' ? 'noes' : kind === 'recused' ? 'excused' : (kind as 'ayes' | 'noes' | 'absent' | 'excused');
      let names = m[3].trim();
      tallyLines.add(j);
      j++;
      const declared = m[2] ? Number(m[2]) : null;
      // Continuation lines of a wrapped list: names only, while the list is open (trailing comma) or short of its count.
      while (
        j < lines.length &&
        !TALLY.test(lines[j].text) &&
        NAME_LIST.test(lines[j].text) &&
        (names.endsWith(',') || (declared !== null && splitNames(names).length < declared))
      ) {
        names += (names.endsWith(',') ? ' ' : ', ') + lines[j].text;
        tallyLines.add(j);
        j++;
      }
      vote[field].push(...splitNames(names));
      vote.declaredCounts[field] = declared;
    }
    for (const f of ['ayes', 'noes', 'absent', 'excused'] as const) {
      const d = vote.declaredCounts[f];
      if (d !== null && d !== vote[f].length) vote.countMismatch = true;
    }
    const taken = precedingText(lines, i, tallyLines);
    vote.rawAction = taken;
    vote.shared = SHARED.test(taken);
    vote.action = cleanAction(taken);
    votes.push(vote);
    i = j - 1;
  }
  return votes;
}

/**
 * Walks back from a tally to the start of the sentence that called the vote: an action line (`NOT ADOPTED by the
 * following vote:`) stands alone; a motion (`Supervisor Kim, seconded by …, moved …`) is taken from its first line.
 */
function precedingText(lines: Line[], tally: number, tallyLines: Set<number>): string {
  const taken: Line[] = [];
  for (let j = tally - 1; j >= 0 && taken.length < 10; j--) {
    const l = lines[j];
    if (tallyLines.has(j)) break;
    if (taken.length > 0) {
      const paraStart = j === 0 || tallyLines.has(j - 1) || endsSentence(lines[j - 1].text);
      if (
        endsSentence(l.text) ||
        (ACTION_START.test(l.text) && paraStart) ||
        ENACTMENT.test(l.text) ||
        l.indent < taken[0].indent - 1
      )
        break;
      if ((taken.length === 1 && ACTION_START.test(taken[0].text)) || SHARED.test(taken[0].text)) break;
    }
    taken.unshift(l);
    if (MOTION_START.test(l.text)) break;
  }
  return taken.map((l) => l.text).join(' ');
}
