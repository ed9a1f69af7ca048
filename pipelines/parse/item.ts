// The fields of one item block: bracketed short title, sponsors, long title, item type, enactment numbers,
// status/action lines, and the `matter` companion records share.
import { ACTION_START, DATED_STATUS, ENACTMENT, endsSentence, type Line } from './blocks.ts';
import { isTally } from './rollcalls.ts';

export interface ItemFields {
  title: string;
  sponsors: string[];
  longTitle: string;
  itemType: string | null;
  matter: string;
  enactmentNumbers: string[];
  statusLines: string[];
  /** The item's own last action line (`FINALLY PASSED`), used when a shared vote applies to it. */
  lastAction: string | null;
}

const SPONSORS = /^Sponsors?:\s*(.*)$/;
const ITEM_TYPE = /^(Charter Amendment|Emergency Ordinance|Ordinance|Resolution|Motion|Hearing)\b/;
// Lines that open a new field after the long title (when the line before them closes a sentence).
const FIELD_START =
  /^(?:\(Fiscal Impact\)|Question:|Supervisors?\s+[A-Z]|President\b|Vice President\b|Privilege of the floor|The foregoing|Ayes:|Noes:|Absent:|Excused:)/;
const MOTION_SENTENCE = /^(?:Supervisors?|President|Vice President|Chair)\b.*\bbe (?:[A-Z][A-Z,-]{3,}\b)/;

const splitList = (s: string) =>
  s
    .split(/,\s*|\s+and\s+/)
    .map((x) => x.trim())
    .filter((x) => x !== '');

export function parseItemFields(lines: Line[]): ItemFields {
  // Short title: from `[` to the line that ends with `]` (it may wrap, and rarely holds a stray inner `]`).
  let i = 0;
  let title = lines[0].text.slice(lines[0].text.indexOf('[') + 1);
  while (!/\]\s*$/.test(title) && i + 1 < lines.length && i < 4 && !SPONSORS.test(lines[i + 1].text))
    title += ' ' + lines[++i].text;
  title = title.replace(/\]\s*$/, '').trim();
  i++;

  const sponsors: string[] = [];
  const sp = lines[i] && SPONSORS.exec(lines[i].text);
  if (sp) {
    let text = sp[1];
    while (
      lines[i + 1] &&
      (/,$|\band$/.test(text) || /^and\s+\p{Lu}/u.test(lines[i + 1].text)) &&
      !ITEM_TYPE.test(lines[i + 1].text)
    )
      text += ' ' + lines[++i].text;
    const [primary, co = ''] = text.split(';');
    sponsors.push(...splitList(primary), ...splitList(co));
    i++;
  }

  const long: string[] = [];
  for (; i < lines.length; i++) {
    const t = lines[i].text;
    const prevClosed = long.length === 0 || endsSentence(long[long.length - 1]);
    if (
      long.length > 0 &&
      prevClosed &&
      (FIELD_START.test(t) || ACTION_START.test(t) || DATED_STATUS.test(t) || ENACTMENT.test(t))
    )
      break;
    if (long.length === 0 && (FIELD_START.test(t) || DATED_STATUS.test(t) || isTally(t))) break;
    long.push(t);
  }
  const longTitle = long.join(' ').replace(/\s+/g, ' ').trim();
  const itemType = ITEM_TYPE.exec(longTitle)?.[1] ?? null;

  const rest = lines.slice(i);
  const enactmentNumbers = rest
    .filter((l) => ENACTMENT.test(l.text) && !/^File No\./.test(l.text))
    .map((l) => l.text.trim());
  const statusLines: string[] = [];
  let lastAction: string | null = null;
  for (let j = 0; j < rest.length; j++) {
    const t = rest[j].text;
    if (DATED_STATUS.test(t) || /^Question:/.test(t)) {
      statusLines.push(t);
      continue;
    }
    if (ACTION_START.test(t) || MOTION_SENTENCE.test(t) || /^(?:Supervisors?|President)\b/.test(t)) {
      let para = t;
      // An action line continues only into lower-case words (`CONTINUED` / `to the meeting of …`); a motion sentence runs to its full stop.
      const motion = !ACTION_START.test(t);
      while (
        !endsSentence(para) &&
        rest[j + 1] &&
        !isTally(rest[j + 1].text) &&
        (motion || /^\p{Ll}/u.test(rest[j + 1].text))
      )
        para += ' ' + rest[++j].text;
      const action = para.replace(/\s*(?:The motion\s+\w+\s+)?by the following vote[^:]*:?\s*$/i, '').trim();
      if (
        ACTION_START.test(t) ||
        /\b(?:be|moved to)\s+(?:[A-Z][A-Z,-]{3,}|rescind|table|continue|refer)\b/.test(para)
      ) {
        statusLines.push(action);
        if (ACTION_START.test(t)) lastAction = action;
      }
    }
  }
  return { title, sponsors, longTitle, itemType, matter: matterOf(title), enactmentNumbers, statusLines, lastAction };
}

// Titles of an appeal bundle: the hearing and the alternative motions that affirm, reverse, approve or disapprove,
// or direct findings. They end in the project (and its address), which is what they share.
const APPEAL =
  /^(?:Hearing - Appeal\b|(?:Conditionally\s+)?(?:Affirming|Reversing|Approving|Disapproving)\b|Preparation of Findings\b)/;

/** The subject companion records share: the project/address of an appeal bundle, else the short title. */
export function matterOf(title: string): string {
  if (!APPEAL.test(title)) return title;
  const project = /\bProposed Project at (.+)$/.exec(title);
  if (project) return `Proposed Project at ${project[1].trim()}`;
  const parts = title.split(' - ');
  if (parts.length < 2) return title;
  // `Proposed SFMTA-13th Street … Project` (hearing) vs `13th Street … Project` (motions): drop the proposer.
  return parts[parts.length - 1]
    .replace(/^Proposed\s+/, '')
    .replace(/^[A-Z]{2,}\s*-\s*/, '')
    .trim();
}
