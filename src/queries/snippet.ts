// A snippet: the stretch of text holding the most distinct query terms, matched words marked **like this**.
import { tokenTerms } from '../../core/text/analysis.ts';

/** Words a snippet shows. */
const WINDOW = 32;
/** Windows start every STEP tokens. */
const STEP = 4;

export function snippet(text: string, queryTerms: string[]): string {
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  if (tokens.length === 0) return '';
  const wanted = new Set(queryTerms);
  const matches = tokens.map((tok) => tokenTerms(tok).find((t) => wanted.has(t)) ?? null);
  let best = 0;
  let bestScore = -1;
  const seen = new Set<string>();
  for (let start = 0; start < Math.max(1, tokens.length - WINDOW + 1); start += STEP) {
    seen.clear();
    let hits = 0;
    for (let i = start; i < Math.min(tokens.length, start + WINDOW); i++) {
      const m = matches[i];
      if (m !== null) { seen.add(m); hits++; }
    }
    const score = seen.size * 100 + hits;
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  // Open a few words before the first match so the context reads naturally.
  const firstHit = matches.findIndex((m, i) => i >= best && m !== null);
  const start = firstHit >= 0 ? Math.max(0, Math.min(best, firstHit - 6)) : best;
  const end = Math.min(tokens.length, start + WINDOW);
  const body = tokens.slice(start, end).map((t, i) => (matches[start + i] ? `**${t}**` : t)).join(' ');
  return `${start > 0 ? '… ' : ''}${body}${end < tokens.length ? ' …' : ''}`;
}
