// The one rule for text that is not ours (a document's titles, page text, names, summaries, actions; a client's query)
// where it enters Markdown: it is data, never structure. Inline, it becomes one line in which nothing can open a tag,
// an entity, emphasis, code, a link or image, a table cell, or (at the start of a line) a heading, list, block quote,
// thematic break or setext underline. As a block, it goes in a code fence longer than any backtick run it holds.

/**
 * Characters escaped wherever they stand: HTML and entities (`<` `>` `&`), code, emphasis, strikethrough, links and
 * images (brackets: `(`, `)` and `!` form nothing without them), tables, headings, and the backslash itself.
 */
const ANYWHERE = /[\\`*_[\]<>&#|~]/g;
/** What only the start of a line makes structure of: a list marker, an ordered-list number, a setext underline. */
const LINE_START = /^([-+=]|\d{1,9}(?=[.)]))/;

const fold = (s: unknown) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
const escChars = (s: string) => s.replace(ANYWHERE, '\\$&');
const guardStart = (line: string) => line.replace(LINE_START, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`));

/**
 * Document (or client) text as one line of inline Markdown that reads as the same words: runs of whitespace, newlines
 * included, become one space, and every character Markdown could read as structure is backslash-escaped.
 */
export const esc = (s: unknown): string => guardStart(escChars(fold(s)));

/**
 * A search snippet: document text in which the search marked the matched words `**like this**` (src/engine/snippet.ts).
 * The text is escaped as `esc` does, the marks stay bold.
 */
export const escSnippet = (s: string): string =>
  guardStart(
    fold(s)
      .split(/\*\*(\S+?)\*\*/)
      .map((part, i) => (i % 2 ? `**${escChars(part)}**` : escChars(part)))
      .join(''),
  );

/** Names and such: each escaped, joined by our separator. */
export const escList = (xs: readonly unknown[], sep = ', ') => xs.map(esc).join(sep);

/**
 * Document text kept as its lines: a fenced code block whose fence is longer than any run of backticks inside, so no
 * line of the text can close it (and nothing inside is read as Markdown or HTML).
 */
export function fence(text: string, info = 'text'): string {
  const longest = Math.max(0, ...(String(text).match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${text}\n${ticks}`;
}

const hex = (c: string) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');

/**
 * A link destination: characters that could end it or the link early (whitespace, parentheses, angle brackets,
 * backslash, backtick, quotes) percent-encoded, so a URL from a manifest stays one destination.
 */
export const dest = (url: string) =>
  String(url).replace(/[\s()<>\\`"'[\]]/g, (c) => (c.charCodeAt(0) < 128 ? hex(c) : encodeURIComponent(c)));
