// Entities compared as keys, shared by the pipeline (which extracts parties and addresses from item titles) and the
// server (which finds the ones a query names, to rank the items carrying them first): a party's name without its
// punctuation, leading `the` or legal form; a street address as its street and its range of numbers.

/** A party's comparison key: lower case, punctuation dropped, without a leading `the`, a trailing `et al.` or legal forms. */
export function partyKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}&/ -]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '')
    .replace(/ (?:afl-cio|iaff)\b/g, '') // a union's affiliation, printed or not
    .replace(/ et al$/, '')
    .replace(/(?:\s+(?:inc|llc|l p|lp|llp|ltd|corp|corporation|co|n a|na|plc))+$/, '')
    .trim();
}

/** A street's last word that says what kind of street it is, as printed or abbreviated; left out of the street's key. */
const STREET_KINDS = new Set(
  `street st avenue ave boulevard blvd drive dr road rd way place pl lane ln court ct terrace ter alley plaza circle
  highway hwy parkway pkwy square`.split(/\s+/),
);

/** Words after a street that make it a company's name. */
const LEGAL_FORMS = new Set(['inc', 'llc', 'lp', 'l', 'llp', 'ltd', 'corp', 'co', 'associates', 'partners']);

/** A street and the numbers on it an address or a query names: `162-164 Alhambra Street` is alhambra, 162 to 164. */
export interface StreetNumbers {
  /** The street's words in lower case, without its kind (`south van ness`, `1st`). */
  street: string[];
  low: number;
  high: number;
}

/** `One Oak Street` as `1 Oak Street`: the one number the City spells in an address. */
const spelledOne = (text: string) => text.replace(/\bone(?=\s+\p{L})/giu, '1');

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The street's words: at most four, ending before its kind (a street of one word that is a kind, `Way`, keeps it). */
function streetWords(following: string[]): string[] {
  const out: string[] = [];
  for (const w of following.slice(0, 5)) {
    if (STREET_KINDS.has(w) && out.length > 0) break;
    if (/^\d+$/.test(w) || out.length === 4) return [];
    out.push(w);
  }
  return out;
}

/** The numbers of a printed range, `162-164` or `172-172A-174B`: from the first to the last, a backward range read as its first. */
const range = (chain: string) => {
  const numbers = (chain.match(/\d+/g) ?? []).map(Number);
  const [low, high] = [numbers[0], numbers[numbers.length - 1]];
  return high >= low ? { low, high } : { low, high: low };
};

/**
 * A printed address (`162-164 Alhambra Street`, `245-1st Street`, `3124-3128A Laguna Street`, `172-172A-174B Langton
 * Street`); null if none.
 */
export function parseAddress(printed: string): StreetNumbers | null {
  const m = /^(\d{1,5}[a-z]?(?:-\d{1,5}[a-z]?(?=[\s-]))*)(?:\s+|-)(.+)$/i.exec(spelledOne(printed.trim()));
  if (!m) return null;
  const street = streetWords(words(m[2]));
  return street.length ? { street, ...range(m[1]) } : null;
}

/**
 * Every street number (or range of numbers on one street) a query names with the words after it: `163 Alhambra`,
 * `162-164 Alhambra St`, `100 to 110 Steiner Street`. A mention's street is its following words up to a street's kind;
 * which of them make a street the lake knows is for the caller to match (mentionsStreet).
 */
export function addressMentions(text: string): StreetNumbers[] {
  const out: StreetNumbers[] = [];
  for (const m of spelledOne(text).matchAll(
    /(?<![\p{L}\p{N}$.,-])(\d{1,5}[a-z]?(?:\s*(?:-|–|to|through)\s*\d{1,5}[a-z]?(?![a-z\d]))*)(?:\s+|-(?=\d{1,3}(?:st|nd|rd|th)\b))(?=((?:\d{1,3}(?:st|nd|rd|th)\b|[^\d\n])[^\n]{0,80}))/giu,
  )) {
    const following = words(m[2]);
    const street = streetWords(following);
    const after = following[street.length + (STREET_KINDS.has(following[street.length]) ? 1 : 0)];
    // `501 Folsom Street, LLC` names a company, not the address.
    if (street.length && !LEGAL_FORMS.has(after)) out.push({ street, ...range(m[1]) });
  }
  return out;
}

/** Whether a query's mention names this address: the address's street words begin the mention's and the numbers overlap. */
export function mentionsStreet(mention: StreetNumbers, address: StreetNumbers): boolean {
  return (
    address.street.length <= mention.street.length &&
    address.street.every((w, i) => mention.street[i] === w) &&
    mention.low <= address.high &&
    address.low <= mention.high
  );
}
