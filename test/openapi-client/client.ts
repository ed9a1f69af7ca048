// A small client typed only by what openapi-typescript generated from the served /api/openapi.json (written to
// .cache/openapi/api.ts by test/openapi.test.ts, which type-checks this file against it with `tsc --noEmit`). If the
// document loses an operation, a parameter or a response field used here, this stops compiling.
import type { paths } from '../../.cache/openapi/api.ts';

type Search = paths['/api/search']['get'];
type Item = paths['/api/items/{id}']['get'];
type SnapshotPage = paths['/api/snapshots/{entity}']['get'];

type Query<Op> = Op extends { parameters: { query?: infer Q } } ? Q : never;
type Path<Op> = Op extends { parameters: { path: infer P } } ? P : never;
type Ok<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

async function get<B>(base: string, path: string, query: object = {}): Promise<B> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${base}${path}${qs.size ? `?${qs}` : ''}`, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as B;
}

export async function searchPages(base: string, query: Query<Search>): Promise<string[]> {
  const body = await get<Ok<Search>>(base, '/api/search', query);
  return body.results.map((r) => `${r.meetingDate} p.${r.page}: ${r.title} (${r.officialUrl})`);
}

export async function itemVotes(base: string, path: Path<Item>): Promise<string[]> {
  const item = await get<Ok<Item>>(base, `/api/items/${encodeURIComponent(path.id)}`);
  return item.rollCalls.map((c) => `${item.fileNumber} ${c.action}: ${c.ayes.length} ayes, ${c.noes.length} noes`);
}

export async function snapshotKeys(
  base: string,
  path: Path<SnapshotPage>,
  query: Query<SnapshotPage>,
): Promise<number | null> {
  const page = await get<Ok<SnapshotPage>>(base, `/api/snapshots/${path.entity}`, query);
  return page.nextCursor;
}

export async function main(base: string): Promise<void> {
  console.log(await searchPages(base, { q: 'housing', limit: 2, kind: 'minutes' }));
  console.log(await itemVotes(base, { id: '2016-11-01-minutes-160789' }));
  console.log(await snapshotKeys(base, { entity: 'legislative-files' }, { cursor: 0, limit: 10, format: 'json' }));
  // @ts-expect-error `entity` is one of the four snapshot entities (the path parameter's enum), so the types are not `any`
  console.log(await snapshotKeys(base, { entity: 'meetings' }, {}));
}
