// The endpoint table: path, parameter schema, response schema, handler and Markdown rendering. The router and the
// OpenAPI document are both built from it, so they cannot drift apart.
import type { Release } from '../lake/release.ts';
import { getPage, searchPages, type PageSearchParams } from '../queries/pages.ts';
import { notFound } from './errors.ts';
import { pageMarkdown, searchMarkdown } from './markdown.ts';
import type { Urls } from './urls.ts';

export interface HandlerInput<P> {
  release: Release;
  urls: Urls;
  params: P;
  /** Path parameters, e.g. `{ id }`, with any `.md` suffix already removed. */
  path: Record<string, string>;
}

export interface Endpoint {
  /** Router path (`:id` for path parameters). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params: string;
  response: string;
  /** Present when the endpoint also answers in Markdown (`.md`, `format=md`, `Accept: text/markdown`). */
  markdown?: (body: any) => string;
  handler: (input: HandlerInput<any>) => Promise<unknown>;
}

export const endpoints: Endpoint[] = [
  {
    path: '/api/search',
    summary: 'Page-level full-text search over agendas and minutes (BM25)',
    tag: 'search',
    params: 'params/search.json',
    response: 'search-response.json',
    markdown: searchMarkdown,
    handler: ({ release, urls, params }) => searchPages(release, urls, params as PageSearchParams),
  },
  {
    path: '/api/pages/:id',
    summary: 'One PDF page: text with layout, running header and footer, official link',
    tag: 'records',
    params: 'params/page.json',
    response: 'page-record.json',
    markdown: pageMarkdown,
    handler: async ({ release, urls, path }) => (await getPage(release, urls, path.id)) ?? Promise.reject(notFound(`no page '${path.id}' in release ${release.id}`)),
  },
];
