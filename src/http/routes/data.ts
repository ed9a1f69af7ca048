// Data products: snapshot manifest and pages (JSON, NDJSON, CSV or Arrow), single snapshot records, the change
// feed, the quality report, kept releases, and the release files themselves (read-only, sha256 as ETag, byte ranges;
// only of releases that verified, with their own bounded pool of downloads).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';

import type { Context } from 'koa';

import { CHECKSUMS_FILE, MANIFEST_FILE, sha256sums } from '../../../core/lake/format.ts';
import { isReleaseId } from '../../../core/lake/ids.ts';
import type { Release } from '../../lake/release.ts';
import { checkedManifest } from '../../lake/release.ts';
import { coverageReport } from '../../queries/coverage.ts';
import { keptReleases } from '../../queries/releases.ts';
import {
  entity,
  int64Columns,
  nextCursor,
  recordSchemaId,
  SNAPSHOT_SCHEMA_VERSION,
  snapshotNdjson,
  total,
} from '../../queries/snapshots.ts';
import { arrowStream, type JsonSchema } from '../../render/arrow/records.ts';
import { csvTable } from '../../render/csv.ts';
import { releasesMarkdown } from '../../render/markdown/data.ts';
import { coverageMarkdown } from '../../render/markdown/meetings.ts';
import type {
  ChangeFeed,
  ChangesParams,
  CoverageParams,
  CoverageReport,
  FormatParams,
  NoneParams,
  QualityReport,
  Releases,
  SnapshotManifest,
  SnapshotPage,
  SnapshotPageParams,
  SnapshotRecord,
  SnapshotRecordParams,
  SnapshotsParams,
} from '../../schema-types.ts';
import { schema } from '../../schemas.ts';
import { notModified } from '../cache.ts';
import { openReleaseFile, rangeOf, releaseFileType, sendRange } from '../downloads.ts';
import { type Endpoint, endpoint, type RawRoute } from '../endpoints.ts';
import { notFound } from '../errors.ts';
import { header, headerRef, type Operations, pathParameter, problem, response } from '../openapi-parts.ts';
import type { State } from '../state.ts';
import { changeFeed, qualityReport, snapshotManifest, snapshotPage, snapshotRecord } from '../typed-queries.ts';

const entityOf = (name: string) =>
  entity(name) ??
  Promise.reject(
    notFound(`no snapshot entity '${name}'; entities: documents, supervisors, recorded-positions, legislative-files`),
  );

type SnapshotEntity = NonNullable<ReturnType<typeof entity>>;

/** The facts of a page that is not JSON, in headers: schema version, total and (but on the last page) next cursor. */
function pageHeaders(ctx: Context, release: Release, e: SnapshotEntity, p: SnapshotPageParams): void {
  const next = nextCursor(e, release, p);
  ctx.set('X-Schema-Version', SNAPSHOT_SCHEMA_VERSION);
  ctx.set('X-Total-Count', String(total(e, release)));
  if (next !== null) ctx.set('X-Next-Cursor', String(next));
}

/**
 * Sends a page's bytes as one chunk of a stream, not a plain Buffer body: the answer counts as admitted work until the
 * client has it all. Pages are at most 1000 records, so they are sent whole.
 */
function sendPage(ctx: Context, type: string, bytes: Buffer): undefined {
  ctx.type = type;
  ctx.length = bytes.length;
  ctx.body = Readable.from([bytes], { objectMode: false });
  return undefined;
}

/**
 * A snapshot page as an Arrow IPC stream, typed by the entity's record schema (64-bit integers where the Parquet files
 * have them); the page's facts in the headers of an NDJSON page and in the Arrow schema's metadata.
 */
async function arrowPage(release: Release, e: SnapshotEntity, p: SnapshotPageParams, ctx: Context) {
  const page = await snapshotPage(release, e, p);
  const facts: Record<string, string> = {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    release: release.id,
    entity: e.name,
    cursor: String(p.cursor),
    total: String(page.total),
  };
  if (page.nextCursor !== null) facts.nextCursor = String(page.nextCursor);
  const recordSchema = schema(recordSchemaId(e.name)) as JsonSchema;
  const int64 = await int64Columns(release, e);
  pageHeaders(ctx, release, e, p);
  return sendPage(
    ctx,
    'application/vnd.apache.arrow.stream',
    Buffer.from(arrowStream(page.records, recordSchema, facts, int64)),
  );
}

/** A snapshot page as CSV: the record schema's properties as columns, in its order (src/render/csv.ts). */
async function csvPage(release: Release, e: SnapshotEntity, p: SnapshotPageParams, ctx: Context) {
  const page = await snapshotPage(release, e, p);
  const columns = Object.keys((schema(recordSchemaId(e.name)) as JsonSchema).properties ?? {});
  pageHeaders(ctx, release, e, p);
  return sendPage(ctx, 'text/csv; charset=utf-8; header=present', Buffer.from(csvTable(columns, page.records)));
}

