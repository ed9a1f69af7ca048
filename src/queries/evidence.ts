// The /api/query evidence bundle (spec 2.1): interpret the question, then run the item, vote, page and comment
// searches concurrently with the existing query functions, and say in `guidance` how to read what came back.
import type { Release } from '../lake/release.ts';
import type { Links } from './links.ts';
import { describeSupervisor } from '../../core/roster.ts';
import { interpret, type Interpreted } from './interpret.ts';
import { MAX_YEAR, MIN_YEAR } from './years.ts';
import { searchComments } from './comments.ts';
import { searchItems } from './items.ts';
import { searchPages } from './pages.ts';
import { supervisors } from './supervisors.ts';
import { INTERPRETATION_LIMITS } from './aggregates/shared.ts';
import { coverageOf, type SpanCoverage } from './coverage.ts';

/** Results per search: an agent reads a few strong hits better than many loose ones, and can ask each search for more. */
const LIMIT = 5;

export async function evidenceBundle(release: Release, links: Links, p: { q: string }) {
  const x = interpret(p.q, await supervisors(release));
  const i = x.interpretation;
  const voter = x.supervisor;
  // With no subject words left, a named voter's surname still finds their roll calls (item text prints the names).
  const words = i.searchQuery || voter?.surname || p.q;
  const years = { from: i.fromYear, to: i.toYear };
  const plainItems = () => searchItems(release, links, { q: words, final: i.finalOnly, groupBy: 'none', ...years, limit: LIMIT });
  // With a voter, the items without the voter filter are shown only when none has their roll call: asked only then.
  const [coverage, items, votes, pageMatches, publicComments] = await Promise.all([
    coverageOf(release, years),
    voter ? null : plainItems(),
    voter
      ? searchItems(release, links, { q: words, voter: voter.fullName, position: i.recordedPosition ?? undefined, final: i.finalOnly, groupBy: 'none', ...years, limit: LIMIT })
      : null,
    searchPages(release, links, { q: words, ...years, limit: LIMIT, mode: release.has('page_embeddings') ? 'hybrid' : 'lexical' }),
    i.commentIntent ? searchComments(release, links, { q: words, ...years, limit: LIMIT }) : null,
  ]);
  const votesShown = votes !== null && votes.total > 0;
  const legislativeItems = votesShown ? votes! : (items ?? (await plainItems()));
  return {
    coverage,
    question: p.q,
    interpretation: i,
    guidance: guidance(links, x, words, coverage, { votes: votes?.total ?? null, votesShown }),
    legislativeItems,
    pageMatches,
    publicComments,
  };
}

function guidance(links: Links, x: Interpreted, words: string, coverage: SpanCoverage, found: { votes: number | null; votesShown: boolean }): string[] {
  const i = x.interpretation;
  const out: string[] = [coverage.statement];
  const said = (w: string) => `“${w.trim()}”`;
  const inferred = x.inferences.filter((f) => !['voteIntent', 'housingIntent', 'commentIntent'].includes(f.field));
  out.push(
    inferred.length
      ? `Inferred from the question: ${inferred.map((f) => `${f.field === 'fromYear' ? `years ${f.value}` : `${f.field} = ${f.value}`} (from ${said(f.words)})`).join('; ')}.`
      : 'No supervisor, year, recorded position or final-action filter was inferred from the question.',
  );
  if (i.fromYear === MIN_YEAR && i.toYear === MAX_YEAR) out.push(`No year was named: all of ${MIN_YEAR}–${MAX_YEAR} was searched, of which the lake holds only what the coverage above says.`);
  if (x.ignoredYears.length) out.push(`Years outside ${MIN_YEAR}–${MAX_YEAR} are not in this service and were ignored: ${x.ignoredYears.join(', ')}.`);
  if (i.searchQuery) out.push(`Searched for ${said(i.searchQuery)} (the question without names, years, position words and question words).`);
  else out.push(`No subject words were left after removing names, years and question words, so the searches used ${said(words)}.`);
  if (x.ambiguous) {
    out.push(`${said(x.ambiguous.words)} matches ${x.ambiguous.candidates.length} supervisors serving in ${i.fromYear}–${i.toYear}: ${x.ambiguous.candidates.map(describeSupervisor).join('; ')}. No voter filter was applied; ask again with the full name or a year, or call ${links.votes({ voter: x.ambiguous.candidates[0].fullName, from: i.fromYear, to: i.toYear })}.`);
  }
  if (x.notServing) {
    out.push(`${said(x.notServing.words)} names ${x.notServing.candidates.map(describeSupervisor).join('; ')}, who did not serve in ${i.fromYear}–${i.toYear}; no voter filter was applied. Widen the years to see their record.`);
  }
  const voter = x.supervisor;
  if (i.voteIntent || voter) {
    out.push(`${INTERPRETATION_LIMITS[0]} ${INTERPRETATION_LIMITS[2]}`);
    out.push('A first reading is not final; isFinal and actionType on each roll call say which votes were final actions.');
  }
  if (voter) {
    const scope = `${voter.fullName}${i.recordedPosition ? ` with a recorded ${i.recordedPosition}` : ''}${i.finalOnly ? ' on a final action' : ''}`;
    if (found.votesShown) out.push(`legislativeItems lists items matching ${said(words)} that have a roll call of ${scope}; voterPositions gives each of their recorded positions with its action text.`);
    else out.push(`No item matching ${said(words)} has a roll call of ${scope} in ${i.fromYear}–${i.toYear}; legislativeItems shows the matching items without the voter filter.`);
    const agg = { voter: voter.fullName, from: i.fromYear, to: i.toYear, position: i.recordedPosition, final: i.finalOnly || null };
    out.push(`Next: for every recorded position of ${voter.fullName} (not only those matching the words), call ${links.votes(agg)}`);
    if (i.housingIntent) out.push(`Next: for housing-related files with unit counts (maximum-unit-mention rule) and totals per position, call ${links.housing(agg)}`);
  } else if (i.voteIntent && !x.ambiguous && !x.notServing) {
    out.push('No supervisor was named: the roll calls on each item list every recorded position. Name a supervisor to get their positions and an aggregate.');
  }
  for (const o of x.others) out.push(`The question also names ${describeSupervisor(o)}: call ${links.votes({ voter: o.fullName, from: i.fromYear, to: i.toYear })}`);
  if (i.finalOnly) out.push('Only records with a roll call classified as a final action (final passage, adoption, approval, rejection…) are in legislativeItems.');
  if (i.commentIntent) out.push("publicComments are the Clerk's speaker summaries from the minutes, not verbatim transcripts; a speaker's name is as the Clerk recorded it.");
  else out.push(`publicComments is null: the question does not ask about public comment or speakers. To search them, call ${links.comments({ q: words, from: i.fromYear, to: i.toYear })}`);
  out.push('Cite each record by its officialUrl (the City PDF, with #page=N) and its transcriptUrl; quote the action text rather than paraphrasing a vote.');
  return out;
}
