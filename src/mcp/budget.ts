// The token budget of one tool result. A result is the Markdown text content plus the structured content (clients
// may put both into the model's context), so both count. Tokens are estimated as characters ÷ 3.5 (conservative
// for English mixed with JSON punctuation). Over budget, the longest texts are cut first (each cut says how much was
// kept and where the full record is), then the longest list is shortened from its end; every cut is listed in
// `trimmed` so an agent knows to page (narrow the query, lower `limit`, `cursor`) or fetch the full record.

/** About 20k tokens at most per tool result. */
export const TOKEN_BUDGET = 20_000;
export const CHARS_PER_TOKEN = 3.5;
const MAX_CHARS = Math.floor(TOKEN_BUDGET * CHARS_PER_TOKEN);
/** Texts are never cut below this many characters. */
const MIN_TEXT = 400;
/** Where the whole of a cut text is, when no record link holds it. */
const RECORD_HINT = 'the record link';

export interface Trim {
  /** JSON path of what was cut, e.g. `record.text` or `results`. */
  path: string;
  /** Characters (texts) or entries (lists) kept, and how many there were. */
  kept: number;
  of: number;
  /** Where to get the whole thing. */
  fetch: string;
}

export interface Fitted<B> {
  body: B;
  markdown: string;
  trimmed: Trim[];
  estimatedTokens: number;
}

/** An object or array of a JSON answer, its members read and written by key (a property name or an index). */
export type Holder = Record<string | number, unknown>;
type Leaf = { holder: Holder; key: string | number; path: string; length: number; url: string | null };

type Linked = { markdownUrl?: string; transcriptUrl?: string };
const urlOf = (o: unknown): string | null =>
  o && typeof o === 'object' && !Array.isArray(o)
    ? ((o as Linked).markdownUrl ?? (o as Linked).transcriptUrl ?? null)
    : null;

/** String leaves longer than MIN_TEXT (links and ids are never cut: they are short) and arrays, with the nearest record link. */
function walk(node: object, path: string, url: string | null, texts: Leaf[], lists: Leaf[]): void {
  if (Array.isArray(node)) {
    const items = node as unknown[] as unknown as Holder; // an array's members are read and written by index
    node.forEach((v: unknown, i) => {
      if (typeof v === 'string' && v.length > MIN_TEXT)
        texts.push({ holder: items, key: i, path: `${path}[${i}]`, length: v.length, url });
      else if (v && typeof v === 'object') walk(v, `${path}[${i}]`, url, texts, lists);
    });
    return;
  }
  const here = urlOf(node) ?? url;
  for (const [k, v] of Object.entries(node)) {
    const p = path ? `${path}.${k}` : k;
    if (typeof v === 'string' && v.length > MIN_TEXT)
      texts.push({ holder: node as Holder, key: k, path: p, length: v.length, url: here });
    else if (Array.isArray(v)) {
      lists.push({ holder: node as Holder, key: k, path: p, length: JSON.stringify(v).length, url: here });
      walk(v, p, here, texts, lists);
    } else if (v && typeof v === 'object') walk(v, p, here, texts, lists);
  }
}

/**
 * Fits `body` and its Markdown rendering into the budget. `listHint` says how to get the rest of a shortened list
 * (e.g. "lower limit or narrow from/to"); texts point at their record's markdownUrl (or RECORD_HINT).
 */
export function fit<B extends object>(
  original: B,
  render: (b: B) => string,
  listHint: string,
  /** Called after a list was shortened, to fix what depends on it (e.g. a cursor); `returned` is fixed here. */
  onListCut?: (holder: Holder, key: string | number) => void,
): Fitted<B> {
  const size = (b: B) => JSON.stringify(b).length + render(b).length;
  const done = (body: B, trimmed: Trim[]): Fitted<B> => ({
    body,
    markdown: render(body),
    trimmed,
    estimatedTokens: Math.ceil(size(body) / CHARS_PER_TOKEN),
  });
  if (size(original) <= MAX_CHARS) return done(original, []);

  // 1. Cap every long text at one length, lowered until the result fits or the cap reaches MIN_TEXT.
  const longest = (() => {
    const t: Leaf[] = [];
    walk(original, '', null, t, []);
    return t.reduce((m, l) => Math.max(m, l.length), 0);
  })();
  let body = original;
  let trimmed: Trim[] = [];
  let cap = longest;
  do {
    cap = Math.max(MIN_TEXT, Math.floor(cap * 0.7));
    body = structuredClone(original);
    trimmed = [];
    const texts: Leaf[] = [];
    walk(body, '', null, texts, []);
    for (const t of texts) {
      if (t.length <= cap) continue;
      const fetch = t.url ?? RECORD_HINT;
      t.holder[t.key] =
        `${(t.holder[t.key] as string).slice(0, cap)} … [trimmed: ${cap} of ${t.length} characters shown; full text at ${fetch}]`;
      trimmed.push({ path: t.path, kept: cap, of: t.length, fetch });
    }
  } while (size(body) > MAX_CHARS && cap > MIN_TEXT);

  // 2. Shorten the largest list from its end until the result fits.
  while (size(body) > MAX_CHARS) {
    const lists: Leaf[] = [];
    walk(body, '', null, [], lists);
    const big = lists.filter((l) => (l.holder[l.key] as unknown[]).length > 1).sort((a, b) => b.length - a.length)[0];
    if (!big) break;
    const arr = big.holder[big.key] as unknown[];
    const prior = trimmed.find((t) => t.path === big.path);
    const of = prior?.of ?? arr.length;
    arr.length = Math.max(1, Math.floor(arr.length * 0.8));
    if (typeof big.holder.returned === 'number') big.holder.returned = arr.length;
    onListCut?.(big.holder, big.key);
    if (prior) prior.kept = arr.length;
    else trimmed.push({ path: big.path, kept: arr.length, of, fetch: listHint });
  }
  return done(body, trimmed);
}

/** The Markdown footer naming the release and every cut. */
export function footer(release: string, trimmed: Trim[]): string {
  const lines = [
    '',
    `_Release ${release}. A recorded position is not a stance on the underlying matter: read the action text._`,
  ];
  if (trimmed.length) {
    lines.push('', `**Trimmed to fit the ~${TOKEN_BUDGET.toLocaleString('en-US')}-token result budget:**`);
    for (const t of trimmed) lines.push(`- \`${t.path}\`: ${t.kept} of ${t.of} kept — ${t.fetch}`);
  }
  return lines.join('\n') + '\n';
}
