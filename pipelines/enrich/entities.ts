// Amounts, housing units, street addresses and agreement parties from an item's title and long title.
// Precise before complete: each pattern is narrow, and every value returned appears literally in the text
// (after whitespace is collapsed, since layout lines wrap mid-phrase).
import type { Amount, AmountQualifier, Extracted, UnitMention } from '../records.ts';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

// ---- amounts ----------------------------------------------------------------------------------------------------

const AMOUNT = /\$(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s+(million|billion))?(?![\d,]*\d)/gi;

// Checked against the words just before the amount (back to the previous amount or clause break), nearest first.
const QUALIFIERS: [RegExp, AmountQualifier][] = [
  [/\b(not to exceed|not-to-exceed|up to|no more than|maximum (?:amount )?of)\s*(?:approximately\s+)?$/i, 'not-to-exceed'],
  [/\bappropriat\w*(?:\s+(?:approximately|an additional))?\s*$/i, 'appropriation'],
  [/\bappropriation of\s*$/i, 'appropriation'],
  [/\bincreas\w*\b[^$;]{0,60}\bby\s*$/i, 'increase'],
  [/\b(decreas|reduc)\w*\b[^$;]{0,60}\bby\s*$/i, 'decrease'],
  [/\b(to receive|receiving|revenues? of|in revenues?)\s*$/i, 'revenue'],
];

function amounts(text: string): Amount[] {
  const out: Amount[] = [];
  const seen = new Set<string>();
  let last = 0;
  for (const m of text.matchAll(AMOUNT)) {
    const before = text.slice(Math.max(last, m.index - 120), m.index).split(/[;[\]]/).pop() ?? '';
    last = m.index + m[0].length;
    const base = Number(m[1].replace(/,/g, '') + (m[2] ?? ''));
    const scale = m[3] ? (m[3].toLowerCase() === 'million' ? 1e6 : 1e9) : 1;
    const value = Math.round(base * scale);
    const qualifier = QUALIFIERS.find(([re]) => re.test(before))?.[1] ?? 'stated';
    const k = `${value}|${qualifier}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ raw: m[0], value, currency: 'USD', qualifier });
  }
  return out;
}

// ---- housing units ----------------------------------------------------------------------------------------------

const NUM = String.raw`(\d{1,3}(?:,\d{3})+|\d{1,6})`;
const UNIT_PATTERNS = [
  new RegExp(String.raw`\b${NUM}-unit\b`, 'g'),
  new RegExp(String.raw`\b${NUM}\s+(?:(?:new|permanently|affordable|dwelling|residential|housing|rental|senior|supportive|market-rate|below-market-rate|BMR|inclusionary|on-site|off-site)\s+){1,3}units\b`, 'gi'),
  new RegExp(String.raw`\b${NUM}\s+units\s+of\s+(?:affordable\s+|supportive\s+|senior\s+|permanent\s+)*housing\b`, 'gi'),
];

function units(text: string): UnitMention[] {
  const sentences = text.split(/(?<=[.;])\s+(?=[A-Za-z(])/);
  const out: UnitMention[] = [];
  for (const sentence of sentences) {
    const found = new Map<number, number>(); // position → units, so overlapping patterns count once
    for (const re of UNIT_PATTERNS) {
      for (const m of sentence.matchAll(re)) {
        const n = Number(m[1].replace(/,/g, ''));
        if (n > 0 && n < 100000 && !found.has(m.index)) found.set(m.index, n);
      }
    }
    for (const [, n] of [...found].sort((a, b) => a[0] - b[0])) out.push({ units: n, sentence });
  }
  return out;
}

// ---- addresses --------------------------------------------------------------------------------------------------

const SUFFIX = 'Street|Avenue|Boulevard|Drive|Road|Way|Place|Lane|Court|Terrace|Alley|Plaza|Circle|Highway|Parkway|Square';
const ADDRESS = new RegExp(
  String.raw`\b(\d{1,5}(?:-\d{1,5})?[A-Z]?)\s+((?:(?:[A-Z][a-z'’]+|[A-Z]\.|\d{1,3}(?:st|nd|rd|th)|de|del|la|los)\s+){1,4}(?:${SUFFIX}))\b(?!,?\s+(?:Inc|LLC|L\.?P|Corp|Co\b|Associates|Partners))`,
  'g',
);

function addresses(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(ADDRESS)) {
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    if (/\b(No\.|Nos\.|Section|Block|Lot|File|Page)\s*$/i.test(before)) continue;
    out.add(`${m[1]} ${m[2]}`);
  }
  return [...out];
}

// ---- parties ----------------------------------------------------------------------------------------------------

const CONNECT = String.raw`(?:and|of|de|la|the|&)`;
const WORD = String.raw`(?:[\p{Lu}\d][\p{L}\d'’.&-]*)`;
const SUFFIXES = String.raw`(?:,?\s+(?:Inc\.|LLC|L\.P\.|LP|LLP|Ltd\.|Corp\.|N\.A\.))`;
const NAME = String.raw`(?:the\s+)?(${WORD}(?:\s+(?:${WORD}|${CONNECT}(?=\s+[\p{Lu}\d])))*${SUFFIXES}?)`;
const PARTY_TRIGGERS = [
  new RegExp(String.raw`\b(?:[Aa]greement|[Cc]ontract|[Ll]ease|[Aa]mendment|[Ll]oan|[Ss]ettlement|[Ll]icense|[Gg]rant)s?\b[^;.]{0,120}?\bwith\s+${NAME}`, 'gu'),
  new RegExp(String.raw`\bfiled by\s+${NAME}`, 'gu'),
  new RegExp(String.raw`\bagainst\s+${NAME}\s+for\b`, 'gu'),
  new RegExp(String.raw`\bloan\s+(?:to|from)\s+${NAME}`, 'gu'),
];
const NOT_A_PARTY = /^(City (?:and County )?of San Francisco|San Francisco|General Plan|General Manager)$|['’]s$/i;

function parties(text: string): string[] {
  const out = new Set<string>();
  for (const re of PARTY_TRIGGERS) {
    for (const m of text.matchAll(re)) {
      const name = m[1].replace(/[,.]$/, (c) => (/(Inc|Ltd|Corp|L\.P|N\.A)\.$/.test(m[1]) ? c : '')).trim();
      // A lone word (`Clerk`, `City`) is too often an office, not a party; legal suffixes make it a name (`JobAps, Inc.`).
      if (NOT_A_PARTY.test(name) || /^\d/.test(name) || (!/\s/.test(name) && !/,/.test(name))) continue;
      out.add(name);
    }
  }
  return [...out];
}

export function extractEntities(text: string): { extracted: Extracted; unitMentions: UnitMention[] } {
  const t = squash(text);
  const unitMentions = units(t);
  return {
    extracted: {
      amounts: amounts(t),
      housingUnits: [...new Set(unitMentions.map((u) => u.units))],
      addresses: addresses(t),
      parties: parties(t),
    },
    unitMentions,
  };
}
