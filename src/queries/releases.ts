// The releases kept beside the one being served, newest first: what a client may pin, and what each changed.
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { MANIFEST_FILE } from '../../core/lake/format.ts';
import { isReleaseId } from '../../core/lake/ids.ts';
import { checkedManifest, type Release, ReleaseRefused } from '../lake/release.ts';
import type { Links } from './links.ts';

export async function keptReleases(release: Release, links: Links) {
  const root = dirname(release.dir);
  const kept = [];
  const unreadable = [];
  for (const id of await readdir(root)) {
    if (!isReleaseId(id) || !existsSync(join(root, id, MANIFEST_FILE))) continue;
    try {
      const m = await checkedManifest(join(root, id));
      kept.push({
        release: id,
        createdAt: m.createdAt,
        current: id === release.id,
        previousRelease: m.previousRelease ?? null,
        changes: m.changes ? { insert: m.changes.insert, update: m.changes.update, delete: m.changes.delete } : null,
        manifestUrl: links.releaseFile(id, MANIFEST_FILE),
        mtime: (await stat(join(root, id))).mtimeMs,
      });
    } catch (e) {
      if (!(e instanceof ReleaseRefused)) throw e;
      unreadable.push({ release: id, reason: e.reason });
    }
  }
  kept.sort((a, b) => b.mtime - a.mtime || a.release.localeCompare(b.release));
  return { current: release.id, releases: kept.map(({ mtime, ...r }) => r), unreadable, changesUrl: links.changes() };
}
