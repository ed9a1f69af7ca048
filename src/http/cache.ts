// Validators and freshness: an ETag, Last-Modified, Cache-Control, and a 304 when If-None-Match names the ETag (weak
// comparison, RFC 9110 13.1.2) or, without If-None-Match, when If-Modified-Since is no earlier than Last-Modified
// (13.1.3). A 304 carries the Vary its 200 would (RFC 9110 15.4.5): Accept-Encoding, which compression adds to coded
// bodies only, is added here for answers that would be coded.
import { createHash } from 'node:crypto';

import type { Context } from 'koa';

import type { State } from './state.ts';

/** A strong ETag of some bytes (or of a key that names them). */
export const etagOf = (content: string | Buffer) =>
  `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;

/** Does If-None-Match name `etag` (weakly: `W/` on either side), or `*`? */
export function matches(ifNoneMatch: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(/\s*,\s*/).some((t) => t === '*' || t.replace(/^W\//, '') === opaque);
}

export interface Validators {
  /**
   * When the answer last changed (ISO or HTTP date): by default the publication time of the release served, which
   * is when anything made from it changed; null for an answer with no such time.
   */
  modified?: string | null;
  /** The 200 is compressible (Vary: Accept-Encoding): false for release files and Arrow streams. */
  coded?: boolean;
}

/** Sets the validators; answers 304 (and returns true) when the client already holds this representation. */
export function notModified(ctx: Context, etag: string, cacheControl: string, v: Validators = {}): boolean {
  const modified = v.modified === undefined ? (ctx.state as State).release?.manifest.createdAt : v.modified;
  const time = modified ? Math.floor(Date.parse(modified) / 1000) * 1000 : NaN;
  ctx.set('ETag', etag);
  if (!Number.isNaN(time)) ctx.set('Last-Modified', new Date(time).toUTCString());
  ctx.set('Cache-Control', cacheControl);
  const ifNoneMatch = ctx.get('If-None-Match');
  const since = Date.parse(ctx.get('If-Modified-Since'));
  const fresh = ifNoneMatch ? matches(ifNoneMatch, etag) : !Number.isNaN(time) && time <= since;
  if (!fresh) return false;
  ctx.status = 304;
  if (v.coded !== false) ctx.vary('Accept-Encoding');
  return true;
}
