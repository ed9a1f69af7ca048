// Absolute links to records, built from the public base URL.
export class Urls {
  constructor(readonly base: string) {}
  page(id: string, md = false): string {
    return `${this.base}/api/pages/${encodeURIComponent(id)}${md ? '.md' : ''}`;
  }
  item(id: string, md = false): string {
    return `${this.base}/api/items/${encodeURIComponent(id)}${md ? '.md' : ''}`;
  }
  comment(id: string, md = false): string {
    return `${this.base}/api/comments/${encodeURIComponent(id)}${md ? '.md' : ''}`;
  }
  api(path: string, params: Record<string, string | number | boolean | null | undefined> = {}): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return `${this.base}${path}${s ? `?${s}` : ''}`;
  }
}
