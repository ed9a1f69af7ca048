// HTML for browsers that reach what is not a search: the 404 page of non-API paths, and the page of each problem
// type (the `type` URI of every problem document resolves to one).
import { esc } from './page.ts';

export interface ProblemTypePage {
  key: string;
  status: number;
  title: string;
  description: string;
  action: string;
}

/** `code` spans in the plain-text descriptions become <code>. */
const prose = (s: string) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>');

function shell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)} — Board Records</title>
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<header><h1><a href="/">Board Records</a></h1><p>San Francisco Board of Supervisors: agendas, minutes, recorded votes and public comment. <a href="/api/openapi.json">API</a></p></header>
<main>
${body}
</main>
</body>
</html>`;
}

/** The page a browser gets for a path that names nothing. */
export function notFoundHtml(path: string, detail: string): string {
  return shell(
    'Page not found',
    `<h2>Page not found</h2>
<p>Nothing is at <code>${esc(path)}</code>: ${esc(detail)}.</p>
<p><a href="/">Search the Board's records</a>, or see the <a href="/api/openapi.json">API description</a>.</p>`,
  );
}

/** The page a problem document's `type` URI resolves to. */
export function problemTypeHtml(p: ProblemTypePage): string {
  return shell(
    p.title,
    `<h2>${esc(p.title)}</h2>
<p class="summary">Problem type <code>${esc(p.key)}</code>, answered with HTTP status ${p.status} as an RFC 9457 <code>application/problem+json</code> document whose <code>type</code> is this page.</p>
<p>${prose(p.description)}</p>
<h3>What to do</h3>
<p>${prose(p.action)}</p>
<p><a href="/">Search the Board's records</a> · <a href="/api/openapi.json">API description</a></p>`,
  );
}
