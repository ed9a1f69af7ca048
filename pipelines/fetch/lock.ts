// One fetch per corpus folder at a time (a slow nightly run must not race the next one). A lock left by a
// process that no longer exists (a crash) is taken over.
import { join } from 'node:path';

import { takeLock } from '../lock.ts';

export function acquireLock(dir: string): Promise<() => Promise<void>> {
  return takeLock(join(dir, '.fetch.lock'), 'fetch');
}
