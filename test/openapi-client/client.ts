// A small client typed only by what openapi-typescript generated from the served /api/openapi.json (written to
// .cache/openapi/api.ts by test/openapi.test.ts, which type-checks this file against it with `tsc --noEmit`). If the
// document loses an operation, a parameter or a response field used here, this stops compiling.
import type { paths } from '../../.cache/openapi/api.ts';

type Search = paths['/api/search']['get'];
type Item = paths['/api/items/{id}']['get'];
type FilesPage = paths['/api/snapshots/legislative-files']['get'];
type DocumentsPage = paths['/api/snapshots/documents']['get'];

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

export async function fileNumbers(base: string, query: Query<FilesPage>): Promise<string[]> {
  const page = await get<Ok<FilesPage>>(base, '/api/snapshots/legislative-files', query);
  return page.records.map((r) => `${r.file_number}: ${r.final_action?.action ?? 'no final action'}`);
}

export async function documentUrls(base: string, query: Query<DocumentsPage>): Promise<string[]> {
  const page = await get<Ok<DocumentsPage>>(base, '/api/snapshots/documents', query);
  // @ts-expect-error each entity's page is typed by its own records: a document has no file number
  console.log(page.records[0]?.file_number);
  return page.records.map((r) => r.official_url);
}

export async function main(base: string): Promise<void> {
  console.log(await searchPages(base, { q: 'housing', limit: 2, kind: 'minutes' }));
  console.log(await itemVotes(base, { id: '2016-11-01-minutes-160789' }));
  console.log(await fileNumbers(base, { cursor: 0, limit: 10, format: 'json' }));
  console.log(await documentUrls(base, { limit: 10 }));
}
