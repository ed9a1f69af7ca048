// The served release and its replacement: `lake/current` is checked on an interval and on SIGHUP; a new release is
// opened and verified before it takes over, and the old one is retired once its requests finish. When what
// `lake/current` names cannot be served (missing, dangling, refused), the server keeps serving, or at start falls back
// to the newest kept release that verifies, and says so (`fallback`, status `degraded`).
import { existsSync } from 'node:fs';
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';

import { currentLink, MANIFEST_FILE, releaseDir, releasesDir } from '../../core/lake/format.ts';
import { isReleaseId } from '../../core/lake/ids.ts';
import { Release, ReleaseRefused, type ReleaseSettings } from './release.ts';

/**
 * Older releases kept open at once for `release=` pins (and file downloads): as many as the lake keeps (a client
 * rotating pins over them must not reopen one per request), at most this many.
 */
export const MAX_PINNED = 16;
/** Refusals listed in /api/health and /api/quality (the most recent). */
const MAX_REFUSED = 20;

export interface RefusedRelease {
  release: string;
  reason: string;
  at: string;
}
/** Why the release served is not the one `lake/current` names. */
export interface Fallback {
  release: string;
  reason: string;
}

/** What `lake/current` names: a release directory, or what is wrong with it. */
type Named = { dir: string; id: string } | { problem: string };

export class Lake {
  private current: Release;
  /** Kept releases open for pins, least recently used first. */
  private readonly pinned = new Map<string, Release>();
  /** Opens in progress, so concurrent pins of one release verify it once. */
  private readonly opening = new Map<string, Promise<Release | null>>();
  /** Releases whose files this process has hashed and found as their manifests say. */
  private readonly verified = new Set<string>();
  readonly refused: RefusedRelease[] = [];
  fallback: Fallback | null;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  /** Set by close(): a release an open or a check still in progress brings back is retired at once. */
  private closed = false;

  private constructor(
    readonly dir: string,
    first: Release,
    private readonly settings: ReleaseSettings,
    fallback: Fallback | null,
  ) {
    this.current = first;
    this.verified.add(first.id);
    this.fallback = fallback;
  }

  /**
   * Opens the release `lake/current` names; if it cannot be served, the newest kept release that verifies instead.
   * Fails only when no release can be served at all.
   */
  static async open(dir: string, settings: ReleaseSettings): Promise<Lake> {
    const named = await Lake.named(dir);
    let reason = 'problem' in named ? named.problem : '';
    const refusals: RefusedRelease[] = [];
    if ('dir' in named) {
      try {
        return new Lake(dir, await Release.open(named.dir, settings), settings, null);
      } catch (e) {
        reason = unservable(named.id, e);
        if (e instanceof ReleaseRefused) refusals.push(refusal(named.id, e));
      }
    }
    for (const id of await keptIn(dir)) {
      if ('id' in named && id === named.id) continue;
      try {
        const lake = new Lake(dir, await Release.open(releaseDir(dir, id), settings), settings, {
          release: id,
          reason,
        });
        lake.refused.push(...refusals);
        return lake;
      } catch (e) {
        if (e instanceof ReleaseRefused) refusals.push(refusal(id, e));
      }
    }
    const why = refusals.length ? `; refused: ${refusals.map((r) => `${r.release} (${r.reason})`).join('; ')}` : '';
    throw new Error(
      `${reason || `no release at ${currentLink(dir)}`}, and no kept release verifies${why}: run \`make lake\` first`,
    );
  }

  private static async named(dir: string): Promise<Named> {
    const link = currentLink(dir);
    const info = await lstat(link).catch(() => null);
    if (!info) return { problem: 'lake/current is missing' };
    if (!info.isSymbolicLink()) return { problem: 'lake/current is not a symlink to a release' };
    const text = await readlink(link);
    const target = resolve(dir, text);
    if (!existsSync(target)) return { problem: `lake/current points at ${text}, which does not exist` };
    return { dir: target, id: basename(target) };
  }

  /** The release a new request should use, held until the caller lets it go. */
  acquire(): Release {
    return this.current.hold();
  }

  /** Settles once the release served has read what it reads ahead (its warm-up). */
  warmed(): Promise<void> {
    return this.current.warmed();
  }

  get releaseId(): string {
    return this.current.id;
  }

  /** `ok` when the release served is the one `lake/current` names; `degraded` while it is a fallback. */
  get status(): 'ok' | 'degraded' {
    return this.fallback ? 'degraded' : 'ok';
  }

  /** A specific release (for `release=<id>` pins): the current one, or an older one kept on disk that verifies. */
  async acquireById(id: string): Promise<Release | null> {
    for (;;) {
      if (id === this.current.id) return this.current.hold();
      const r = await this.openKept(id);
      if (!r) return null;
      if (r.open) return r.hold(); // else closed between its opening and now (evicted): open it again
    }
  }

