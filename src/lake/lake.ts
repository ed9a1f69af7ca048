// The served release and its replacement: `lake/current` is checked on an interval and on SIGHUP; a new release is
// opened and verified before it takes over, and the old one is retired once its requests finish.
import { existsSync } from 'node:fs';
import { readdir, readlink, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Release, type PoolSettings } from './release.ts';

/** Older releases kept open at once for `release=` pins. */
const MAX_PINNED = 3;

export interface RefusedRelease { release: string; reason: string; at: string }

export class Lake {
  private current: Release;
  private readonly pinned = new Map<string, Release>();
  readonly refused: RefusedRelease[] = [];
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  private constructor(readonly dir: string, first: Release, private readonly settings: PoolSettings) {
    this.current = first;
  }

  static async open(dir: string, settings: PoolSettings): Promise<Lake> {
    const target = await Lake.currentTarget(dir);
    if (!target) throw new Error(`no release at ${join(dir, 'current')}: run \`make lake\` first`);
    return new Lake(dir, await Release.open(target, settings), settings);
  }

  private static async currentTarget(dir: string): Promise<string | null> {
    try {
      return resolve(dir, await readlink(join(dir, 'current')));
    } catch {
      return null;
    }
  }

  /** The release a new request should use, held until the caller lets it go. */
  acquire(): Release {
    return this.current.hold();
  }

  get releaseId(): string {
    return this.current.id;
  }

  /** A specific release (for `release=<id>` pins): the current one, or an older one kept on disk. */
  async acquireById(id: string): Promise<Release | null> {
    if (id === this.current.id) return this.current.hold();
    if (!/^[0-9a-f]{16}$/.test(id)) return null;
    const dir = join(this.dir, 'releases', id);
    let r = this.pinned.get(id);
    if (r && !existsSync(join(dir, 'manifest.json'))) {
      // Pruned from disk since it was opened: no longer kept.
      this.pinned.delete(id);
      r.retire();
      return null;
    }
    if (!r) {
      try {
        r = await Release.open(dir, this.settings);
      } catch {
        return null;
      }
      if (this.pinned.has(id)) r.retire(); // another request opened it meanwhile
      else {
        this.pinned.set(id, r);
        // Keep a few older releases open; the oldest closes once its requests finish.
        for (const [old, release] of this.pinned) {
          if (this.pinned.size <= MAX_PINNED) break;
          this.pinned.delete(old);
          release.retire();
        }
      }
      r = this.pinned.get(id)!;
    }
    return r.hold();
  }

  /** Ids of the releases kept on disk (newest first), for listing and for messages about unknown pins. */
  async kept(): Promise<string[]> {
    try {
      const ids = (await readdir(join(this.dir, 'releases'))).filter((id) => existsSync(join(this.dir, 'releases', id, 'manifest.json')));
      const dated = await Promise.all(ids.map(async (id) => ({ id, t: (await stat(join(this.dir, 'releases', id))).mtimeMs })));
      return dated.sort((a, b) => b.t - a.t || a.id.localeCompare(b.id)).map((d) => d.id);
    } catch {
      return [];
    }
  }

  /** Switches to whatever `lake/current` names now, if it differs and opens cleanly. */
  check(): Promise<void> {
    this.checking ??= (async () => {
      try {
        const target = await Lake.currentTarget(this.dir);
        if (!target || basename(target) === this.current.id || this.refused.some((r) => r.release === basename(target))) return;
        try {
          const next = await Release.open(target, this.settings);
          const old = this.current;
          this.current = next;
          old.retire();
        } catch (e) {
          this.refused.push({ release: basename(target), reason: (e as Error).message, at: new Date().toISOString() });
        }
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  watch(intervalMs: number): void {
    if (intervalMs > 0) {
      this.timer = setInterval(() => void this.check(), intervalMs);
      this.timer.unref();
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.current.retire();
    for (const r of this.pinned.values()) r.retire();
  }
}
