// Markdown renderings that a person or a language model can read and cite: headings per section, one line per record
// with its citation links. Each takes the type of its response schema (src/schema-types.ts).
import type {
  CommentRecord,
  CommentSearchResponse,
  ItemRecord,
  ItemSearchResponse,
  PageRecord,
  RollCall,
  SearchResponse,
  Supervisor,
} from '../../schema-types.ts';
import { dest, esc, escList, escSnippet, fence } from './escape.ts';

/** A voter's recorded position in one item's roll calls. */
export type VoterPosition = { position: string; action: string };

/**
 * The supervisor `voter` resolved to, and their positions in an item: the item schemas leave these open objects, which
 * the items query fills with a supervisor.json record and { position, action } entries.
 */
export const voterOf = (b: { voter?: Record<string, unknown> }) => b.voter as Supervisor | undefined;
/** The comments taken in an item's hearing: comment-record.json records, which the item schema leaves open objects. */
export const commentsOf = (r: { comments: Record<string, unknown>[] }) => r.comments as CommentRecord[];
export const positionsOf = (r: { voterPositions?: Record<string, unknown>[] }) =>
  (r.voterPositions ?? []) as VoterPosition[];

export function links(r: { officialUrl: string; transcriptUrl?: string; markdownUrl?: string }): string {
  const parts = [`[official PDF](${dest(r.officialUrl)})`];
  if (r.transcriptUrl) parts.push(`[record](${dest(r.transcriptUrl)})`);
  if (r.markdownUrl) parts.push(`[markdown](${dest(r.markdownUrl)})`);
  return parts.join(' · ');
}

export function filtersLine(filters: Record<string, unknown>): string {
  const set = Object.entries(filters).filter(([, v]) => v !== null && v !== undefined && v !== false);
  return set.length
    ? set.map(([k, v]) => `${k}=${esc(Array.isArray(v) ? v.join(',') : String(v))}`).join(', ')
    : 'none';
}

export function searchMarkdown(body: SearchResponse): string {
  const out = [
    `# Page search: ${esc(body.query)}`,
    '',
    `${body.returned} of ${body.total} matching pages. Interpreted as: ${body.interpretedQueries.map((q) => `“${esc(q)}”`).join(', ') || '(no searchable words)'}. Filters: ${filtersLine(body.filters)}. Retrieval: ${body.retrieval.used}${body.retrieval.fallbackReason ? ` (requested ${body.retrieval.requested}: ${body.retrieval.fallbackReason})` : ''}. Source: ${body.source}.`,
    '',
  ];
  body.results.forEach((r, i) => {
    out.push(`${i + 1}. **${esc(r.title)}**${r.fileNumber ? ` — File ${r.fileNumber}` : ''} (score ${r.score})`);
    out.push(`   ${escSnippet(r.snippet)}`);
    out.push(`   ${links(r)}`);
  });
  if (body.results.length === 0)
    out.push('_No page matched. Try fewer or different words, or widen the year and kind filters._');
  return out.join('\n') + '\n';
}

export function pageMarkdown(p: PageRecord): string {
  return (
    [
      `# ${esc(p.title)}`,
      '',
      `Meeting ${p.meetingDate} · ${p.kind} · page ${p.page}${p.pages ? ` of ${p.pages}` : ''} · text quality: ${p.quality} · release ${p.release}`,
      '',
      links(p),
      '',
      p.header ? `> ${esc(p.header)}` : '',
      '',
      fence(p.text),
      '',
      p.footer ? `> ${esc(p.footer)}` : '',
    ].join('\n') + '\n'
  );
}

export function tally(rc: RollCall): string {
  const part = (label: string, names: string[]) => (names.length ? `${label} ${names.length} (${escList(names)})` : '');
  return [part('Ayes', rc.ayes), part('Noes', rc.noes), part('Absent', rc.absent), part('Excused', rc.excused)]
    .filter(Boolean)
    .join('; ');
}

export function rollCallLines(rollCalls: RollCall[], indent = '   '): string[] {
  return rollCalls.map(
    (rc) =>
      `${indent}- Vote ${rc.sequence} (${rc.actionType}${rc.isFinal ? ', final' : ''}${rc.rescindedBy ? `, rescinded by vote ${rc.rescindedBy}` : ''}): ${esc(rc.action)} — ${tally(rc)}${rc.result ? ` — result: ${esc(rc.result)}` : ''}`,
  );
}

