// The change feed: the release's `changes` table (every entity change since the lake's history began, in global
// sequence order). The release's own changes are stored with a NULL release and time: they are this release's id and
// creation time (see pipelines/publish/changes.ts).
import type { Release } from '../lake/release.ts';
import type { Links } from './links.ts';
import { Params } from './sql.ts';

/** Version of the change record shape (schemas/change-feed.json). */
export const CHANGES_SCHEMA_VERSION = '1.0.0';

export interface ChangeParams {
  cursor: number;
  since?: string;
  limit: number;
  release?: string;
}

export async function changeFeed(release: Release, links: Links, p: ChangeParams) {
  const since = p.since === undefined ? null : new Date(p.since).toISOString();
  const created = new Date(release.manifest.createdAt).toISOString();
  const q = new Params();
  const rows = await release.pool.rows(
    `SELECT sequence::BIGINT::DOUBLE AS sequence, entity, record_id AS id, operation, coalesce(release, ${q.add(release.id)}) AS release,
       strftime(coalesce(time, ${q.add(created)}::TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%gZ') AS time, record_hash AS "recordHash"
     FROM changes
     WHERE sequence > ${q.add(p.cursor)} AND (${q.add(since)}::VARCHAR IS NULL OR coalesce(time, ${q.add(created)}::TIMESTAMP) >= ${q.add(since)}::TIMESTAMP)
     ORDER BY sequence LIMIT ${q.add(p.limit + 1)}`,
    q,
  );
  const more = rows.length > p.limit;
  const changes = rows
    .slice(0, p.limit)
    .map((c) => ({ ...c, url: links.snapshotRecord(String(c.entity), String(c.id)) }));
  return {
    schemaVersion: CHANGES_SCHEMA_VERSION,
    release: release.id,
    cursor: p.cursor,
    since: since,
    limit: p.limit,
    returned: changes.length,
    nextCursor: changes.length ? Number(rows[changes.length - 1].sequence) : p.cursor,
    hasMore: more,
    changes,
  };
}
