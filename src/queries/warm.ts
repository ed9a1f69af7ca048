// What a release reads once per process (its memos: src/lake/release.ts), read before it serves: src/server.ts waits
// for this before it listens and before a new release takes over, so the first requests of a fresh replica do not
// each wait seconds for a table someone else's request started reading.
import { warmEngine } from '../engine/rank.ts';
import type { Release } from '../lake/release.ts';
import { warmHousing } from './aggregates/housing.ts';
import { positionTable } from './aggregates/positions.ts';
import { meetingsCoverage } from './coverage.ts';
import { entityIndex } from './entities.ts';
import { changeTimes } from './feeds.ts';
import { warmItems } from './items.ts';
import { enactmentsOf } from './numbers.ts';
import { documentsOf } from './pages.ts';
import { supervisors } from './supervisors.ts';

/** Settles once every per-release table is read; one that fails is left to the request that needs it to report. */
export async function warmRelease(release: Release): Promise<void> {
  await positionTable(release).catch(() => {}); // the largest, and several others derive from it
  await Promise.allSettled([
    warmEngine(release),
    warmItems(release),
    warmHousing(release),
    documentsOf(release),
    supervisors(release),
    changeTimes(release),
    meetingsCoverage(release),
    enactmentsOf(release),
    entityIndex(release),
  ]);
}
