// What a CommonMark reader makes of an answer: the offences where text from a document became structure. Every
// hostile string carries a token starting `HX` that names what it tries to open (`- HXLIST`, `> HXQUOTE`,
// `# HXHEADING`). An offence is any HTML node; a heading not written as one of ours (`# ` at the start of its line: a
// setext underline from a document makes the line above it a heading) or one that begins with a token; a list item or
// block quote that begins with the token of its kind; emphasis, a code span, link or image holding a token, or a link
// to a script; a thematic break (ours write none).
import { fromMarkdown } from 'mdast-util-from-markdown';

type Node = {
  type: string;
  value?: string;
  url?: string;
  position?: { start: { line: number } };
  children?: Node[];
};

export const TOKEN = /HX[A-Z]+/;

/** The text a node reads as (escapes resolved). */
export const textOf = (n: Node): string => n.value ?? (n.children ?? []).map(textOf).join('');

export function offences(md: string): string[] {
  const lines = md.split('\n');
  const out: string[] = [];
  const visit = (n: Node) => {
    const text = textOf(n);
    const at = `${n.type} at line ${n.position?.start.line}: ${JSON.stringify(text.slice(0, 80))}`;
    switch (n.type) {
      case 'html':
        out.push(`${n.type} at line ${n.position?.start.line}: ${JSON.stringify(n.value)}`);
        break;
      case 'heading':
        if (!/^#{1,6} /.test(lines[n.position!.start.line - 1]) || /^\s*HX(HEADING|SETEXT)/.test(text)) out.push(at);
        break;
      case 'listItem':
        if (/^\s*HX(LIST|ORDERED)/.test(text)) out.push(at);
        break;
      case 'blockquote':
        if (/^\s*HXQUOTE/.test(text)) out.push(at);
        break;
      case 'thematicBreak':
        out.push(at);
        break;
      case 'emphasis':
      case 'inlineCode':
      case 'link':
      case 'image':
      case 'linkReference':
      case 'imageReference':
      case 'definition':
        if (TOKEN.test(text) || TOKEN.test(n.url ?? '') || /^\s*javascript:/i.test(n.url ?? '')) out.push(at);
        break;
    }
    n.children?.forEach(visit);
  };
  visit(fromMarkdown(md) as Node);
  return out;
}

/** All the text the answer reads as, to check that document text arrived as the same words. */
export const readText = (md: string) => textOf(fromMarkdown(md) as Node);
