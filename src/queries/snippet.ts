// A snippet: the stretch of text holding the most distinct query terms and quoted phrases, matched words marked
// **like this**: a scored term wherever it is, a phrase's words (its stopwords too) where the phrase is printed.
import { tokenTerms, type ParsedQuery } from '../../core/text/analysis.ts';

/** Words a snippet shows. */
const WINDOW = 32;
/** Windows start every STEP tokens. */
const STEP = 4;

export function snippet(text: string, query: ParsedQuery): string {
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  if (tokens.length === 0) return '';
  // Weighted phrases (compounds, thesaurus expansions) are marked like quoted ones; a one-word expansion like a term.
  const weighted = query.weighted.map((w) => w.terms);
  const wanted = new Set([...query.terms, ...weighted.filter((w) => w.length === 1).flat()]);
  // What each token matches, counted once per window: the scored term it holds, and the phrase it is part of.
  const matches = tokens.map((tok) => tokenTerms(tok).find((t) => wanted.has(t)) ?? null);
  const phrases = phraseTokens(tokens, [...query.phrases, ...weighted.filter((w) => w.length > 1)]);
  const hit = (i: number) => matches[i] !== null || phrases[i] !== null;
  let best = 0;
  let bestScore = -1;
  const seen = new Set<string>();
  for (let start = 0; start < Math.max(1, tokens.length - WINDOW + 1); start += STEP) {
    seen.clear();
    let hits = 0;
    for (let i = start; i < Math.min(tokens.length, start + WINDOW); i++) {
      const m = matches[i];
      const p = phrases[i];
      if (m !== null) seen.add(m);
      if (p !== null) seen.add(`"${p}`);
      if (m !== null || p !== null) hits++;
    }
    const score = seen.size * 100 + hits;
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  // Open a few words before the first match so the context reads naturally.
  let firstHit = best;
  while (firstHit < tokens.length && !hit(firstHit)) firstHit++;
  const start = firstHit < tokens.length ? Math.max(0, Math.min(best, firstHit - 6)) : best;
  const end = Math.min(tokens.length, start + WINDOW);
  const body = tokens.slice(start, end).map((t, i) => (hit(start + i) ? `**${t}**` : t)).join(' ');
  return `${start > 0 ? '… ' : ''}${body}${end < tokens.length ? ' …' : ''}`;
}

/**
 * For each token, the index of the first quoted phrase printed across it, or null: the phrase's index terms found in
 * order in the text's (a token such as `U.S.` holds two, a phrase may start or end inside one).
 */
function phraseTokens(tokens: string[], phrases: string[][]): (number | null)[] {
  const out: (number | null)[] = tokens.map(() => null);
  if (phrases.length === 0) return out;
  const sequence: string[] = [];
  const tokenOf: number[] = [];
  tokens.forEach((tok, i) => {
    for (const t of tokenTerms(tok)) {
      sequence.push(t);
      tokenOf.push(i);
    }
  });
  phrases.forEach((phrase, k) => {
    for (let s = 0; s + phrase.length <= sequence.length; s++) {
      if (phrase.every((t, j) => sequence[s + j] === t)) for (let j = 0; j < phrase.length; j++) out[tokenOf[s + j]] ??= k;
    }
  });
  return out;
}
