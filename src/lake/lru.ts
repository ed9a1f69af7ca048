// The one byte-bounded LRU of the server: the answer cache (http/answers.ts), a release's NDJSON windows
// (queries/snapshots.ts) and its decoded postings (queries/postings-store.ts). Entries are kept least recently used
// first; once they hold more than `limit` bytes, the oldest go, never the entry just set or sized.

export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private held = 0;

  constructor(readonly limit: number) {}

  /** Bytes the entries hold, as their setters counted them. */
  get bytes(): number {
    return this.held;
  }

  /** The value of `key`, now the most recently used. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key); // to the most recently used end
    this.entries.set(key, e);
    return e.value;
  }

  /** The value of `key`, where it stands. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Sets (or replaces) `key` as the most recently used, holding `bytes`; the least recently used others go past the limit. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    this.evict(key);
  }

  /** Counts `bytes` for `key` from now (a value whose size is known once it is read), where it stands; then evicts. */
  resize(key: string, bytes: number): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.held += bytes - e.bytes;
    e.bytes = bytes;
    this.evict(key);
  }

  delete(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    this.entries.delete(key);
    this.held -= e.bytes;
    return true;
  }

  /** Least recently used first, until the entries fit or `kept` is next. */
  private evict(kept: string): void {
    for (const [k, e] of this.entries) {
      if (this.held <= this.limit || k === kept) break;
      this.entries.delete(k);
      this.held -= e.bytes;
    }
  }
}
