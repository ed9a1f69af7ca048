// Text analysis shared by the pipeline (indexing) and the server (querying), so both always agree.
// Mirrors DuckDB fts defaults (lower-case, accents stripped, Snowball porter stemmer, English stopwords)
// except that digits are kept: people search for file numbers, street numbers and years, and that stopwords are
// indexed too, for phrases only: every word has a position, a stopword is a term of its own (the word in capitals)
// that scores nothing, so `"not adopted"` needs "not" right before "adopted" while an unquoted query drops stopwords.
// Enactment, resolution and motion numbers (`178-16`, `M16-152`) are one word; other hyphenated compounds (`short-term`) are their parts
// in the index, and a query matches them as a unit before their parts (weighted phrases, see parseQuery), with the
// municipal thesaurus (core/text/thesaurus.ts) adding what people call the same thing at a lower weight.
import snowball from 'snowball-stemmers';

import { THESAURUS } from './thesaurus.ts';

export const ANALYSIS = {
  version: 'analysis-v5',
  stemmer: 'snowball-porter',
  stopwords: 'snowball-english',
  /** Stopwords are indexed as their words in capitals, with positions, for phrases only: idf 0, not in doclen. */
  stopwordTerms: 'upper-case, phrases only',
  lowercase: true,
  stripAccents: true,
  keepDigits: true,
  /** `178-16`, `M16-152`, `067-24` (as `67-24`): one word; leading zeros of the first group dropped. */
  enactmentNumbers: 'one word',
  bm25: { k1: 1.2, b: 0.75, idf: 'log10(((N - df + 0.5) / (df + 0.5)) + 1)' },
} as const;

/** A query's weights (parseQuery): a hyphenated compound's parts apart, a thesaurus expansion. */
export const WEIGHTS = {
  /** Each part of an unquoted compound (`short-term`) where the parts are not printed together: below the unit. */
  compoundPart: 0.25,
  /** A thesaurus expansion (`Airbnb` for `short-term rental`), printed as its words in order, where the query's name is not;
   * a name of more words than the query's is scaled down (expansions). */
  expansion: 0.5,
} as const;

