// Public comment: one speaker per paragraph, `Name; clerk's summary` (`Male Speaker;`, first names only),
// in the general PUBLIC COMMENT section and in hearings inside items.
import { endsSentence, type Line } from './blocks.ts';

export interface Speaker { speaker: string; statement: string; page: number }

const PARTICLE = String.raw`(?:de|da|del|van|von|la|le|di|du|y|bin|al)`;
const NAME_WORD = String.raw`(?:[\p{Lu}][\p{L}'’.\-]*|${PARTICLE}|\([^)]{1,60}\))`;
// The name part: up to 8 capitalised words (a parenthesised role such as `(Appellant)` allowed); the summary starts
// in lower case (`shared …`, `spoke …`, `expressed …`), which keeps titles and status lines (`10/24/16; …`) out.
const SPEAKER = new RegExp(String.raw`^(${NAME_WORD}(?:\s+${NAME_WORD}){0,7});\s+(\p{Ll}.*)$`, 'u');

export function findSpeakers(lines: Line[]): Speaker[] {
  const out: Speaker[] = [];
  let current: Speaker | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = SPEAKER.exec(lines[i].text);
    const paragraphStart = i === 0 || endsSentence(lines[i - 1].text) || current !== null || lines[i - 1].indent < lines[i].indent - 1;
    if (m && paragraphStart && !/^(?:Sponsors?|Ordinance|Resolution|Motion|Hearing)\b/.test(m[1])) {
      current = { speaker: m[1].trim(), statement: m[2].trim(), page: lines[i].page };
      out.push(current);
    } else if (current && !endsSentence(current.statement) && lines[i].indent >= lines[i - 1].indent - 1) {
      current.statement += ' ' + lines[i].text;
    } else {
      current = null;
    }
  }
  return out;
}
