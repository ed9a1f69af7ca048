// A bounded in-process cache of rendered answers. A release never changes, so an answer is a function of (release,
// public base, request URL, format): the bytes are kept per release (its memo, dropped when the release closes, so a
// release switch invalidates them all) and the least recently used go first once the cache holds `bytes`.
import type { Release } from '../lake/release.ts';

/** One rendered answer: its content type, body text and the `Link` header it carried (or ''). */
export interface Answer { type: string; text: string; link: string }

class Lru {
  private readonly entries = new Map<string, Answer>();
  private size = 0;

  constructor(private readonly limit: number) {}

  get(key: string): Answer | undefined {
    const a = this.entries.get(key);
    if (a) {
      this.entries.delete(key); // to the most recently used end
      this.entries.set(key, a);
    }
    return a;
  }

  set(key: string, a: Answer): void {
    const bytes = costOf(key, a);
    if (bytes > this.limit / 8) return; // one huge answer must not empty the cache
    const old = this.entries.get(key);
    if (old) { this.entries.delete(key); this.size -= costOf(key, old); }
    this.entries.set(key, a);
    this.size += bytes;
    for (const [k, v] of this.entries) {
      if (this.size <= this.limit) break;
      this.entries.delete(k);
      this.size -= costOf(k, v);
    }
  }
}

/** Bytes an entry holds, about: JavaScript strings take two bytes a character. */
const costOf = (key: string, a: Answer) => 2 * (key.length + a.text.length + a.link.length) + 64;

/** The answers cache of `release`, or null when caching is off (`bytes` 0). */
export function answersOf(release: Release, bytes: number): Promise<Lru> | null {
  return bytes > 0 ? release.memo('answers', async () => new Lru(bytes)) : null;
}
