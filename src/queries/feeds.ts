// When each record a feed lists last changed, from the release history: the time of its latest change in the change
// log (an insert, or an update when a later release changed it). Changes of the release itself have a NULL time: they
// happened at its creation. Feeds date an entry's `updated` by it and its `published` by its meeting.
import type { Release } from '../lake/release.ts';
import { Params } from './sql.ts';

/** Keys of changeTimes: a change-log record, or a supervisor's recorded position on a roll call. */
export const recordKey = (entity: string, id: string) => `${entity}\n${id}`;
export const positionKey = (rollCallId: string, supervisorId: string) => `position\n${rollCallId}\n${supervisorId}`;

/** Record key → RFC 3339 time of its latest change, held per release (one row per record the log holds). */
export function changeTimes(release: Release): Promise<Map<string, string>> {
  return release.memo('change-times', async () => {
    const q = new Params();
    const created = q.add(new Date(release.manifest.createdAt).toISOString());
    const time = `strftime(arg_max(coalesce(c.time, ${created}::TIMESTAMP), c.sequence), '%Y-%m-%dT%H:%M:%SZ')`;
    const rows = await release.pool.rows(
      `SELECT c.entity || chr(10) || c.record_id AS k, ${time} AS t FROM changes c GROUP BY c.entity, c.record_id
       UNION ALL
       SELECT 'position' || chr(10) || p.roll_call_id || chr(10) || p.supervisor_id AS k, ${time} AS t
       FROM positions p JOIN changes c ON c.entity = 'recorded-positions' AND c.record_id = p.position_id
       WHERE p.supervisor_id IS NOT NULL GROUP BY p.roll_call_id, p.supervisor_id`,
      q,
    );
    return new Map(rows.map((r) => [String(r.k), String(r.t)]));
  });
}
