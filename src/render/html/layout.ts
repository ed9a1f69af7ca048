// What every HTML page shares: escaping, dates as people write them, the links between pages, and the page shell
// (skip link, header, feed and JSON alternates). Pages link to pages; the JSON stays at the API URL.

export const esc = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2016-11-01` → `1 Nov 2016`; anything else as it is. */
export function day(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(date ?? ''));
  return m ? `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}` : String(date ?? '');
}

/** `2015-12` → `Dec 2015`. */
export function month(ym: string | null): string {
  const m = /^(\d{4})-(\d{2})$/.exec(String(ym ?? ''));
  return m ? `${MONTHS[Number(m[2]) - 1]} ${m[1]}` : '';
}

/** A vote's id is its item's id and `-v<n>`: the item page shows it at `#vote-<n>`. */
const VOTE = /^(.*)-v(\d+)$/;

/** Where each kind of record is a page on this site (relative paths: a page links to pages). */
export const href = {
  item: (id: string) => `/items/${encodeURIComponent(id)}`,
  vote: (rollCallId: string) => {
    const m = VOTE.exec(rollCallId);
    return m ? `${href.item(m[1])}#vote-${m[2]}` : href.item(rollCallId);
  },
  page: (id: string, q = '') => `/pages/${encodeURIComponent(id)}${q ? `?q=${encodeURIComponent(q)}` : ''}`,
  comment: (id: string) => `/comments/${encodeURIComponent(id)}`,
  meeting: (date: string) => `/meetings/${encodeURIComponent(date)}`,
  supervisor: (id: string) => `/supervisors/${encodeURIComponent(id)}`,
  supervisors: () => '/supervisors',
  meetings: (year?: number) => (year ? `/meetings#y${year}` : '/meetings'),
  supervisorFeed: (id: string) => `/feeds/supervisors/${encodeURIComponent(id)}`,
};

export interface Shell {
  title: string;
  /** The page's JSON at the API. */
  json?: string;
  /** An Atom feed that follows what the page shows. */
  feed?: { href: string; title: string };
  /** The search page's script (the results swap in without a reload). */
  script?: boolean;
  noindex?: boolean;
  /** The page holds the search form itself (the home page): the header then leaves its search box out. */
  searchForm?: boolean;
  /** The query a page was reached with, kept in the header's search box. */
  q?: string;
}

const SITE = 'San Francisco Board of Supervisors: agendas, minutes, recorded votes and public comment.';

/** The search box every page carries in its header (the home page has the full form instead). */
const headerSearch = (q: string) =>
  `<form class="site-search" method="get" action="/" role="search" aria-label="Search the records"><label class="visually-hidden" for="site-q">Search the records</label><input id="site-q" name="q" type="search" value="${esc(q)}" minlength="2" maxlength="300" required placeholder="Search the records"><button type="submit">Search</button></form>`;

export function shell(s: Shell, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${s.noindex ? '<meta name="robots" content="noindex">\n' : ''}<title>${esc(s.title)}</title>
<link rel="stylesheet" href="/assets/app.css">
${s.json ? `<link rel="alternate" type="application/json" href="${esc(s.json)}">\n` : ''}${s.feed ? `<link rel="alternate" type="application/atom+xml" title="${esc(s.feed.title)}" href="${esc(s.feed.href)}">\n` : ''}${s.script ? '<script src="/assets/app.js" defer></script>\n' : ''}</head>
<body>
<a class="skip" href="#main">Skip to main content</a>
<header><p class="site"><a href="/">Board Records</a></p><p class="about">${SITE}</p>
<nav class="site-nav" aria-label="Site"><a href="/meetings">Meetings</a><a href="/supervisors">Supervisors</a><a href="/api/openapi.json">API</a></nav>
${s.searchForm ? '' : headerSearch(s.q ?? '')}</header>
<main id="main" tabindex="-1">
${main}
</main>
</body>
</html>`;
}

/** The links at the foot of a record page: the official PDF, and the same record as data. */
export function sources(official: { url: string; label: string }[], json: string, markdown?: string): string {
  const data = [`<a href="${esc(json)}">JSON</a>`, markdown ? `<a href="${esc(markdown)}">Markdown</a>` : '']
    .filter(Boolean)
    .join(' · ');
  return `<p class="sources">${official.map((o) => `<a class="official" href="${esc(o.url)}">${esc(o.label)}</a>`).join(' · ')}${official.length ? ' · ' : ''}As data: ${data}</p>`;
}
