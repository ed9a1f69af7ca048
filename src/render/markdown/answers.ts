// Markdown for the answer endpoints (aggregates, evidence bundle): headings per section, one line per record with its
// citation links, the rules and limits written out, so a language model can read and cite them.
import { type Supervisor, termText } from '../../../core/roster.ts';
import type { EvidenceBundle, HousingAggregate, VotesAggregate } from '../../schema-types.ts';
import { filtersLine, links, oneLine, plain, positionsOf, rollCallLines, voterOf } from './records.ts';

const voterLine = (v: Supervisor) =>
  `${v.fullName} (id \`${v.id}\`${v.district ? `, District ${v.district}` : ''}, term ${termText(v)})`;
const evidence = (e: { page: number; officialUrl: string; transcriptUrl: string; markdownUrl: string }) =>
  `[official PDF p. ${e.page}](${e.officialUrl}) · [record](${e.transcriptUrl}) · [markdown](${e.markdownUrl})`;
const bullets = (xs: string[]) => xs.map((x) => `- ${x}`);

export function votesAggregateMarkdown(b: VotesAggregate): string {
  const t = b.totals;
  const out = [
    `# Recorded positions of ${plain(b.voter.fullName)}`,
    '',
    `Voter: ${voterLine(b.voter)}. Filters: ${filtersLine(b.filters)}. Release ${b.release}.`,
    '',
    '## Totals',
    `${b.total} counted: aye ${t.aye} · no ${t.no} · absent ${t.absent} · excused ${t.excused}. Showing ${b.returned}.`,
    '',
    '## How to read this',
    ...bullets([b.groupingRule, ...b.interpretationLimits]),
    '',
    '## Records',
  ];
  b.records.forEach((r, i) => {
    out.push(
      `${i + 1}. **${r.position}** — File ${r.fileNumber}: ${plain(r.title)} — ${r.meetingDate}, vote ${r.sequence} (${r.actionType}${r.isFinal ? ', final' : ''}${r.sharedVote ? ', shared consent vote' : ''}): ${oneLine(r.action)}${r.matchingRollCalls > 1 ? ` (${r.matchingRollCalls} matching roll calls on this file)` : ''}`,
    );
    out.push(`   ${evidence(r.evidence)}`);
  });
  if (b.records.length === 0)
    out.push('_No recorded position matched. Widen from/to, or drop the position and final filters._');
  return out.join('\n') + '\n';
}

export function housingAggregateMarkdown(b: HousingAggregate): string {
  const t = b.totals;
  const per = (['aye', 'no', 'absent', 'excused'] as const)
    .map((k) => `${k} ${t.byPosition[k].files} files / ${t.byPosition[k].units} units`)
    .join(' · ');
  const out = [
    `# Housing-related actions: ${plain(b.voter.fullName)}`,
    '',
    `Voter: ${voterLine(b.voter)}. Filters: ${filtersLine(b.filters)}. Release ${b.release}.`,
    '',
    '## Totals',
    `${t.files} files (${t.filesWithUnits} with a unit mention), ${t.units} units by the maximum-unit-mention rule. By recorded position: ${per}. Showing ${b.returned}.`,
    '',
    '## Rules',
    ...bullets([b.housingRule, b.unitRule]),
    '',
    '## Cautions',
    ...bullets([...b.cautions, ...b.interpretationLimits]),
    '',
    '## Files',
  ];
  b.files.forEach((f, i) => {
    out.push(
      `${i + 1}. **File ${f.fileNumber}: ${plain(f.title)}** — ${f.units} units — ${b.voter.surname} recorded **${f.position}** on ${f.meetingDate}, vote ${f.sequence} (${f.actionType}${f.isFinal ? ', final' : ''}): ${oneLine(f.action)}`,
    );
    out.push(
      `   Housing signals: ${f.housingSignals.join(', ') || 'none'}${f.addresses.length ? ` · Addresses: ${f.addresses.join('; ')}` : ''}`,
    );
    for (const u of f.unitMentions)
      out.push(
        `   - ${u.units} units: “${oneLine(u.sentence)}” ([official PDF](${u.officialUrl}) · [record](${u.transcriptUrl}))`,
      );
    out.push(`   ${evidence(f.evidence)}`);
  });
  if (b.files.length === 0)
    out.push('_No housing-related recorded position matched. Widen from/to, or drop the position and final filters._');
  return out.join('\n') + '\n';
}

export function evidenceMarkdown(b: EvidenceBundle): string {
  const i = b.interpretation;
  const out = [
    `# Evidence for: ${plain(b.question)}`,
    '',
    '## Interpretation',
    `- searchQuery: ${i.searchQuery ? plain(i.searchQuery) : '(none)'}`,
    `- voter: ${i.voter ?? 'none'} · recordedPosition: ${i.recordedPosition ?? 'any'} · years: ${i.fromYear}–${i.toYear} · finalOnly: ${i.finalOnly}`,
    `- intents: vote ${i.voteIntent}, housing ${i.housingIntent}, comment ${i.commentIntent}`,
    '',
    '## Guidance',
    ...bullets(b.guidance.map(plain)), // they quote the question
    '',
    `## Legislative items (${b.legislativeItems.returned} of ${b.legislativeItems.total})`,
  ];
  const items = b.legislativeItems;
  items.results.forEach((r, n) => {
    out.push(
      `${n + 1}. **File ${r.fileNumber}: ${plain(r.title)}** — ${r.meetingDate} ${r.kind ?? ''}, pages ${r.startPage}–${r.endPage}`,
    );
    out.push(`   ${oneLine(r.snippet)}`);
    out.push(...rollCallLines(r.rollCalls));
    for (const v of positionsOf(r))
      out.push(`   - ${voterOf(items)?.fullName ?? 'The voter'} recorded **${v.position}** on: ${oneLine(v.action)}`);
    if (r.extracted.housingUnits.length) out.push(`   Units mentioned: ${r.extracted.housingUnits.join(', ')}`);
    out.push(`   ${links(r)}`);
  });
  if (items.results.length === 0) out.push('_No legislative item matched._');
  out.push('', `## Page matches (${b.pageMatches.returned} of ${b.pageMatches.total})`);
  b.pageMatches.results.forEach((r, n) => {
    out.push(`${n + 1}. **${plain(r.title)}** — ${r.meetingDate} ${r.kind}, page ${r.page}: ${oneLine(r.snippet)}`);
    out.push(`   ${links(r)}`);
  });
  if (b.pageMatches.results.length === 0) out.push('_No page matched._');
  out.push('', '## Public comments');
  if (b.publicComments === null) out.push('_Not searched: the question is not about public comment or speakers._');
  else {
    b.publicComments.results.forEach((r, n) => {
      out.push(`${n + 1}. **${plain(r.speaker)}** (${r.meetingDate}, page ${r.page}): ${oneLine(r.statement)}`);
      out.push(`   ${links(r)}`);
    });
    if (b.publicComments.results.length === 0) out.push('_No comment matched._');
  }
  return out.join('\n') + '\n';
}
