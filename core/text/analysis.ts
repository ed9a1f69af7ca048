// Text analysis shared by the pipeline (indexing) and the server (querying), so both always agree.
// Mirrors DuckDB fts defaults (lower-case, accents stripped, Snowball porter stemmer, English stopwords)
// except that digits are kept: people search for file numbers, street numbers and years, and that stopwords are
// indexed too, for phrases only: every word has a position, a stopword is a term of its own (the word in capitals)
// that scores nothing, so `"not adopted"` needs "not" right before "adopted" while an unquoted query drops stopwords.
import snowball from 'snowball-stemmers';

export const ANALYSIS = {
  version: 'analysis-v4',
  stemmer: 'snowball-porter',
  stopwords: 'snowball-english',
  /** Stopwords are indexed as their words in capitals, with positions, for phrases only: idf 0, not in doclen. */
  stopwordTerms: 'upper-case, phrases only',
  lowercase: true,
  stripAccents: true,
  keepDigits: true,
  bm25: { k1: 1.2, b: 0.75, idf: 'log10(((N - df + 0.5) / (df + 0.5)) + 1)' },
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
    s = /^\d+$/.test(word) ? word : stemmer.stem(word) || word;
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** Lower-cases, strips accents, joins digit groups (`$2,237,020` → `2237020`) and drops in-word apostrophes. */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/(\p{L})['’](\p{L})/gu, '$1$2');
}

/** Raw words in order, before stopword removal and stemming. */
export function words(text: string): string[] {
  return normalize(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
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
}

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
  return { terms: [...new Set(all)], phrases };
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
