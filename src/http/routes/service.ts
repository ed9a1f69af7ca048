// The service's own routes: health (answered outside admission) and the OpenAPI document, generated from the route
// list, which the caller passes (routes/index.ts) so that this module imports no list of its own.
import type { Context } from 'koa';

import { etagOf, notModified } from '../cache.ts';
import type { RawRoute, Route } from '../endpoints.ts';
import { openapiDocument } from '../openapi.ts';
import { header, headerRef, problem, ref, response } from '../openapi-parts.ts';
import type { State } from '../state.ts';

async function health(ctx: Context): Promise<void> {
  const { release, lake, admitted } = ctx.state as State;
  const m = release.manifest;
  const excluded = m.excluded?.length ?? 0;
  const body = {
    status: excluded > 0 ? 'degraded' : lake.status,
    release: release.id,
    schemaVersion: m.schemaVersion,
    createdAt: m.createdAt,
    preview: m.preview,
    documents: m.tables.documents?.rows ?? 0,
    pages: m.tables.pages?.rows ?? 0,
    excludedDocuments: excluded,
    fallback: lake.fallback,
    refusedReleases: lake.refused,
    admitted: admitted(),
  };
  // Always revalidated (no-cache): the validator is of this very answer, so a 304 says nothing changed.
  // No Last-Modified: the answer (admissions, the lake's state) changes without a date to name.
  if (notModified(ctx, etagOf(JSON.stringify(body)), 'no-cache', { modified: null })) return;
  ctx.body = body;
}

/** `all`: every route of the service, the document's source. */
export function serviceRoutes(all: () => readonly Route[]): RawRoute[] {
  // The document changes only with the code and the public base (the server's own addresses, a handful): its bytes
  // and their validator are made once per base, not per request.
  const documents = new Map<string, { text: string; etag: string; modified: string }>();
  const document = async (ctx: Context) => {
    const base = (ctx.state as State).urls.base;
    let served = documents.get(base);
    if (!served) {
      const text = JSON.stringify(openapiDocument(all(), base));
      served = { text, etag: etagOf(text), modified: new Date().toISOString() };
      documents.set(base, served);
    }
    if (notModified(ctx, served.etag, 'public, max-age=300', { modified: served.modified })) return;
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = served.text;
  };
  return [
    {
      methods: ['GET', 'HEAD'],
      path: '/api/health',
      handler: health,
      openapi: (ex) => {
        const health = ex('GET /api/health');
        return {
          get: {
            operationId: 'getHealth',
            summary:
              'Liveness and the release served: ok, or degraded while a fallback release is served; answered outside admission',
            tags: ['service'],
            responses: {
              200: response('200', { 'application/json': ref('health.json') }, health, {
                headers: {
                  'X-Release-Id': headerRef('ReleaseId'),
                  ETag: header('Of this answer; If-None-Match gets a 304 while nothing changed.'),
                  'Cache-Control': header('no-cache'),
                },
              }),
              304: response('304', null, undefined),
            },
          },
        };
      },
    },
    {
      methods: ['GET', 'HEAD'],
      path: '/api/openapi.json',
      handler: document,
      openapi: (ex) => {
        const doc = ex('GET /api/openapi.json');
        return {
          get: {
            operationId: 'getOpenapiJson',
            summary: 'This document (OpenAPI 3.1)',
            tags: ['service'],
            responses: {
              200: response(
                '200',
                {
                  'application/json': {
                    type: 'object',
                    required: ['openapi', 'info', 'paths'],
                    properties: {
                      openapi: { const: '3.1.0' },
                      info: { type: 'object' },
                      servers: { type: 'array' },
                      paths: { type: 'object' },
                    },
                  },
                },
                doc,
                { headers: { ETag: header('Of the document.'), 'Cache-Control': header('public, max-age=300') } },
              ),
              304: response('304', null, undefined),
              503: response('503', { 'application/problem+json': problem }, doc),
            },
          },
        };
      },
    },
  ];
}
