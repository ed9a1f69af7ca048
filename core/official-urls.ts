// The hosts the Board publishes on. A URL that came from a corpus (a manifest row, an export's cell) is kept only when
// it is http(s) on one of them: anything else (`javascript:`, another site) would become a link in every format.
export const OFFICIAL_HOSTS = new Set([
  'sfbos.org',
  'www.sfbos.org',
  'sfbos.archive.sf.gov',
  'media.api.sf.gov',
  'sfgov.legistar.com',
  'sf.gov',
  'www.sf.gov',
]);

/** The URL, normalised, when it is http(s) on an official host without credentials; else null. */
export function officialUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const ok =
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    OFFICIAL_HOSTS.has(url.hostname) &&
    !url.username &&
    !url.password &&
    !url.port;
  return ok ? url.href : null;
}

/** Where synthetic documents say they live: a reserved name (RFC 2606), so no link of theirs can pass for the Board's. */
export const SYNTHETIC_BASE = 'https://synthetic.invalid/sfbos/';
