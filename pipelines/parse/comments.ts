// Public comment: one speaker per paragraph, `Name; clerk's summary` (`Male Speaker;`, first names only),
// in the general PUBLIC COMMENT section and in hearings inside items.
import { endsSentence, isHeading, type Line } from './blocks.ts';

export interface Speaker {
  speaker: string;
  statement: string;
  page: number;
}
export interface SpeakerLines {
  speakers: Speaker[];
  /** Paragraphs of a general public-comment section that do not read as `Name; summary`: reported, never dropped. */
  unparsed: { text: string; page: number }[];
}

/** Lower-case name particles: `Maria de la Cruz`, `Jan van der Berg`, `Ahmed bin Said`, `Omar al-Amin`. */
const PARTICLE = String.raw`(?:de|da|das|del|della|der|den|des|di|do|dos|du|la|las|le|les|los|van|von|ter|ten|y|e|bin|ibn|al|el|(?:al|el|bin|ibn)-\p{Lu}[\p{L}'’]*)`;
const NAME_WORD = String.raw`(?:[\p{Lu}][\p{L}'’.\-]*|${PARTICLE}|\([^)]{1,60}\))`;
// The name part: up to 8 words (a parenthesised role such as `(Appellant)` allowed); the summary starts in lower case
// (`shared …`, `spoke …`, `expressed …`), which keeps titles and status lines (`10/24/16; …`) out.
const SPEAKER = new RegExp(String.raw`^(${NAME_WORD}(?:\s+${NAME_WORD}){0,7});\s+(\p{Ll}.*)$`, 'u');

/**
 * The speakers of a run of lines. In an item, a line that is no speaker's is the item's own text; in the general
 * public-comment section (`general`) every paragraph is a speaker's, so one that does not parse is returned in
 * `unparsed` with its page.
 */
export function findSpeakers(lines: Line[], general = false): SpeakerLines {
  const speakers: Speaker[] = [];
  const unparsed: SpeakerLines['unparsed'] = [];
  let current: Speaker | null = null;
  let stray: SpeakerLines['unparsed'][number] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = SPEAKER.exec(lines[i].text);
    const paragraphStart =
      i === 0 || endsSentence(lines[i - 1].text) || current !== null || lines[i - 1].indent < lines[i].indent - 1;
    if (m && paragraphStart && !/^(?:Sponsors?|Ordinance|Resolution|Motion|Hearing)\b/.test(m[1])) {
      current = { speaker: m[1].trim(), statement: m[2].trim(), page: lines[i].page };
      speakers.push(current);
      stray = null;
    } else if (current && !endsSentence(current.statement) && lines[i].indent >= lines[i - 1].indent - 1) {
      current.statement += ' ' + lines[i].text;
    } else {
      current = null;
      if (!general || isHeading(lines[i].text)) stray = null;
      else if (stray && !endsSentence(stray.text))
        stray.text += ' ' + lines[i].text; // the rest of an unparsed paragraph
      else unparsed.push((stray = { text: lines[i].text, page: lines[i].page }));
    }
  }
  return { speakers, unparsed };
}