export function itemsMarkdown(body: ItemSearchResponse): string {
  const out = [
    `# Legislative items: ${esc(body.query)}`,
    '',
    `${body.returned} of ${body.total} matching records. Filters: ${filtersLine(body.filters)}.${voterOf(body) ? ` Voter: ${esc(voterOf(body)!.fullName)}.` : ''} A recorded position is not a stance on the matter: read the action text.`,
    '',
  ];
  body.results.forEach((r, i) => {
    out.push(
      `${i + 1}. **File ${r.fileNumber}: ${esc(r.title)}** — ${r.meetingDate} ${r.kind ?? ''}, pages ${r.startPage}–${r.endPage}${r.groupCount > 1 ? ` (${r.groupCount} records grouped)` : ''}`,
    );
    out.push(`   ${escSnippet(r.snippet)}`);
    out.push(...rollCallLines(r.rollCalls));
    for (const v of positionsOf(r))
      out.push(`   - ${esc(voterOf(body)!.fullName)} recorded **${esc(v.position)}** on: ${esc(v.action)}`);
    const x = r.extracted;
    const facts = [
      x.housingUnits.length ? `units ${escList(x.housingUnits)}` : '',
      x.addresses.length ? `addresses ${escList(x.addresses, '; ')}` : '',
      x.amounts.length ? `amounts ${x.amounts.map((a) => `${esc(a.raw)} (${esc(a.qualifier)})`).join('; ')}` : '',
      x.parties.length ? `parties ${escList(x.parties, '; ')}` : '',
    ].filter(Boolean);
    if (facts.length) out.push(`   Extracted: ${facts.join(' · ')}`);
    out.push(`   ${links(r)}`);
  });
  if (body.results.length === 0)
    out.push('_No item matched. Try other words, widen from/to, or drop the voter, position and final filters._');
  return out.join('\n') + '\n';
}

export function itemMarkdown(r: ItemRecord): string {
  const out = [
    `# File ${r.fileNumber}: ${esc(r.title)}`,
    '',
    `${r.itemType ? esc(r.itemType) : 'Item'} · ${r.meetingDate} ${r.kind} · pages ${r.startPage}–${r.endPage} · matter: ${esc(r.matter)} · release ${r.release}`,
    '',
    links(r),
    '',
    r.sponsors.length ? `Sponsors: ${escList(r.sponsors)}` : '',
    '',
    esc(r.longTitle),
    '',
    '## Roll calls',
    ...(r.rollCalls.length ? rollCallLines(r.rollCalls, '') : ['None recorded in this document.']),
    '',
    '## Block text',
    fence(r.text),
  ];
  if (r.comments.length)
    out.push(
      '',
      '## Public comment in this item',
      ...commentsOf(r).map((c) => `- ${esc(c.speaker)}: ${esc(c.statement)} ([record](${dest(c.transcriptUrl)}))`),
    );
  return out.join('\n') + '\n';
}

export function commentsMarkdown(body: CommentSearchResponse): string {
  const out = [
    `# Public comment: ${esc(body.query)}`,
    '',
    `${body.returned} of ${body.total} matching speakers. Filters: ${filtersLine(body.filters)}. These are the Clerk's summaries, not verbatim transcripts.`,
    '',
  ];
  body.results.forEach((r, i) => {
    out.push(`${i + 1}. **${esc(r.speaker)}** (${r.meetingDate}, page ${r.page}): ${esc(r.statement)}`);
    out.push(`   ${links(r)}`);
  });
  if (body.results.length === 0) out.push('_No comment matched. Try other words or widen from/to._');
  return out.join('\n') + '\n';
}

export function commentMarkdown(r: CommentRecord): string {
  return (
    [
      `# Public comment by ${esc(r.speaker)}`,
      '',
      `${r.meetingDate} · page ${r.page}${r.fileNumber ? ` · in the hearing of file ${r.fileNumber}` : ' · general public comment'} · release ${r.release}`,
      '',
      links(r),
      '',
      `> ${esc(r.statement)}`,
      '',
      "_The Clerk's summary, not a verbatim transcript._",
    ].join('\n') + '\n'
  );
}
