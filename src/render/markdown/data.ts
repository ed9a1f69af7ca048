// Markdown of the data products: the change feed and the snapshot manifest (for their MCP tools; REST answers them in
// JSON only), and the kept releases.
import type { ChangeFeed, Releases, SnapshotManifest } from '../../schema-types.ts';
import { esc } from './escape.ts';

export function changesMarkdown(f: ChangeFeed): string {
  const out = [
    `# Change feed from cursor ${f.cursor}`,
    '',
    `${f.returned} changes${f.since ? ` since ${f.since}` : ''} (schema ${f.schemaVersion}). Next cursor: ${f.nextCursor}${f.hasMore ? ' — more follow: call again with this cursor' : ' — up to date: poll later with this cursor'}.`,
    '',
  ];
  for (const c of f.changes)
    out.push(`- #${c.sequence} ${c.operation} ${c.entity} \`${c.id}\` (release ${c.release}, ${c.time}) — ${c.url}`);
  if (f.changes.length === 0) out.push('_No changes after this cursor._');
  return out.join('\n') + '\n';
}

export function snapshotManifestMarkdown(m: SnapshotManifest): string {
  const out = [
    `# Snapshot manifest of release ${m.release}`,
    '',
    `Created ${m.createdAt} · schema ${m.schemaVersion} · [release manifest](${m.manifestUrl}) · change feed: ${m.changes.url} (schema ${m.changes.schemaVersion})`,
    '',
    '| entity | records | key (order) | JSON / NDJSON pages | Parquet files |',
    '|---|---|---|---|---|',
  ];
  for (const e of m.entities)
    out.push(
      `| ${e.entity} | ${e.records} | ${e.order} | ${e.pinnedUrl} | ${e.parquet.map((f) => `[${f.path}](${f.url})`).join(', ') || '—'} |`,
    );
  out.push('', ...m.entities.map((e) => `- **${e.entity}**: ${e.description}`));
  out.push(
    '',
    "Page a snapshot with `cursor` and `limit` (1–1000) at its URL, `format=ndjson` to stream; the pinned URL keeps the pages stable while newer releases are published. Each record's JSON Schema is in `recordSchema`.",
  );
  return out.join('\n') + '\n';
}

export function releasesMarkdown(r: Releases): string {
  const out = [`# Releases kept on this server (current: ${r.current})`, ''];
  for (const k of r.releases) {
    const c = k.changes
      ? `${k.changes.insert} inserts, ${k.changes.update} updates, ${k.changes.delete} deletes`
      : 'no change log';
    out.push(
      `- **${k.release}**${k.current ? ' (current)' : ''}, created ${k.createdAt}: ${c} since ${k.previousRelease ?? 'the start of the history'} · [manifest](${k.manifestUrl})`,
    );
  }
  for (const u of r.unreadable ?? []) out.push(`- ${esc(u.release)}: not served (${esc(u.reason)})`);
  out.push('', `What changed, record by record: the change feed (${r.changesUrl}), from cursor 0 or a time.`);
  return out.join('\n') + '\n';
}
