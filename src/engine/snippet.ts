// A snippet: the stretch of text holding the most distinct query terms and quoted phrases, matched words marked
// **like this**: a scored term wherever it is, a phrase's words (its stopwords too) where the phrase is printed.
import { type ParsedQuery, tokenTerms } from '../../core/text/analysis.ts';

/** Words a snippet shows unless asked for more. */
export const SNIPPET_WORDS = 32;
/** Windows start every STEP tokens. */
const STEP = 4;

export function snippet(text: string, query: ParsedQuery, words = SNIPPET_WORDS): string {
  // Weighted phrases (compounds, thesaurus expansions) are marked like quoted ones; a one-word expansion like a term.
  const weighted = query.weighted.map((w) => w.terms);
  const wanted = new Set([...query.terms, ...weighted.filter((w) => w.length === 1).flat()]);
  const phraseList = [...query.phrases, ...weighted.filter((w) => w.length > 1)];
  const { starts, ends, terms } = scan(text, [...wanted, ...phraseList.flat()], phraseList.length > 0);
  const n = starts.length;
  if (n === 0) return '';
  // What each token matches, counted once per window: the scored term it holds, and the phrase it is part of.
  const matches = new Map<number, string>();
  for (const [i, ts] of terms) {
    const m = ts.find((t) => wanted.has(t));
    if (m !== undefined) matches.set(i, m);
  }
  const phrases = phraseTokens(terms, phraseList);
  const hits = [...new Set([...matches.keys(), ...phrases.keys()])].sort((a, b) => a - b);
  // Windows of `words` tokens every STEP, slid along the hits: what each holds, counted by what it matches.
  const held = new Map<string, number>();
  const move = (i: number, by: 1 | -1) => {
    for (const key of [matches.get(i), phrases.has(i) ? `"${phrases.get(i)}` : undefined])
      if (key !== undefined) {
        const count = (held.get(key) ?? 0) + by;
        if (count === 0) held.delete(key);
        else held.set(key, count);
      }
  };
  let best = 0;
  let bestScore = -1;
  let first = 0; // hits[first..last) lie in the window
  let last = 0;
  for (let start = 0; start < Math.max(1, n - words + 1); start += STEP) {
    for (; first < last && hits[first] < start; first++) move(hits[first], -1);
    for (; last < hits.length && hits[last] < start + words; last++) move(hits[last], 1);
    const score = held.size * 100 + (last - first);
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  // Open a few words before the first match so the context reads naturally, and show the words after it up to the
  // end of the text rather than stop short of it.
  const firstHit = hits.find((i) => i >= best);
  const from = Math.min(firstHit !== undefined ? Math.max(best, firstHit - 6) : best, Math.max(0, n - words));
  const to = Math.min(n, from + words);
  const shown: string[] = [];
  for (let i = from; i < to; i++) {
    const token = text.slice(starts[i], ends[i]);
    shown.push(matches.has(i) || phrases.has(i) ? `**${token}**` : token);
  }
  return `${from > 0 ? '… ' : ''}${shown.join(' ')}${to < n ? ' …' : ''}`;
}

/** JavaScript's `\s`, what the tokens are split on, for the characters beyond ASCII (rare in these texts). */
const WIDE_SPACE = /\s/;
/** ASCII characters by class: whitespace, digit, letter, other. */
const [SPACE, DIGIT, LETTER, OTHER] = [1, 2, 3, 0];
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d)
    ? SPACE
    : c >= 0x30 && c <= 0x39
      ? DIGIT
      : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a
        ? LETTER
        : OTHER,
);

/**
 * The text's whitespace-delimited tokens (where each starts and ends) and the index terms of those that may hold one of
 * `wanted`, by token: most tokens are never analysed. In an ASCII token a word starts where a run of letters and
 * digits does, and its index term (a stem, a stop term, a number with its digit groups joined) starts with the run's
 * first character, lower-cased, but for a number whose leading zeros are dropped (`067-24` is `67-24`); so a token with
 * no run starting with a wanted term's first character (or with a zero, when one starts with a digit) holds none. A
 * token with a character beyond ASCII is always analysed. With `phrases`, a token turned away that holds words stands
 * for them as one term matching nothing (a phrase cannot span it), and one without words (`—`) is left out, as
 * indexTerms leaves it.
 */
function scan(
  text: string,
  wanted: string[],
  phrases: boolean,
): { starts: number[]; ends: number[]; terms: Map<number, readonly string[]> } {
  const firsts = new Uint8Array(128);
  for (const t of wanted) if (t.charCodeAt(0) < 128) firsts[t.charCodeAt(0) | 0x20] = 1;
  const digitFirst = wanted.some((t) => ASCII_CLASS[t.charCodeAt(0)] === DIGIT);
  const starts: number[] = [];
  const ends: number[] = [];
  const terms = new Map<number, readonly string[]>();
  const NONE = [''];
  let start = -1;
  let candidate = false;
  let word = false;
  let inRun = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20;
    const cls = c < 128 ? ASCII_CLASS[c] : WIDE_SPACE.test(text[i]) ? SPACE : OTHER;
    if (cls === SPACE) {
      if (start >= 0) {
        if (candidate) terms.set(starts.length, tokenTerms(text.slice(start, i)));
        else if (phrases && word) terms.set(starts.length, NONE);
        starts.push(start);
        ends.push(i);
        start = -1;
      }
      continue;
    }
    if (start < 0) {
      start = i;
      candidate = false;
      word = false;
      inRun = false;
    }
    if (candidate) continue;
    const alnum = cls === LETTER || cls === DIGIT;
    if (c > 0x7f) candidate = true;
    else if (alnum) {
      word = true;
      if (!inRun && (firsts[c | 0x20] || (c === 0x30 && digitFirst))) candidate = true;
    }
    inRun = alnum;
  }
  return { starts, ends, terms };
}

/**
 * For each token printing a quoted phrase, the index of the first such phrase: the phrase's index terms found in
 * order in the tokens' (`terms`, see scan; a token such as `U.S.` holds two, a phrase may start or end inside one).
 */
function phraseTokens(terms: Map<number, readonly string[]>, phrases: string[][]): Map<number, number> {
  const out = new Map<number, number>();
  if (phrases.length === 0) return out;
  const sequence: string[] = [];
  const tokenOf: number[] = [];
  for (const [i, ts] of terms) {
    for (const t of ts) {
      sequence.push(t);
      tokenOf.push(i);
    }
  }
  phrases.forEach((phrase, k) => {
    for (let s = 0; s + phrase.length <= sequence.length; s++) {
      if (phrase.every((t, j) => sequence[s + j] === t))
        for (let j = 0; j < phrase.length; j++) if (!out.has(tokenOf[s + j])) out.set(tokenOf[s + j], k);
    }
  });
  return out;
}
