// A snippet: the stretch of text holding the most distinct query terms, matched words marked **like this**.
import { normalize, STOPWORDS, stem } from '../text/analysis.ts';

const WINDOW = 32;

export function snippet(text: string, queryTerms: string[], maxWords = WINDOW): string {
  const tokens = text.replace(/\s+/g, ' ').trim().split(' ');
  if (tokens.length === 0) return '';
  const wanted = new Set(queryTerms);
  const matches = tokens.map((tok) => {
    const words = normalize(tok).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const hit = words.find((w) => !STOPWORDS.has(w) && wanted.has(stem(w)));
    return hit ? stem(hit) : null;
  });
  let best = 0;
  let bestScore = -1;
  for (let start = 0; start < Math.max(1, tokens.length - maxWords + 1); start += 4) {
    const seen = new Set(matches.slice(start, start + maxWords).filter((m): m is string => m !== null));
    const hits = matches.slice(start, start + maxWords).filter((m) => m !== null).length;
    const score = seen.size * 100 + hits;
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  // Open a few words before the first match so the context reads naturally.
  const firstHit = matches.findIndex((m, i) => i >= best && m !== null);
  const start = firstHit >= 0 ? Math.max(0, Math.min(best, firstHit - 6)) : best;
  const end = Math.min(tokens.length, start + maxWords);
  const body = tokens.slice(start, end).map((t, i) => (matches[start + i] ? `**${t}**` : t)).join(' ');
  return `${start > 0 ? '… ' : ''}${body}${end < tokens.length ? ' …' : ''}`;
}
