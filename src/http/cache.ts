// Validators and freshness for answers outside the endpoint table (the page, the OpenAPI document, health): an ETag,
// Cache-Control, and a 304 when If-None-Match names the ETag (weak comparison, RFC 9110 13.1.2).
import { createHash } from 'node:crypto';

import type { Context } from 'koa';

/** A strong ETag of some bytes (or of a key that names them). */
export const etagOf = (content: string | Buffer) =>
  `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;

/** Does If-None-Match name `etag` (weakly: `W/` on either side), or `*`? */
export function matches(ifNoneMatch: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(/\s*,\s*/).some((t) => t === '*' || t.replace(/^W\//, '') === opaque);
}

/** Sets ETag and Cache-Control; answers 304 (and returns true) when the client already holds this representation. */
export function notModified(ctx: Context, etag: string, cacheControl: string): boolean {
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', cacheControl);
  if (!matches(ctx.get('If-None-Match'), etag)) return false;
  ctx.status = 304;
  return true;
}
