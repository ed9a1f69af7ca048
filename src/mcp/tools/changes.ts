// read_changes: GET /api/changes (the append-only change feed) as a tool.
import { changeFeed, type ChangeParams } from '../../queries/changes.ts';
import { paramsSchema, responseOutput } from '../schema.ts';
import type { Tool } from '../tool.ts';

type Feed = Omit<Awaited<ReturnType<typeof changeFeed>>, 'changes'> & { changes: Record<string, any>[] };

function markdown(f: Feed): string {
  const out = [
    `# Change feed from cursor ${f.cursor}`,
    '',
    `${f.returned} changes${f.since ? ` since ${f.since}` : ''} (schema ${f.schemaVersion}). Next cursor: ${f.nextCursor}${f.hasMore ? ' — more follow: call again with this cursor' : ' — up to date: poll later with this cursor'}.`,
    '',
  ];
  for (const c of f.changes) out.push(`- #${c.sequence} ${c.operation} ${c.entity} \`${c.id}\` (release ${c.release}, ${c.time}) — ${c.url}`);
  if (f.changes.length === 0) out.push('_No changes after this cursor._');
  return out.join('\n') + '\n';
}

export const readChanges: Tool<ChangeParams, Feed> = {
  name: 'read_changes',
  title: 'Read the change feed',
  description: [
    'The append-only entity change feed (documents, supervisors, recorded-positions, legislative-files): inserts, updates and deletes between consecutive data releases, in global sequence order; the same as GET /api/changes.',
    'Use it to sync or to learn what is new since you last looked: start at cursor 0 (or filter by `since`, an RFC 3339 time), then pass nextCursor back as cursor while hasMore is true.',
    'Each change links to the record as a snapshot row. A recorded position is not a stance on the underlying matter.',
  ].join(' '),
  input: paramsSchema('params/changes.json', ['release']),
  params: 'params/changes.json',
  output: responseOutput('change-feed.json'),
  run: ({ release, urls }, p) => changeFeed(release, urls, p),
  markdown,
  more: 'call again with cursor = nextCursor (it points at the last change shown)',
  // The budget kept fewer changes than were read: continue right after the last one kept.
  onListCut: (feed, key) => {
    if (key !== 'changes' || feed.changes.length === 0) return;
    feed.nextCursor = feed.changes[feed.changes.length - 1].sequence;
    feed.hasMore = true;
  },
};
