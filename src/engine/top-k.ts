// The best `limit` (score, document number) pairs of a ranking, kept in a heap as the matches are visited.

/** Higher score first, then lower number (doc_id order). */
export class TopK {
  private readonly heap: [number, number][] = [];
  constructor(private readonly limit: number) {}

  /** a ranks below b. */
  private static worse(a: [number, number], b: [number, number]): boolean {
    return a[0] < b[0] || (a[0] === b[0] && a[1] > b[1]);
  }

  add(score: number, doc: number): void {
    if (this.limit <= 0) return;
    const h = this.heap;
    if (h.length === this.limit && !(score > h[0][0] || (score === h[0][0] && doc < h[0][1]))) return;
    const e: [number, number] = [score, doc];
    if (h.length < this.limit) {
      h.push(e);
      for (let i = h.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!TopK.worse(h[i], h[parent])) break;
        [h[i], h[parent]] = [h[parent], h[i]];
        i = parent;
      }
    } else {
      h[0] = e;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && TopK.worse(h[l], h[m])) m = l;
        if (r < h.length && TopK.worse(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
  }

  sorted(): [number, number][] {
    return [...this.heap].sort((a, b) => (TopK.worse(a, b) ? 1 : TopK.worse(b, a) ? -1 : 0));
  }
}
