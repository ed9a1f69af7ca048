// What a query may link to. Queries build no URLs themselves: the HTTP layer hands them its Links (http/links.ts), which
// know the public base.

/** Query-string values; null, undefined and '' are left out. */
export type LinkQuery = Record<string, string | number | boolean | null | undefined>;

export interface Links {
  /** A record's JSON, or its Markdown (`md`). */
  page(id: string, md?: boolean): string;
  item(id: string, md?: boolean): string;
  comment(id: string, md?: boolean): string;
  /** What to call next for a supervisor's positions, their housing files, or public comment: a URL over HTTP; over MCP, the tool and its arguments. */
  votes(q: LinkQuery): string;
  housing(q: LinkQuery): string;
  comments(q: LinkQuery): string;
  changes(): string;
  /** One meeting (`2016-11-01`), or the list of meetings. */
  meeting(date: string, md?: boolean): string;
  meetings(q?: LinkQuery): string;
  coverage(q?: LinkQuery): string;
  /** A snapshot entity's pages. */
  snapshot(entity: string, q?: LinkQuery): string;
  /** One snapshot record, by key. */
  snapshotRecord(entity: string, id: string): string;
  /** A file of a release (a path its manifest lists, or the manifest itself). */
  releaseFile(release: string, path: string): string;
}
