// The change log: every snapshot entity's records diffed by record hash against the state the previous release's log
// describes, appended with global sequence numbers after the previous log, which is carried forward unchanged.
//
// A release's id is the hash of its files, so its own changes cannot name it: this release's rows have `release` and
// `time` NULL, and readers fill them from the manifest (`releaseId`, `createdAt`). The next build carries them forward
// with both filled in. That keeps the log byte-reproducible and the release content-addressed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { DuckDBConnection } from '@duckdb/node-api';

import { CHANGE_COLUMNS, type ChangeCounts, SNAPSHOT_ENTITIES as ENTITIES } from '../../core/lake/format.ts';
import { sqlString } from '../../core/sql.ts';
import { copyOut } from '../store/tables.ts';

/** The release the new one is diffed against: its id, creation time and change log (null when it has none). */
export interface PreviousRelease {
  id: string;
  createdAt: string;
  dir: string;
}

/**
 * Record hash: sha256 of DuckDB's `to_json` of the whole row, columns in table order (as written by the pipeline).
 * Writes `<dir>/changes.parquet` and returns what changed. The entity tables must already be loaded in `db`.
 */
export async function writeChanges(
  db: DuckDBConnection,
  previous: PreviousRelease | null,
  dir: string,
): Promise<ChangeCounts> {
  await db.run(
    `CREATE OR REPLACE TABLE change_current AS ${ENTITIES.map(
      (e, i) =>
        `SELECT ${i} AS rank, '${e.name}' AS entity, t."${e.key}"::VARCHAR AS record_id, sha256(to_json(t)::VARCHAR) AS record_hash FROM "${e.table}" t`,
    ).join(' UNION ALL ')}`,
  );

  const cols = Object.entries(CHANGE_COLUMNS)
    .map(([k, v]) => `NULL::${v} AS "${k}"`)
    .join(', ');
  const priorLog =
    previous && existsSync(join(previous.dir, 'changes.parquet')) ? join(previous.dir, 'changes.parquet') : null;
  await db.run(
    priorLog
      ? `CREATE OR REPLACE TABLE change_prior AS SELECT sequence, entity, record_id, operation, coalesce(release, ${sqlString(previous!.id)}) AS release,
         coalesce(time, ${sqlString(previous!.createdAt)}::TIMESTAMP) AS time, record_hash FROM read_parquet(${sqlString(priorLog)})`
      : `CREATE OR REPLACE TABLE change_prior AS SELECT ${cols} WHERE false`,
  );

  // The state the prior log describes: each record's latest change, unless that change deleted it.
  await db.run(`CREATE OR REPLACE TABLE change_new AS
    WITH state AS (
      SELECT entity, record_id, record_hash FROM change_prior
      QUALIFY row_number() OVER (PARTITION BY entity, record_id ORDER BY sequence DESC) = 1 AND operation <> 'delete'
    ), ranks AS (SELECT DISTINCT rank, entity FROM (VALUES ${ENTITIES.map((e, i) => `(${i}, '${e.name}')`).join(', ')}) v(rank, entity)),
    diff AS (
      SELECT coalesce(c.entity, s.entity) AS entity, coalesce(c.record_id, s.record_id) AS record_id,
        CASE WHEN s.record_id IS NULL THEN 'insert' WHEN c.record_id IS NULL THEN 'delete' ELSE 'update' END AS operation,
        c.record_hash
      FROM change_current c FULL JOIN state s ON c.entity = s.entity AND c.record_id = s.record_id
      WHERE c.record_hash IS DISTINCT FROM s.record_hash
    )
    SELECT (SELECT coalesce(max(sequence), 0) FROM change_prior) + row_number() OVER (ORDER BY r.rank, d.record_id) AS sequence,
      d.entity, d.record_id, d.operation, NULL::VARCHAR AS release, NULL::TIMESTAMP AS time, d.record_hash
    FROM diff d JOIN ranks r USING (entity)`);

  await copyOut(db, `SELECT * FROM change_prior UNION ALL SELECT * FROM change_new`, join(dir, 'changes'), {
    orderBy: 'sequence',
  });
  const [row] = (
    await db.runAndReadAll(`SELECT
      count(*) FILTER (operation = 'insert')::INTEGER AS "insert", count(*) FILTER (operation = 'update')::INTEGER AS "update",
      count(*) FILTER (operation = 'delete')::INTEGER AS "delete", (SELECT count(*) FROM change_prior)::INTEGER AS carried FROM change_new`)
  ).getRowObjectsJson();
  return row as unknown as ChangeCounts;
}
