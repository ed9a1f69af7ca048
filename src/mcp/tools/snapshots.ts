// snapshot_manifest: GET /api/snapshots (the bulk snapshot feeds of the release) as a tool.
import { snapshotManifest } from '../../queries/snapshots.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

type Manifest = ReturnType<typeof snapshotManifest>;

function markdown(m: Manifest): string {
  const out = [
    `# Snapshot manifest of release ${m.release}`,
    '',
    `Created ${m.createdAt} · schema ${m.schemaVersion} · [release manifest](${m.manifestUrl}) · change feed: ${m.changes.url} (schema ${m.changes.schemaVersion})`,
    '',
    '| entity | records | key (order) | JSON / NDJSON pages | Parquet files |',
    '|---|---|---|---|---|',
  ];
  for (const e of m.entities) out.push(`| ${e.entity} | ${e.records} | ${e.order} | ${e.pinnedUrl} | ${e.parquet.map((f) => `[${f.path}](${f.url})`).join(', ') || '—'} |`);
  out.push('', ...m.entities.map((e) => `- **${e.entity}**: ${e.description}`));
  out.push('', 'Page a snapshot with `cursor` and `limit` (1–1000) at its URL, `format=ndjson` to stream; the pinned URL keeps the pages stable while newer releases are published. Each record\'s JSON Schema is in `recordSchema`.');
  return out.join('\n') + '\n';
}

export const snapshotManifestTool: Tool<Record<string, never>, Manifest> = {
  name: 'snapshot_manifest',
  title: 'List the bulk snapshot feeds',
  description: [
    'The manifest of versioned bulk snapshots of the current release (documents, supervisors, recorded-positions, legislative-files): record counts, key and order, record JSON Schemas, JSON/NDJSON page URLs (cursor-paginated, pinned to the release) and Parquet files with sha256; the same as GET /api/snapshots.',
    'Use it before bulk analysis or to learn the data model; fetch the pages over HTTP. Follow new data with read_changes.',
    'A recorded position (in recorded-positions) is not a stance on the underlying matter: it is a vote on the action named beside it.',
  ].join(' '),
  input: paramsSchema('params/snapshots.json', ['release']),
  params: 'params/snapshots.json',
  output: responseOutput('snapshot-manifest.json'),
  run: async ({ release, urls }) => snapshotManifest(release, urls),
  markdown,
  more: 'the manifest at GET /api/snapshots holds every entity',
};
