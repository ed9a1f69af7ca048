// Markdown for the answer endpoints (aggregates, evidence bundle): headings per section, one line per record with its
// citation links, the rules and limits written out, so a language model can read and cite them.
import { type Supervisor, termText } from '../../../core/roster.ts';
import type { EvidenceBundle, HousingAggregate, VotesAggregate } from '../../schema-types.ts';
import { dest, esc, escList, escSnippet } from './escape.ts';
import { filtersLine, links, positionsOf, rollCallLines, voterOf } from './records.ts';

const voterLine = (v: Supervisor) =>
  `${esc(v.fullName)} (id \`${v.id}\`${v.district ? `, District ${v.district}` : ''}, term ${termText(v)})`;
const evidence = (e: { page: number; officialUrl: string; transcriptUrl: string; markdownUrl: string }) =>
  `[official PDF p. ${e.page}](${dest(e.officialUrl)}) · [record](${dest(e.transcriptUrl)}) · [markdown](${dest(e.markdownUrl)})`;
const bullets = (xs: string[]) => xs.map((x) => `- ${x}`);

export function votesAggregateMarkdown(b: VotesAggregate): string {
  const t = b.totals;
  const out = [
    `# Recorded positions of ${esc(b.voter.fullName)}`,
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
      `${i + 1}. **${esc(r.position)}** — File ${r.fileNumber}: ${esc(r.title)} — ${r.meetingDate}, vote ${r.sequence} (${esc(r.actionType)}${r.isFinal ? ', final' : ''}${r.sharedVote ? ', shared consent vote' : ''}): ${esc(r.action)}${r.matchingRollCalls > 1 ? ` (${r.matchingRollCalls} matching roll calls on this file)` : ''}`,
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
    `# Housing-related actions: ${esc(b.voter.fullName)}`,
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
      `${i + 1}. **File ${f.fileNumber}: ${esc(f.title)}** — ${f.units} units — ${esc(b.voter.surname)} recorded **${esc(f.position)}** on ${f.meetingDate}, vote ${f.sequence} (${esc(f.actionType)}${f.isFinal ? ', final' : ''}): ${esc(f.action)}`,
    );
    out.push(
      `   Housing signals: ${escList(f.housingSignals) || 'none'}${f.addresses.length ? ` · Addresses: ${escList(f.addresses, '; ')}` : ''}`,
    );
    for (const u of f.unitMentions)
      out.push(
        `   - ${u.units} units: “${esc(u.sentence)}” ([official PDF](${dest(u.officialUrl)}) · [record](${dest(u.transcriptUrl)}))`,
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
    `# Evidence for: ${esc(b.question)}`,
    '',
    '## Interpretation',
    `- searchQuery: ${i.searchQuery ? esc(i.searchQuery) : '(none)'}`,
    `- voter: ${esc(i.voter ?? 'none')} · recordedPosition: ${esc(i.recordedPosition ?? 'any')} · years: ${i.fromYear}–${i.toYear} · finalOnly: ${i.finalOnly}`,
    `- intents: vote ${i.voteIntent}, housing ${i.housingIntent}, comment ${i.commentIntent}`,
    '',
    '## Guidance',
    ...bullets(b.guidance.map(esc)), // they quote the question
    '',
    `## Legislative items (${b.legislativeItems.returned} of ${b.legislativeItems.total})`,
  ];
  const items = b.legislativeItems;
  items.results.forEach((r, n) => {
    out.push(
      `${n + 1}. **File ${r.fileNumber}: ${esc(r.title)}** — ${r.meetingDate} ${r.kind ?? ''}, pages ${r.startPage}–${r.endPage}`,
    );
    out.push(`   ${escSnippet(r.snippet)}`);
    out.push(...rollCallLines(r.rollCalls));
    for (const v of positionsOf(r))
      out.push(
        `   - ${esc(voterOf(items)?.fullName ?? 'The voter')} recorded **${esc(v.position)}** on: ${esc(v.action)}`,
      );
    if (r.extracted.housingUnits.length) out.push(`   Units mentioned: ${escList(r.extracted.housingUnits)}`);
    out.push(`   ${links(r)}`);
  });
  if (items.results.length === 0) out.push('_No legislative item matched._');
  out.push('', `## Page matches (${b.pageMatches.returned} of ${b.pageMatches.total})`);
  b.pageMatches.results.forEach((r, n) => {
    out.push(`${n + 1}. **${esc(r.title)}** — ${r.meetingDate} ${r.kind}, page ${r.page}: ${escSnippet(r.snippet)}`);
    out.push(`   ${links(r)}`);
  });
  if (b.pageMatches.results.length === 0) out.push('_No page matched._');
  out.push('', '## Public comments');
  if (b.publicComments === null) out.push('_Not searched: the question is not about public comment or speakers._');
  else {
    b.publicComments.results.forEach((r, n) => {
      out.push(`${n + 1}. **${esc(r.speaker)}** (${r.meetingDate}, page ${r.page}): ${esc(r.statement)}`);
      out.push(`   ${links(r)}`);
    });
    if (b.publicComments.results.length === 0) out.push('_No comment matched._');
  }
  return out.join('\n') + '\n';
}
