// One run at a time over a directory: a lock file created whole or not at all (written aside, then hard-linked into
// place, which fails if the lock exists), holding the holder's pid and start time. A lock whose process is gone (a
// crash, a kill) is taken over. Used by the build (`lake/.lock`) and the fetch (`<corpus>/.fetch.lock`).
import { link, readFile, rm, writeFile } from 'node:fs/promises';

/** Whether a process exists: signal 0 checks without sending; EPERM means it exists under another user. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Holder {
  pid: number;
  startedAt: string;
}

async function holderOf(path: string): Promise<{ text: string; holder: Holder | null } | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const h = JSON.parse(text) as Holder | number; // a bare pid: a lock from an older version
    const holder = typeof h === 'number' ? { pid: h, startedAt: 'at an unknown time' } : h;
    return { text, holder: Number.isInteger(holder?.pid) && holder.pid > 0 ? holder : null };
  } catch {
    return { text, holder: null }; // not a lock this code wrote: no live holder can be named
  }
}

export class LockHeld extends Error {}

/**
 * Takes the lock at `path` for a `what` (build, fetch), waiting up to `waitMs` for a live holder to let go; throws
 * LockHeld naming the holder after that. Resolves with the function that lets it go. The same process holding it
 * counts as a live holder, so two runs in one process exclude each other too.
 */
export async function takeLock(
  path: string,
  what: string,
  waitMs = 0,
  onWait?: (message: string) => void,
): Promise<() => Promise<void>> {
  const mine = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies Holder) + '\n';
  const aside = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  await writeFile(aside, mine);
  const deadline = Date.now() + waitMs;
  try {
    for (let waited = false; ;) {
      try {
        await link(aside, path);
        return async () => {
          // Only our own lock: never one that replaced it.
          if ((await readFile(path, 'utf8').catch(() => null)) === mine) await rm(path, { force: true });
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const held = await holderOf(path);
      if (!held) continue; // let go meanwhile
      if (!held.holder || !processAlive(held.holder.pid)) {
        // Stale: removed only if it is still the lock just read (another waiter may have replaced it since).
        if ((await readFile(path, 'utf8').catch(() => null)) === held.text) await rm(path, { force: true });
        continue;
      }
      const message = `another ${what} (pid ${held.holder.pid}, started ${held.holder.startedAt}) holds ${path}`;
      if (Date.now() >= deadline)
        throw new LockHeld(waitMs > 0 ? `${message}; waited ${Math.round(waitMs / 1000)} s` : message);
      if (!waited) onWait?.(`waiting for ${message}`);
      waited = true;
      await new Promise((r) => setTimeout(r, Math.min(250, Math.max(1, deadline - Date.now()))));
    }
  } finally {
    await rm(aside, { force: true });
  }
}
