// Markdown of what the lake holds: the coverage report, the list of meetings, one meeting with its items and speakers.
import type { Coverage, CoverageReport, MeetingList, MeetingRecord } from '../../schema-types.ts';
import { dest, esc } from './escape.ts';
import { rollCallLines } from './records.ts';

/** The line every counting or filtering answer carries under its heading. */
export const coverageLine = (c: Coverage) => `> **Coverage:** ${c.statement}`;

/** A renderer whose answer states, right under its heading, what the lake holds of the span it covers. */
export function withCoverage<B extends { coverage?: Coverage | null }>(
  render: (body: B) => string,
): (body: B) => string {
  return (body) => {
    const md = render(body);
    if (!body.coverage) return md;
    const [heading, ...rest] = md.split('\n');
    return [heading, '', coverageLine(body.coverage), ...rest].join('\n');
  };
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

export function coverageMarkdown(b: CoverageReport): string {
  return [
    `# What the lake holds, ${b.coverage.from}–${b.coverage.to}`,
    '',
    coverageLine(b.coverage),
    '',
    '| year | meetings | agendas | minutes | with votes | with comments | pages | items | roll calls | comments |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...b.years.map(
      (y) =>
        `| [${y.year}](${dest(y.meetingsUrl)}) | ${y.meetings} | ${y.agendas} | ${y.minutes} | ${y.meetingsWithRollCalls} | ${y.meetingsWithComments} | ${y.pages} | ${y.items} | ${y.rollCalls} | ${y.comments} |`,
    ),
    '',
    `Release ${b.release}.`,
  ].join('\n');
}

export function meetingsMarkdown(b: MeetingList): string {
  return [
    `# Meetings, ${b.filters.from === b.filters.to ? b.filters.from : `${b.filters.from}–${b.filters.to}`}`,
    '',
    `${b.returned} of ${b.total} meetings${b.nextAfter ? ` (more: after=${b.nextAfter})` : ''}.`,
    '',
    ...b.meetings.map(
      (m) =>
        `- [${m.date}](${dest(m.markdownUrl)}): ${m.documents.map((d) => `[${esc(d.kind)}](${dest(d.officialUrl)})`).join(', ')} · ${m.pages} pages, ${m.items} items, ${m.rollCalls} roll calls, ${m.comments} comments${m.synthetic ? ' (synthetic)' : ''}`,
    ),
  ].join('\n');
}

/** What the documents state about the meeting, a line each where one says it. */
function factLines(f: MeetingRecord['facts']): string[] {
  const lines = [
    f.meetingType && `Meeting: ${esc(f.meetingType)}.`,
    f.agendaItems !== null && `The agenda numbers ${f.agendaItems} items.`,
    f.presiding && `Presiding: ${esc(f.presiding)}.`,
    f.calledToOrder && `Called to order at ${esc(f.calledToOrder)}.`,
    f.notedPresent.length > 0 &&
      `Noted present after the roll call: ${f.notedPresent.map((p) => `${esc(p.name)} at ${esc(p.time)}`).join(', ')}.`,
    f.adjournedAt && `Adjourned at ${esc(f.adjournedAt)}.`,
    f.members.length > 0 && `Members named: ${f.members.map(esc).join(', ')}.`,
  ];
  return lines.filter((l): l is string => typeof l === 'string');
}

export function meetingMarkdown(m: MeetingRecord): string {
  const filtered = m.filters.actionType || m.filters.result;
  const out = [
    `# Board of Supervisors meeting, ${m.date}`,
    '',
    `Documents: ${m.documents.map((d) => `${esc(d.title)} ([official PDF](${dest(d.officialUrl)}), ${d.pages} pages)`).join('; ')}.`,
    `Holds: agenda ${yesNo(m.holds.agenda)}, minutes ${yesNo(m.holds.minutes)}; ${m.holds.items} items, ${m.holds.rollCalls} roll calls, ${m.holds.comments} public comments.`,
    ...factLines(m.facts),
    '',
    `## Items${filtered ? ` with a roll call of ${[m.filters.actionType, m.filters.result].filter(Boolean).join(', ')}` : ''} (${m.items.length}, in agenda order, from ${m.itemsFrom})`,
    '',
  ];
  for (const i of m.items) {
    out.push(
      `${i.sequence}. **File ${i.fileNumber}: ${esc(i.title)}**${i.itemType ? ` (${esc(i.itemType)})` : ''} — pp. ${i.startPage}–${i.endPage} · [official PDF](${dest(i.officialUrl)}) · [record](${dest(i.transcriptUrl)})`,
    );
    if (i.rollCalls.length) out.push(...rollCallLines(i.rollCalls));
    else if (i.actions.length) out.push(`   - ${i.actions.map(esc).join(' · ')}`);
  }
  if (m.items.length === 0)
    out.push(filtered ? 'No item of this meeting has such a roll call.' : 'No items were parsed from this meeting.');
  out.push('', `## Public comment (${m.comments.length} speakers, in order)`, '');
  for (const c of m.comments)
    out.push(`${c.sequence}. **${esc(c.speaker)}**: ${esc(c.statement)} — [p. ${c.page}](${dest(c.officialUrl)})`);
  if (m.comments.length === 0)
    out.push(
      m.holds.minutes
        ? 'The minutes record no public comment.'
        : 'The lake holds no minutes of this meeting, so no public comment is recorded.',
    );
  out.push('', `Release ${m.release}.`);
  return out.join('\n');
}
