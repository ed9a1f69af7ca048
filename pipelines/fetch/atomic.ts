// Files that must never be seen half-written: write a sibling temp file, fsync, rename over the target.
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** `.name.<8 hex>.part` next to the target, on the same filesystem so the rename is atomic. */
export function tempPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
}

const TEMP = /^\..+\.[0-9a-f]{8}\.part$/;

export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempPath(target);
  const file = await open(tmp, 'w');
  try {
    await file.writeFile(data);
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await file.close();
  await rename(tmp, target);
}

/** Temp files a crashed run left behind (only our own naming pattern). */
export async function removeStaleTemps(dir: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (TEMP.test(name)) {
      await rm(join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
