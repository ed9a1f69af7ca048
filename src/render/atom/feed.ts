// Atom 1.0 (RFC 4287) feeds a resident or reporter subscribes to in any feed reader: the records a search (or a
// supervisor's votes) matches. An entry's id is its page's URL, so a reader never shows a record twice; its
// `published` is its meeting's day (so a 2016 vote reads as news of 2016), its `updated` when the release history last
// changed the record.

export interface Entry {
  /** Absolute URL of the record's page: the entry's id and link. */
  url: string;
  title: string;
  /** RFC 3339: the start of the record's meeting day in San Francisco (meetingDay). */
  published: string;
  /** RFC 3339: when the record last changed in the release history, never before `published`. */
  updated: string;
  summary: string;
  /** The official PDF page. */
  official?: string;
  category?: string;
}

export interface Feed {
  /** Absolute URL of the feed itself: its id and self link. */
  self: string;
  /** Absolute URL of the page that shows the same records. */
  page: string;
  title: string;
  subtitle: string;
  /** RFC 3339: the newest entry's, or the release's when there is none. */
  updated: string;
  entries: Entry[];
}

// XML 1.0 admits no control characters but tab, newline and return: a PDF's stray bytes must not break the feed.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export const xml = (v: unknown) =>
  String(v ?? '')
    .replace(CONTROL, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function entryXml(e: Entry): string {
  return `<entry>
<id>${xml(e.url)}</id>
<title type="text">${xml(e.title)}</title>
<published>${xml(e.published)}</published>
<updated>${xml(e.updated)}</updated>
<link rel="alternate" type="text/html" href="${xml(e.url)}"/>
${e.official ? `<link rel="related" type="application/pdf" title="Official PDF" href="${xml(e.official)}"/>\n` : ''}${e.category ? `<category term="${xml(e.category)}"/>\n` : ''}<summary type="text">${xml(e.summary)}</summary>
</entry>`;
}

/** Midnight starting `date` (YYYY-MM-DD) in San Francisco, as RFC 3339 with the city's UTC offset of that day. */
export function meetingDay(date: string): string {
  const early = new Date(`${date}T08:00:00Z`); // before 2 a.m. there, when a clock change happens
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', timeZoneName: 'longOffset' })
    .formatToParts(early)
    .find((p) => p.type === 'timeZoneName')?.value;
  const offset = /GMT([+-]\d{2}:\d{2})/.exec(name ?? '')?.[1] ?? '-08:00';
  return `${date}T00:00:00${offset}`;
}

export function atomFeed(f: Feed): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${xml(f.self)}</id>
<title type="text">${xml(f.title)}</title>
<subtitle type="text">${xml(f.subtitle)}</subtitle>
<updated>${xml(f.updated)}</updated>
<author><name>Board Records</name></author>
<link rel="self" type="application/atom+xml" href="${xml(f.self)}"/>
<link rel="alternate" type="text/html" href="${xml(f.page)}"/>
<generator>Board Records</generator>
${f.entries.map(entryXml).join('\n')}
</feed>
`;
}
