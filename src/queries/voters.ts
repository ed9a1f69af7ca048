// Who the names of an item's roll calls are: the supervisor each recorded name was reconciled to by the pipeline (the
// positions table), so a page can link a name as printed to that supervisor. Unresolved names have no entry.
import { yearOfId } from '../../core/lake/ids.ts';
import type { Release } from '../lake/release.ts';
import { Params } from './sql.ts';

/** Name as recorded → supervisor id, for one item (a name is one person within a meeting). */
export async function itemVoters(release: Release, itemId: string): Promise<Map<string, string>> {
  const q = new Params();
  const year = yearOfId(itemId);
  const rows = await release.pool.rows(
    `SELECT DISTINCT name_as_recorded AS name, supervisor_id AS id FROM positions
     WHERE item_id = ${q.add(itemId)}${year ? ` AND year = ${q.add(year)}` : ''} AND supervisor_id IS NOT NULL`,
    q,
  );
  return new Map(rows.map((r) => [String(r.name), String(r.id)]));
}