export const dataEndpoints: Endpoint[] = [
  endpoint<SnapshotsParams, SnapshotManifest>({
    path: '/api/snapshots',
    summary:
      'The snapshot manifest: each entity with its schema version, release, record count, record JSON Schema, formats and Parquet files (sha256)',
    tag: 'data',
    params: 'params/snapshots.json',
    response: 'snapshot-manifest.json',
    query: snapshotManifest,
  }),
  endpoint<SnapshotPageParams, SnapshotPage>({
    path: '/api/snapshots/:entity',
    summary:
      'A page of one snapshot entity in a stable order (cursor, limit); JSON, or NDJSON, CSV or Arrow with X-Schema-Version, X-Next-Cursor and X-Total-Count headers',
    description:
      'Paging from cursor 0 by nextCursor yields every record of the release exactly once; pin the release with `release=<id>` so a newer release does not change the pages under you (the `Link` to the next page pins it for you).',
    tag: 'data',
    params: 'params/snapshot-page.json',
    response: 'snapshot-page.json',
    ndjson: true,
    csv: true,
    pinsPages: true,
    handler: async ({ release, params, path, ctx }) => {
      const e = await entityOf(path.entity);
      const p = params;
      if (p.format === 'arrow') return arrowPage(release, e, p, ctx);
      if (p.format === 'csv') return csvPage(release, e, p, ctx);
      if (p.format !== 'ndjson') return snapshotPage(release, e, p);
      const bytes = await snapshotNdjson(release, e, p);
      pageHeaders(ctx, release, e, p);
      return sendPage(ctx, 'application/x-ndjson; charset=utf-8', bytes);
    },
  }),
  endpoint<SnapshotRecordParams, SnapshotRecord>({
    path: '/api/snapshots/:entity/:id',
    summary: 'One snapshot record by its key (the record URL of the change feed)',
    tag: 'data',
    params: 'params/snapshot-record.json',
    response: 'snapshot-record.json',
    handler: async ({ release, path }) => {
      const e = await entityOf(path.entity);
      return (
        (await snapshotRecord(release, e, path.id)) ??
        Promise.reject(notFound(`no ${e.name} record '${path.id}' in release ${release.id}`))
      );
    },
  }),
  endpoint<ChangesParams, ChangeFeed>({
    path: '/api/changes',
    summary:
      'The append-only change feed: entity changes between consecutive releases, by global sequence (the cursor)',
    description:
      "Pass the response's nextCursor as cursor to continue; when hasMore is false, poll later with the same cursor.",
    tag: 'data',
    params: 'params/changes.json',
    response: 'change-feed.json',
    query: changeFeed,
  }),
  endpoint<CoverageParams, CoverageReport>({
    path: '/api/coverage',
    summary:
      'What the lake holds: meetings, and of those the ones with agendas, minutes, recorded votes and public comment, for the span and each year of it',
    description:
      'Every answer that counts or filters carries the coverage of its own span; this is the whole picture. Counts of recorded positions cover only the meetings with recorded votes.',
    tag: 'data',
    params: 'params/coverage.json',
    response: 'coverage-report.json',
    markdown: coverageMarkdown,
    query: coverageReport,
  }),
  endpoint<NoneParams, QualityReport>({
    path: '/api/quality',
    summary:
      'The data-quality report: coverage, provenance, name reconciliation and the problem list, each problem cited by document and page',
    tag: 'data',
    params: 'params/none.json',
    response: 'quality-report.json',
    aboutLake: true,
    handler: ({ release, urls, ctx }) => qualityReport(release, urls, (ctx.state as State).lake.refused),
  }),
  endpoint<FormatParams, Releases>({
    path: '/api/releases',
    summary: 'Releases kept on this server (newest first), each with its manifest download; pin one with release=<id>',
    tag: 'data',
    params: 'params/format.json',
    response: 'releases.json',
    aboutLake: true,
    markdown: releasesMarkdown,
    query: keptReleases,
  }),
];

/**
 * A release's manifest.json, its SHA256SUMS or one of the files the manifest lists, and nothing else (so no path can leave the release), of a
 * release that verified in this server (the current one, a pin, or one verified now): a refused release's files would
 * not match their ETags.
 */
