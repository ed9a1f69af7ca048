// HTML for browsers that reach what is not a search: the 404 page of non-API paths, a plain-language 400 page, and the
// page of each problem type (the `type` URI of every problem document resolves to one).
import { esc, shell } from './layout.ts';

export interface ProblemTypePage {
  key: string;
  status: number;
  title: string;
  description: string;
  action: string;
}

/** `code` spans in the plain-text descriptions become <code>. */
const prose = (s: string) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>');

const back = `<p><a href="/">Search the Board's records</a> · <a href="/supervisors">Supervisors</a></p>`;

/** The page a browser gets for a path that names nothing (the detail, unless it only repeats the path). */
export function notFoundHtml(path: string, detail: string): string {
  return shell(
    { title: 'Page not found — Board Records', noindex: true },
    `<h1>Page not found</h1>
<p>Nothing is at <code>${esc(path)}</code>${detail.includes(path) ? '' : `: ${esc(detail)}`}.</p>
${back}`,
  );
}

/** The page a browser gets for a request it cannot answer as asked: the reasons in plain words. */
export function badRequestHtml(sentences: string[]): string {
  return shell(
    { title: 'That request could not be answered — Board Records', noindex: true },
    `<h1>That request could not be answered</h1>
<div class="error" role="alert">${sentences.map((s) => `<p>${esc(s)}</p>`).join('')}</div>
${back}`,
  );
}

/** The page a problem document's `type` URI resolves to. */
export function problemTypeHtml(p: ProblemTypePage): string {
  return shell(
    { title: `${p.title} — Board Records`, noindex: true },
    `<h1>${esc(p.title)}</h1>
<p class="summary">Problem type <code>${esc(p.key)}</code>, answered with HTTP status ${p.status} as an RFC 9457 <code>application/problem+json</code> document whose <code>type</code> is this page.</p>
<p>${prose(p.description)}</p>
<h2>What to do</h2>
<p>${prose(p.action)}</p>
<p><a href="/">Search the Board's records</a> · <a href="/api/openapi.json">API description</a></p>`,
  );
}
