// Fusion of the lexical (BM25) and vector rankings of mode=hybrid, and the protection of exact matches.
//
// Blend: score = LEXICAL_WEIGHT · bm25 / best bm25 + (1 − LEXICAL_WEIGHT) · (sim − floor) / (best sim − floor), clipped
// to [0, 1] per part, where `floor` is the similarity at the vector ranking's depth (its candidates' lowest): the
// vector part spreads the vector top `depth` over [0, 1] and gives a page below it nothing, the lexical part keeps
// BM25's proportions. Measured on the judged set against reciprocal rank fusion (k 60 and 10, weighted or not), which
// gave every vector-only page a rank bonus however weak its similarity and buried exact matches.
//
// Exact matches keep their lexical rank. A query with a quoted phrase (or word), a number (file, enactment or
// resolution number, dollar figure, street address) or a name (a capitalised word that is not a stopword, an acronym)
// asks for pages that print it, which BM25 finds and a word-vector model cannot tell apart from their neighbours ("178-16" and "178-17"
// read alike to it): its first `PROTECTED` lexical results stay in their lexical order at the top. Any other query
// keeps at the top, in lexical order, those of its first `PROTECTED` lexical results that contain every word of the
// query (exact matches of the query itself); the vectors rank the rest. A kept result's score is above 1
// (1 + bm25 / best bm25); the vectors add recall below them.
import { STOPWORDS } from '../../core/text/analysis.ts';

export const LEXICAL_WEIGHT = 0.5;
export const PROTECTED = 10;

export interface Scored {
  id: string;
  score: number;
}
export type ExactSignal = 'phrase' | 'number' | 'name';

/** What in a query asks for exact matches: quotes, digits, names (capitalised words other than stopwords). */
export function exactSignals(q: string): ExactSignal[] {
  const out: ExactSignal[] = [];
  if (/"[^"]*\S[^"]*"/.test(q)) out.push('phrase');
  if (/\d/.test(q)) out.push('number');
  const tokens = q
    .replace(/"/g, ' ')
    .split(/[^\p{L}\p{N}&'’.-]+/u)
    .filter(Boolean);
  const named = tokens.some((w) => /^\p{Lu}/u.test(w) && !STOPWORDS.has(w.toLowerCase()));
  if (named) out.push('name');
  return out;
}

/**
 * The fused ranking of the candidates: `lexical` in BM25 order, `similarity` of every candidate that has a vector
 * (the vector ranking's top `depth` and the lexical candidates), `floor` the similarity at the vector depth; `keep`:
 * whether a lexical result keeps its rank (see above).
 */
export function fuse(
  lexical: Scored[],
  similarity: Map<string, number>,
  floor: number,
  keep: (id: string) => boolean,
): { ranked: Scored[]; kept: number } {
  const best = lexical[0]?.score || 1;
  let top = floor;
  for (const s of similarity.values()) if (s > top) top = s;
  const spread = top - floor || 1;
  const lex = new Map(lexical.map((r) => [r.id, Math.max(0, r.score / best)]));
  const blend = (id: string) =>
    LEXICAL_WEIGHT * (lex.get(id) ?? 0) +
    (1 - LEXICAL_WEIGHT) * Math.min(1, Math.max(0, ((similarity.get(id) ?? floor) - floor) / spread));
  const keptIds = lexical.slice(0, PROTECTED).filter((r) => keep(r.id));
  const kept = new Set(keptIds.map((r) => r.id));
  const rest = [...new Set([...lex.keys(), ...similarity.keys()])]
    .filter((id) => !kept.has(id))
    .map((id) => ({ id, score: blend(id) }));
  rest.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    ranked: [
      ...keptIds.map((r) => ({ id: r.id, score: round(1 + (lex.get(r.id) ?? 0)) })),
      ...rest.map((r) => ({ id: r.id, score: round(r.score) })),
    ],
    kept: keptIds.length,
  };
}
