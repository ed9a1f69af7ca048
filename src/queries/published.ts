// When each document reached the public: the creation time of the release of its latest insert in the change log (the
// documents snapshot's `first_release`, as a time). Feeds order their entries by it, newest first.
import type { Release } from '../lake/release.ts';
import { Params } from './sql.ts';

/** Document id → RFC 3339 time, held per release (a few thousand rows at most). */
export function publishedTimes(release: Release): Promise<Map<string, string>> {
  return release.memo('published', async () => {
    const q = new Params();
    // This release's own changes have a NULL time: they are published at its creation.
    const created = q.add(new Date(release.manifest.createdAt).toISOString());
    const rows = await release.pool.rows(
      `SELECT record_id AS id, strftime(arg_max(coalesce(time, ${created}::TIMESTAMP), sequence), '%Y-%m-%dT%H:%M:%SZ') AS published
       FROM changes WHERE entity = 'documents' AND operation = 'insert' GROUP BY record_id`,
      q,
    );
    return new Map(rows.map((r) => [String(r.id), String(r.published)]));
  });
}
