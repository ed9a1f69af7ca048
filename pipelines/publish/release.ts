// A release: staged in a temporary directory, named by the hash of its content, renamed into place in one step,
// then pointed at by `lake/current`. A crash at any point leaves the previous release untouched and in use: every
// file and directory is on disk (fsync) before the rename makes it visible, and the rename before `current` names it.
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

import {
  CHECKSUMS_FILE,
  currentLink,
  type ManifestFile,
  releaseDir,
  releasesDir,
  sha256sums,
} from '../../core/lake/format.ts';
import { processAlive } from '../lock.ts';

export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else out.push(path);
  }
  return out.sort();
}

export async function stagingDir(lake: string): Promise<string> {
  const dir = join(lake, `.staging-${process.pid}-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Flushes a file or directory to disk (a directory: its entries, so a rename or a new file in it survives a crash). */
async function fsync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes every file under `dir`, then every directory, innermost first. */
async function fsyncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await fsyncTree(path);
    else await fsync(path);
  }
  await fsync(dir);
}

/**
 * Moves a staged release into `lake/releases/<id>` (unless that release already exists: same content, nothing to
 * publish) and points `lake/current` at it. Returns whether a new release was published.
 */
export async function publish(lake: string, staged: string, id: string, makeCurrent = true): Promise<boolean> {
  const releases = releasesDir(lake);
  await mkdir(releases, { recursive: true });
  const target = releaseDir(lake, id);
  let published = false;
  if (existsSync(target)) await rm(staged, { recursive: true, force: true });
  else {
    await fsyncTree(staged);
    await rename(staged, target);
    await fsync(releases);
    published = true;
  }
  if (makeCurrent) await pointCurrent(lake, id);
  return published;
}

let pointings = 0;

/** Atomically repoints `lake/current` (a relative symlink) at a release; calls in one process use their own link. */
export async function pointCurrent(lake: string, id: string): Promise<void> {
  const tmp = join(lake, `.current-${process.pid}-${++pointings}`);
  await rm(tmp, { force: true });
  await symlink(join('releases', id), tmp);
  await rename(tmp, currentLink(lake));
  await fsync(lake);
}

export async function currentReleaseId(lake: string): Promise<string | null> {
  try {
    return relative('releases', await readlink(currentLink(lake)));
  } catch {
    return null;
  }
}

/** Keeps the newest `keep` releases (by publication time) and always the current one; removes what dead builds left. */
export async function prune(lake: string, keep: number): Promise<string[]> {
  const releases = releasesDir(lake);
  const current = await currentReleaseId(lake);
  const ids = existsSync(releases) ? await readdir(releases) : [];
  const dated = await Promise.all(ids.map(async (id) => ({ id, t: (await stat(join(releases, id))).mtimeMs })));
  dated.sort((a, b) => b.t - a.t);
  const removed: string[] = [];
  for (const { id } of dated.slice(Math.max(1, keep))) {
    if (id === current) continue;
    // Out of releases/ in one rename, then deleted: a prune killed anywhere leaves a whole release or none there.
    const retired = join(lake, `.pruning-${process.pid}-${id}`);
    await rename(join(releases, id), retired);
    await rm(retired, { recursive: true, force: true });
    removed.push(id);
  }
  for (const entry of await readdir(lake)) {
    // A staging directory, a lock file not yet in place, a release being pruned: left by a process that died.
    const m = /^\.(?:staging-|lock\.|pruning-)(\d+)-/.exec(entry);
    if (m && !processAlive(Number(m[1]))) await rm(join(lake, entry), { recursive: true, force: true });
  }
  return removed;
}

/**
 * Writes the release's `SHA256SUMS` beside its manifest: the data files' checksums, which the release id hashes, so
 * `sha256sum -c SHA256SUMS` checks a copy of the release with nothing but coreutils. Not a data file itself.
 */
export async function writeChecksums(dir: string, files: ManifestFile[]): Promise<void> {
  await writeFile(join(dir, CHECKSUMS_FILE), sha256sums(files));
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, JSON.stringify(value, null, 2) + '\n');
}
