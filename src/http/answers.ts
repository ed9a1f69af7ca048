// A bounded in-process cache of rendered answers. A release never changes, so an answer is a function of (release,
// public base, request URL, format): the bytes are kept per release (its memo, dropped when the release closes, so a
// release switch invalidates them all) and the least recently used go first once the cache holds `bytes`.
import { ByteLru } from '../lake/lru.ts';
import type { Release } from '../lake/release.ts';

/** One rendered answer: its content type, body text and the `Link` header it carried (or ''). */
export interface Answer {
  type: string;
  text: string;
  link: string;
}

/** The answers of one release, by key; one answer of more than an eighth of the bytes is not kept (it would empty the cache). */
class Answers {
  private readonly lru: ByteLru<Answer>;

  constructor(limit: number) {
    this.lru = new ByteLru(limit);
  }

  get(key: string): Answer | undefined {
    return this.lru.get(key);
  }

  set(key: string, a: Answer): void {
    const bytes = costOf(key, a);
    if (bytes > this.lru.limit / 8) return; // one huge answer must not empty the cache
    this.lru.set(key, a, bytes);
  }
}

/** Bytes an entry holds, about: JavaScript strings take two bytes a character. */
const costOf = (key: string, a: Answer) => 2 * (key.length + a.text.length + a.link.length) + 64;

/** The answers cache of `release`, or null when caching is off (`bytes` 0). */
export function answersOf(release: Release, bytes: number): Promise<Answers> | null {
  return bytes > 0 ? release.memo('answers', async () => new Answers(bytes)) : null;
}
