// Markdown renderings that a person or a language model can read and cite: headings per section, one line per record
// with its citation links.
type AnyRecord = Record<string, any>;

const esc = (s: string) => s.replace(/([\\[\]])/g, '\\$1');
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function links(r: AnyRecord): string {
  const parts = [`[official PDF](${r.officialUrl})`];
  if (r.transcriptUrl) parts.push(`[record](${r.transcriptUrl})`);
  if (r.markdownUrl) parts.push(`[markdown](${r.markdownUrl})`);
  return parts.join(' · ');
}

export function filtersLine(filters: AnyRecord): string {
  const set = Object.entries(filters).filter(([, v]) => v !== null && v !== undefined && v !== false);
  return set.length ? set.map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`).join(', ') : 'none';
}

export function searchMarkdown(body: AnyRecord): string {
  const out = [
    `# Page search: ${esc(body.query)}`,
    '',
    `${body.returned} of ${body.total} matching pages. Interpreted as: ${body.interpretedQueries.map((q: string) => `\`${q}\``).join(', ') || '(no searchable words)'}. Filters: ${filtersLine(body.filters)}. Retrieval: ${body.retrieval.used}${body.retrieval.fallbackReason ? ` (requested ${body.retrieval.requested}: ${body.retrieval.fallbackReason})` : ''}. Source: ${body.source}.`,
    '',
  ];
  body.results.forEach((r: AnyRecord, i: number) => {
    out.push(`${i + 1}. **${esc(r.title)}**${r.fileNumber ? ` — File ${r.fileNumber}` : ''} (score ${r.score})`);
    out.push(`   ${oneLine(r.snippet)}`);
    out.push(`   ${links(r)}`);
  });
  if (body.results.length === 0) out.push('_No page matched. Try fewer or different words, or widen the year and kind filters._');
  return out.join('\n') + '\n';
}

export function pageMarkdown(p: AnyRecord): string {
  return [
    `# ${esc(p.title)}`,
    '',
    `Meeting ${p.meetingDate} · ${p.kind} · page ${p.page}${p.pages ? ` of ${p.pages}` : ''} · text quality: ${p.quality} · release ${p.release}`,
    '',
    links(p),
    '',
    p.header ? `> ${p.header}` : '',
    '',
    '```text',
    p.text,
    '```',
    '',
    p.footer ? `> ${p.footer}` : '',
  ].join('\n') + '\n';
}
