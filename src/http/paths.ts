// One spelling of every path, settled before anything reads it: the MCP gate, admission, CORS, compression, caching
// keys and the router all see the same canonical path, so no path-scoped rule can be stepped around by writing the
// path another way (`/API/MCP`, `/api/mcp/`, `/api%2Fmcp`, `/api/./mcp`, `//api/mcp`).

/** Percent-encoded unreserved characters and `/` stand for themselves (RFC 3986 6.2.2.2); other escapes are kept. */
const decodeSafe = (path: string) =>
  path.replace(/%([0-9a-f]{2})/gi, (escape: string, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~/]/.test(c) ? c : escape;
  });

/** `.` and `..` segments resolved (RFC 3986 5.2.4; never above the root), empty segments dropped. */
function resolveSegments(path: string): string[] {
  const out: string[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out;
}

const isLiteral = (segment: string) => !/[:*{}()]/.test(segment);

/**
 * The canonical form of a request path: escapes of unreserved characters and `/` decoded, dot segments resolved,
 * repeated and trailing slashes dropped, and the literal segments of the first route template it matches (the router
 * matches without regard to case) spelled as the template spells them; parameter segments are kept as written.
 */
export function canonicalPath(path: string, templates: readonly string[]): string {
  const segments = resolveSegments(decodeSafe(path));
  for (const template of templates) {
    const parts = template.split('/').slice(1);
    const wildcard = parts.length > 0 && parts[parts.length - 1].startsWith('{*');
    if (wildcard ? segments.length < parts.length : segments.length !== parts.length) continue;
    if (parts.every((p, i) => !isLiteral(p) || p.toLowerCase() === segments[i].toLowerCase())) {
      parts.forEach((p, i) => {
        if (isLiteral(p)) segments[i] = p;
      });
      break;
    }
  }
  return `/${segments.join('/')}`;
}