// The Snowball English stopword list.
export const STOPWORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
  it its itself they them their theirs themselves what which who whom this that these those am is are was were be
  been being have has had having do does did doing would should could ought i'm you're he's she's it's we're they're
  i've you've we've they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't aren't
  wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't shouldn't can't cannot couldn't
  mustn't let's that's who's what's here's there's when's where's why's how's a an the and but if or because as until
  while of at by for with about against between into through during before after above below to from up down in out
  on off over under again further then once here there when where why how all any both each few more most other
  some such no nor not only own same so than too very`
    .split(/\s+/)
    .map((w) => w.replace(/'/g, '')),
);

const stemmer = snowball.newStemmer('porter');
const stemCache = new Map<string, string>();

/** A word's stem, never empty: a word the stemmer would erase (a lone `s`, as in `U.S.`) stays as it is. */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = NUMBER_WORD.test(word) ? word : stemmer.stem(word) || word;
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** Lower-cases, strips accents, joins digit groups (`$2,237,020` → `2237020`) and drops in-word apostrophes. */
export function normalize(text: string): string {
  return normalized(text).text;
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_RUNS = /[\x00-\x7f]+/g;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * normalize's text, and whether its letters and digits are all ASCII (`plain`): most pages' are, and for them the
 * ASCII forms of the Unicode patterns match the same, several times faster (an ASCII text skips NFKD too).
 */
function normalized(text: string): { text: string; plain: boolean } {
  const ascii = !NON_ASCII.test(text);
  const folded = (ascii ? text : text.normalize('NFKD').replace(/\p{M}+/gu, ''))
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1');
  const plain = ascii || !LETTER_OR_DIGIT.test(folded.replace(ASCII_RUNS, ''));
  return {
    text: plain ? folded.replace(/([a-z])['’]([a-z])/g, '$1$2') : folded.replace(/(\p{L})['’](\p{L})/gu, '$1$2'),
    plain,
  };
}

/** Digits, or an enactment number (`178-16`, `m16-152`): kept as written, never stemmed. */
const NUMBER_WORD = /^\p{L}?\p{N}+(?:-\p{N}+)?$/u;

/**
 * A word: an enactment, resolution or motion number whole (`178-16`, `067-24`, `M16-152`: one to three digits and a
 * two-digit year, or a letter, the year and the number), else a run of letters and digits. Other hyphenated numbers
 * stay apart (`2017-2018`, `554-5184`, `2016-11-01`, `104-28-069`).
 */
const WORD =
  /(?<![\p{L}\p{N}-])(?:\p{N}{1,3}-\p{N}{2}|\p{L}\p{N}{2}-\p{N}{3,4})(?![\p{L}\p{N}]|-\p{N})|[\p{L}\p{N}]+/gu;
/** WORD for a normalized text whose letters and digits are all ASCII (lower-case letters only). */
const PLAIN_WORD = /(?<![a-z0-9-])(?:[0-9]{1,3}-[0-9]{2}|[a-z][0-9]{2}-[0-9]{3,4})(?![a-z0-9]|-[0-9])|[a-z0-9]+/g;

/** `067-24` → `67-24` (Legistar pads enactment numbers, the agendas do not); other words unchanged. */
const canonicalWord = (w: string): string => (w.includes('-') ? w.replace(/^(\p{L}?)0+(?=\p{N})/u, '$1') : w);

/** Raw words in order, before stopword removal and stemming. */
export function words(text: string): string[] {
  const n = normalized(text);
  return (n.text.match(n.plain ? PLAIN_WORD : WORD) ?? []).map(canonicalWord);
}

/**
 * A stopword's index term: the word in capitals. Stems are lower-case, so it never merges with a content word's
 * postings (`dos` stems to `do`, a stopword; `does` to `doe`, a name).
 */
const stopTerm = (word: string): string => word.toUpperCase();

/** Whether an index term is a stopword's (see stopTerm): it has a position, for phrases, and scores nothing. */
export const isStopTerm = (term: string): boolean => /^[A-Z]+$/.test(term);

/** isStopTerm as a DuckDB expression over a VARCHAR column (the index build gives stop terms idf 0 with it). */
export const isStopTermSql = (column: string): string => `regexp_full_match(${column}, '[A-Z]+')`;

/** The index term of one word: its stem, or a stopword's term. */
const indexTerm = (w: string): string => (STOPWORDS.has(w) ? stopTerm(w) : stem(w));

/**
 * Every word's index term, in order (stems, and stopwords as stop terms): what the index stores, one position per
 * word, so a phrase's words are adjacent exactly where they are printed next to each other.
 */
export function indexTerms(text: string): string[] {
  return words(text).map(indexTerm);
}

/** The terms that score, in order: words minus stopwords, stemmed (BM25, document length, embeddings). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!STOPWORDS.has(w)) out.push(stem(w));
  return out;
}

const tokenTermsCache = new Map<string, readonly string[]>();

/** The index terms of one whitespace-delimited token (indexTerms), cached: a snippet analyses every token it shows. */
export function tokenTerms(token: string): readonly string[] {
  let t = tokenTermsCache.get(token);
  if (t === undefined) {
    t = indexTerms(token);
    if (tokenTermsCache.size > 200_000) tokenTermsCache.clear();
    tokenTermsCache.set(token, t);
  }
  return t;
}

export interface ParsedQuery {
  /** Distinct terms to score, in first-seen order: the query's words minus stopwords, quoted or not. */
  terms: string[];
  /**
   * Quoted phrases that constrain matching, each as its index terms in order, stopwords included (indexTerms): those
   * of two or more words, and a lone quoted stopword (a lone content word is one of `terms` already).
   */
  phrases: string[][];
  /**
   * Weighted phrases that rank without constraining: each unquoted hyphenated compound (its parts at `compoundPart`
   * where they are not printed together) and each thesaurus expansion of the query's words (at `expansion`, only
   * where printed in order). Their terms are index terms in order (stopwords included, for positions).
   */
  weighted: WeightedPhrase[];
}

export interface WeightedPhrase {
  terms: string[];
  /** The weight of its terms' scores where the phrase is printed. */
  weight: number;
  /** The weight where its terms are printed but not together (0: not at all). */
  partWeight: number;
  /** A thesaurus expansion (not the user's own words). */
  expansion: boolean;
  /** An expansion's name in the query (its terms): a document printing that counts the expansion not at all. */
  instead?: string[];
}

/** An unquoted hyphenated compound (`short-term`, `in-law`, `covid-19`); one of digits alone (`2017-2018`) is no compound. */
const COMPOUND = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

/**
 * Splits a user query into scored terms and quoted phrases; an unbalanced quote reads as plain text. Stopwords never
 * score, quoted or not, so a phrase query ranks its matches as the same words unquoted would.
 */
export function parseQuery(q: string): ParsedQuery {
  const phrases: string[][] = [];
  const quoted = /"([^"]*)"/g;
  for (const m of q.matchAll(quoted)) {
    const t = indexTerms(m[1]);
    if (t.length > 1 || (t.length === 1 && isStopTerm(t[0]))) phrases.push(t);
  }
  const all = terms(q.replace(/"/g, ' '));
  const unquoted = normalize(q.replace(quoted, ' '));
  const weighted: WeightedPhrase[] = [];
  for (const [compound] of unquoted.matchAll(COMPOUND)) {
    const t = indexTerms(compound);
    if (t.length > 1 && /\p{L}/u.test(compound))
      weighted.push({ terms: t, weight: 1, partWeight: WEIGHTS.compoundPart, expansion: false });
  }
  weighted.push(...expansions(indexTerms(unquoted)));
  return { terms: [...new Set(all)], phrases, weighted };
}

/** Each thesaurus group: every name as its index terms. */
const GROUPS: string[][][] = THESAURUS.map((names) => names.map(indexTerms));

const contentWords = (terms: string[]): number => Math.max(1, terms.filter((t) => !isStopTerm(t)).length);

const contains = (hay: string[], needle: string[]): boolean =>
  hay.some((_, i) => needle.every((t, j) => hay[i + j] === t));

/**
 * The thesaurus names of the groups the query names (one of its names printed in the query's words, in order), other
 * than those it names itself, as weighted phrases (`expansion`): each counts only in a document that does not print the
 * name the query used (`instead`), so a page saying both ranks by the query's own words; at `WEIGHTS.expansion`,
 * scaled down by its words per word of the query's name (`Airbnb` → `short-term rental` at a third of it).
 */
export function expansions(queryTerms: string[]): WeightedPhrase[] {
  const out: WeightedPhrase[] = [];
  const seen = new Set<string>();
  for (const group of GROUPS) {
    const used = group.find((name) => contains(queryTerms, name));
    if (!used) continue;
    for (const name of group) {
      const key = name.join(' ');
      if (contains(queryTerms, name) || seen.has(key)) continue;
      seen.add(key);
      // A longer name counts no more than the query's: its scores are sums over more words.
      const weight = WEIGHTS.expansion * Math.min(1, contentWords(used) / contentWords(name));
      out.push({ terms: name, weight, partWeight: 0, expansion: true, instead: used });
    }
  }
  return out;
}

/** A phrase as people read it: its terms, stopwords in lower case (`"not adopt"`). */
export function phraseText(phrase: readonly string[]): string {
  return `"${phrase.map((t) => (isStopTerm(t) ? t.toLowerCase() : t)).join(' ')}"`;
}

/** Levenshtein distance between two words (typo-tolerant name matching, closest-name suggestions). */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}