async function releaseFile(ctx: Context): Promise<void> {
  const { id, path } = ctx.params as { id: string; path?: string };
  const { release, lake } = ctx.state as State;
  if (!isReleaseId(id)) throw notFound(`no release '${id}'`);
  const dir = join(dirname(release.dir), id);
  const manifestFile = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw notFound(`release ${id} is not kept on this server`);
  const verified = await lake.verify(id);
  if (verified !== true) throw notFound(`release ${id} is kept but not served, so neither are its files: ${verified}`);
  const manifestBytes = await readFile(manifestFile);
  const manifest = await checkedManifest(dir).catch(() => {
    throw notFound(`release ${id} is kept but not served: its manifest.json cannot be read`);
  });
  let sha256: string;
  let bytes: number;
  // The checksum list is made from the verified manifest: the same bytes as the release's SHA256SUMS file, and one for
  // a release built before there was such a file.
  const small =
    path === MANIFEST_FILE
      ? manifestBytes
      : path === CHECKSUMS_FILE
        ? Buffer.from(sha256sums(Object.values(manifest.tables).flatMap((t) => t.files)))
        : null;
  if (small) {
    sha256 = createHash('sha256').update(small).digest('hex');
    bytes = small.length;
  } else {
    const entry = Object.values(manifest.tables)
      .flatMap((t) => t.files)
      .find((f) => f.path === path);
    if (!entry)
      throw notFound(
        `release ${id} has no file '${path ?? ''}'; its files are listed in /api/releases/${id}/files/manifest.json`,
      );
    ({ sha256, bytes } = entry);
  }
  // Opened before any header names its checksum: a file changed since the release verified is refused.
  const handle = small ? null : await openReleaseFile(join(dir, path!), path!, bytes);
  try {
    ctx.set('X-Release-Id', id);
    const fresh = notModified(ctx, `"${sha256}"`, 'public, max-age=31536000, immutable', {
      modified: manifest.createdAt,
      coded: false,
    });
    ctx.set('Accept-Ranges', 'bytes');
    if (fresh) return void (await handle?.close());
    const range = rangeOf(ctx, bytes, sha256);
    ctx.type = releaseFileType(path!);
    if (!handle) ctx.body = range ? small!.subarray(range.start, range.end + 1) : small;
    else if (ctx.method === 'HEAD') {
      await handle.close(); // headers only: no download counted
      ctx.status = 200;
    } else ctx.body = await (ctx.state as State).downloads.start(ctx, handle, range);
    sendRange(ctx, bytes, range);
  } catch (e) {
    if (!ctx.body) await handle?.close();
    throw e;
  }
}

/** The release files in the OpenAPI document: GET (with ranges) and HEAD. */
const releaseFileOperations: Operations = (ex) => {
  const files = ex('GET /api/releases/{id}/files/{path}');
  const fileParams = ['id', 'path'].map((n) =>
    pathParameter(n, '/api/releases/{id}/files/{path}', files?.parameters[n]),
  );
  const fileHeaders = {
    ETag: header("The file's sha256 (quoted), as the manifest lists it."),
    'Cache-Control': header('public, max-age=31536000, immutable'),
    'Content-Length': header('The file size in bytes (of the range, for a 206).', { type: 'integer' }),
    'Accept-Ranges': header('bytes: every release file answers Range requests.'),
    'Last-Modified': headerRef('LastModified'),
    'X-Release-Id': headerRef('ReleaseId'),
  };
  const fileContent = {
    'application/vnd.apache.parquet': {
      type: 'string',
      contentMediaType: 'application/vnd.apache.parquet',
      description: 'A Parquet table file of the release (bytes).',
    },
    'application/octet-stream': {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'An index text store (`index/*_text.bin`, raw-deflated texts at the offsets its docs table gives).',
    },
    'application/json': { type: 'object', description: 'manifest.json: the release manifest (tables, files, sha256).' },
    'text/plain': {
      type: 'string',
      description: 'SHA256SUMS: `<sha256>  <path>` per data file, for `sha256sum -c SHA256SUMS` (lake/README.md).',
    },
  };
  const sums = { 'text/plain': `${'0'.repeat(64)}  documents/year=2016/data_0.parquet\n` };
  const fileResponses = (method: string) => ({
    200: response('200', fileContent, method === 'get' ? files : undefined, { headers: fileHeaders }, sums),
    // HEAD answers the whole file's headers: Range applies to GET only.
    ...(method === 'get'
      ? {
          206: response(
            '206',
            fileContent,
            files,
            { headers: { ...fileHeaders, 'Content-Range': header('bytes first-last/size') } },
            sums,
          ),
        }
      : {}),
    304: response('304', null, undefined, { headers: fileHeaders }),
    404: response('404', { 'application/problem+json': problem }, files),
    409: response('409', { 'application/problem+json': problem }, files),
    ...(method === 'get'
      ? {
          416: response('416', { 'application/problem+json': problem }, files, {
            headers: { 'Content-Range': header('bytes */size') },
          }),
        }
      : {}),
    503: response('503', { 'application/problem+json': problem }, files),
  });
  return {
    get: {
      operationId: 'getReleaseFile',
      summary:
        "A kept release's manifest.json or one of the files it lists (Parquet and the index text stores), immutable",
      description:
        "Only releases this server verified; the ETag is the file's sha256. `Range: bytes=first-last` (or `first-`, `-suffix`) answers 206, so remote Parquet readers fetch footers and row groups only; `If-Range` with the ETag keeps the range, any other validator gets the whole file; several ranges are answered as one span. Answered outside admission, with its own bound on downloads at once (503).",
      tags: ['data'],
      parameters: fileParams,
      responses: fileResponses('get'),
    },
    head: {
      operationId: 'headReleaseFile',
      summary: 'The headers of a release file (size, sha256 ETag) without its bytes',
      tags: ['data'],
      parameters: fileParams,
      responses: fileResponses('head'),
    },
  };
};

export const dataRoutes: RawRoute[] = [
  {
    methods: ['GET', 'HEAD'],
    path: '/api/releases/:id/files/{*path}',
    handler: releaseFile,
    openapi: releaseFileOperations,
  },
];