  /**
   * Whether a kept release's files may be served: true once it verified in this process (verified now if it never
   * was), else why not.
   */
  async verify(id: string): Promise<true | string> {
    if (id === this.current.id || (this.verified.has(id) && existsSync(join(releaseDir(this.dir, id), MANIFEST_FILE))))
      return true;
    if (!isReleaseId(id)) return `release ${id} is not kept on this server`;
    const r = await this.openKept(id);
    return r
      ? true
      : (this.refused.find((x) => x.release === id)?.reason ?? `release ${id} is not kept on this server`);
  }

  /** A kept release opened (verified once) and kept open among the MAX_PINNED most recently used; null if it is not kept or refused. */
  private openKept(id: string): Promise<Release | null> {
    if (!isReleaseId(id)) return Promise.resolve(null);
    const dir = releaseDir(this.dir, id);
    const open = this.pinned.get(id);
    if (open) {
      this.pinned.delete(id);
      if (!existsSync(join(dir, MANIFEST_FILE))) {
        open.retire(); // pruned from disk since it was opened: no longer kept
        return Promise.resolve(null);
      }
      this.pinned.set(id, open); // most recently used
      return Promise.resolve(open);
    }
    if (this.refused.some((r) => r.release === id) || !existsSync(join(dir, MANIFEST_FILE)))
      return Promise.resolve(null);
    let opening = this.opening.get(id);
    if (!opening) {
      opening = (async () => {
        try {
          const r = await Release.open(dir, this.settings, this.verified.has(id));
          this.verified.add(id);
          if (this.closed) {
            r.retire();
            return null;
          }
          this.pinned.set(id, r);
          const room = Math.min(MAX_PINNED, Math.max(1, (await this.kept()).length - 1));
          for (const [old, release] of this.pinned) {
            if (this.pinned.size <= room) break;
            this.pinned.delete(old);
            release.retire(); // closes once its requests finish
          }
          return r;
        } catch (e) {
          if (e instanceof ReleaseRefused) this.refuse(refusal(id, e));
          return null;
        } finally {
          this.opening.delete(id);
        }
      })();
      this.opening.set(id, opening);
    }
    return opening;
  }

  private refuse(r: RefusedRelease): void {
    this.refused.push(r);
    if (this.refused.length > MAX_REFUSED) this.refused.shift();
  }

  /** Ids of the releases kept on disk (newest first), for listing and for messages about unknown pins. */
  kept(): Promise<string[]> {
    return keptIn(this.dir);
  }

  /** Switches to whatever `lake/current` names now, if it differs and opens cleanly; otherwise says why in `fallback`. */
  check(): Promise<void> {
    this.checking ??= (async () => {
      try {
        const named = await Lake.named(this.dir);
        if ('problem' in named) {
          this.fallback = { release: this.current.id, reason: named.problem };
          return;
        }
        if (named.id === this.current.id) {
          this.fallback = null;
          return;
        }
        const refused = this.refused.findLast((r) => r.release === named.id);
        if (refused) {
          this.fallback = {
            release: this.current.id,
            reason: `lake/current names release ${named.id}, which was refused: ${refused.reason}`,
          };
          return;
        }
        // A release open for pins takes over as it is; any other is opened and verified first.
        let next = this.pinned.get(named.id);
        this.pinned.delete(named.id);
        try {
          next ??= await Release.open(named.dir, this.settings, this.verified.has(named.id));
          await next.warmed(); // no request meets a release still reading its tables
        } catch (e) {
          if (e instanceof ReleaseRefused) this.refuse(refusal(named.id, e));
          this.fallback = { release: this.current.id, reason: unservable(named.id, e) };
          return;
        }
        this.verified.add(next.id);
        if (this.closed) {
          next.retire();
          return;
        }
        const old = this.current;
        this.current = next;
        this.fallback = null;
        old.retire();
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
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.current.retire();
    for (const r of this.pinned.values()) r.retire();
    this.pinned.clear();
  }
}

const refusal = (id: string, e: ReleaseRefused): RefusedRelease => ({
  release: id,
  reason: e.reason,
  at: new Date().toISOString(),
});

/** Why the release `lake/current` names is not served, for health: its refusal, or a failure named without server paths. */
function unservable(id: string, e: unknown): string {
  return e instanceof ReleaseRefused
    ? `lake/current names release ${id}, which was refused: ${e.reason}`
    : `lake/current names release ${id}, which the server could not open (${(e as NodeJS.ErrnoException).code ?? (e as Error).name})`;
}

/** Release ids with a manifest under `dir/releases`, newest first. */
async function keptIn(dir: string): Promise<string[]> {
  try {
    const ids = (await readdir(releasesDir(dir))).filter((id) => existsSync(join(releaseDir(dir, id), MANIFEST_FILE)));
    const dated = await Promise.all(ids.map(async (id) => ({ id, t: (await stat(releaseDir(dir, id))).mtimeMs })));
    return dated.sort((a, b) => b.t - a.t || a.id.localeCompare(b.id)).map((d) => d.id);
  } catch {
    return [];
  }
}
