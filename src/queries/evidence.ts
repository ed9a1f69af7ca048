// The /api/query evidence bundle (spec 2.1): interpret the question, then run the item, vote, page and comment
// searches concurrently with the existing query functions, and say in `guidance` how to read what came back.
import { describeSupervisor } from '../../core/roster.ts';
import type { Release } from '../lake/release.ts';
import { INTERPRETATION_LIMITS } from './aggregates/shared.ts';
import { searchComments } from './comments.ts';
import { coverageOf, meetingsCoverage, type SpanCoverage } from './coverage.ts';
import { interpret, type Interpreted, type MeetingQuestion } from './interpret.ts';
import { searchItems } from './items.ts';
import type { Links } from './links.ts';
import { getMeeting } from './meetings.ts';
import { searchPages } from './pages.ts';
import { supervisors } from './supervisors.ts';
import { MAX_YEAR, MIN_YEAR } from './years.ts';

/** Results per search: an agent reads a few strong hits better than many loose ones, and can ask each search for more. */
const LIMIT = 5;
/** Words of each page match's passage: enough to hold a fact beside the words that found it (/api/search shows 32). */
const PASSAGE_WORDS = 80;

/** Words the minutes or agenda print for what a meeting question asks, searched within that meeting's pages. */
const CUE_WORDS: Partial<Record<MeetingQuestion, string>> = {
  presided: 'presiding president',
  'called-to-order': 'called meeting to order PM',
  adjourned: 'adjourned adjournment',
  attendance: 'call of the roll noted present',
  speakers: 'general public comment',
};

export async function evidenceBundle(release: Release, links: Links, p: { q: string }) {
  const x = interpret(p.q, await supervisors(release));
  const i = x.interpretation;
  const voter = x.supervisor;
  const named = await namedMeeting(release, x);
  i.meetingDate = named.date;
  const held = named.held ? named.date : null;
  // With no subject words left: the words a meeting question's answer is printed with, or a named voter's surname
  // (item text prints the names), or the question.
  const words =
    i.searchQuery || (held && i.meetingQuestion ? CUE_WORDS[i.meetingQuestion] : undefined) || voter?.surname || p.q;
  const years = { from: i.fromYear, to: i.toYear };
  const date = held ?? undefined;
  const meeting = held ? await meetingSummary(release, links, held, x) : null;
  // About a meeting with no subject words, its own items (in agenda order) are the legislative items.
  const plainItems = () =>
    searchItems(release, links, { q: words, final: i.finalOnly, groupBy: 'none', ...years, date, limit: LIMIT });
  // With a voter, the items without the voter filter are shown only when none has their roll call: asked only then.
  const [coverage, items, votes, pageMatches, publicComments] = await Promise.all([
    coverageOf(release, years),
    voter ? null : plainItems(),
    voter
      ? searchItems(release, links, {
          q: words,
          voter: voter.fullName,
          position: i.recordedPosition ?? undefined,
          final: i.finalOnly,
          groupBy: 'none',
          ...years,
          limit: LIMIT,
        })
      : null,
    // A meeting fact (who presided, when it adjourned) is found by the words the minutes print it with.
    searchPages(
      release,
      links,
      {
        q: (held && i.meetingQuestion && CUE_WORDS[i.meetingQuestion]) || words,
        ...years,
        date,
        limit: LIMIT,
        mode: release.has('page_embeddings') ? 'hybrid' : 'lexical',
      },
      PASSAGE_WORDS,
    ),
    i.commentIntent ? searchComments(release, links, { q: words, ...years, date, limit: LIMIT }) : null,
  ]);
  const votesShown = votes !== null && votes.total > 0;
  const legislativeItems = votesShown ? votes! : (items ?? (await plainItems()));
  return {
    coverage,
    question: p.q,
    interpretation: i,
    guidance: guidance(links, x, words, coverage, { votes: votes?.total ?? null, votesShown }, named),
    legislativeItems,
    pageMatches,
    publicComments,
    meeting,
  };
}

/** The meeting a question names (by date or by its place in a month or year), and whether the lake holds it. */
async function namedMeeting(
  release: Release,
  x: Interpreted,
): Promise<{ date: string | null; held: boolean; nearest: string[] }> {
  const all = (await meetingsCoverage(release)).map((m) => m.date).sort();
  const o = x.meetingOrdinal;
  let date = x.interpretation.meetingDate;
  if (!date && o) {
    const of = all.filter((d) =>
      d.startsWith(o.month ? `${o.year}-${String(o.month).padStart(2, '0')}` : String(o.year)),
    );
    date = (o.n < 0 ? of.at(o.n) : of[o.n - 1]) ?? null;
  }
  if (!date) return { date: null, held: false, nearest: [] };
  const held = all.includes(date);
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
  const nearest = held
    ? []
    : [...all]
        .sort((a, b) => Math.abs(day(a) - day(date)) - Math.abs(day(b) - day(date)))
        .slice(0, 2)
        .sort();
  return { date, held, nearest };
}

/** What a question about a meeting needs of its record: documents, items in agenda order, the item asked for, speakers. */
async function meetingSummary(release: Release, links: Links, date: string, x: Interpreted) {
  const m = await getMeeting(release, links, date, {});
  if (!m) return null;
  // The meeting record's rows, as meeting-record.json describes them.
  const items = m.items as unknown as {
    sequence: number;
    fileNumber: string | null;
    title: string;
    actions: string[];
    transcriptUrl: string;
    rollCalls: unknown[];
  }[];
  const comments = m.comments as unknown as { speaker: string }[];
  const brief = (it: (typeof items)[number]) => ({
    sequence: it.sequence,
    fileNumber: it.fileNumber,
    title: it.title,
    transcriptUrl: it.transcriptUrl,
  });
  const n = x.itemNumber;
  const asked =
    n === null
      ? null
      : ((n < 0 ? items.at(n) : (items.find((it) => Number(it.sequence) === n) ?? items[n - 1])) ?? null);
  return {
    date: m.date,
    documents: m.documents.map((d) => ({ id: d.id, kind: d.kind, officialUrl: d.officialUrl })),
    itemsFrom: m.itemsFrom,
    itemCount: items.length,
    facts: m.facts,
    items: items.slice(0, LIMIT).map(brief),
    item: asked ? { ...brief(asked), actions: asked.actions, rollCalls: asked.rollCalls } : null,
    speakerCount: comments.length,
    speakers: comments.map((c) => c.speaker),
    transcriptUrl: m.transcriptUrl,
    markdownUrl: m.markdownUrl,
  };
}

function guidance(
  links: Links,
  x: Interpreted,
  words: string,
  coverage: SpanCoverage,
  found: { votes: number | null; votesShown: boolean },
  named: { date: string | null; held: boolean; nearest: string[] },
): string[] {
  const i = x.interpretation;
  const out: string[] = [coverage.statement];
  if (named.date && named.held) {
    out.push(
      `The question names the meeting of ${named.date}${x.meetingOrdinal && !x.interpretation.searchQuery ? ` (${x.meetingOrdinal.words})` : ''}: meeting summarises its record (documents, items in agenda order, speakers), and every search below is limited to that meeting. Next: for the whole record (each item's actions and roll calls, every speaker's summary), call get_meeting with date ${named.date} or ${links.meeting(named.date)}`,
    );
    if (i.meetingQuestion && CUE_WORDS[i.meetingQuestion])
      out.push(
        `What the question asks (${i.meetingQuestion}) is printed in the minutes or on the agenda's cover, not in the items: read it in pageMatches, searched within that meeting for ${`“${CUE_WORDS[i.meetingQuestion]}”`}.`,
      );
  } else if (named.date) {
    out.push(
      `The question names ${named.date}, but the lake holds no document of a meeting that day${named.nearest.length ? `; the nearest meetings it holds are ${named.nearest.join(' and ')} (get_meeting)` : ''}. The searches below are not limited to one meeting.`,
    );
  } else if (x.meetingOrdinal) {
    out.push(
      `The lake holds no meeting matching “${x.meetingOrdinal.words}”; list the meetings it holds with list_meetings.`,
    );
  } else if (i.meetingQuestion) {
    out.push(
      'The question asks about a meeting but names no date: name the meeting (e.g. “November 1, 2016”), or find it with list_meetings and read it with get_meeting.',
    );
  }
  if (i.fiscalYear)
    out.push(
      `Fiscal year ${i.fiscalYear} (July 1 ${i.fiscalYear.slice(0, 4)} – June 30 ${i.fiscalYear.slice(5)}) was searched as words, as titles print it, not as the calendar years ${i.fiscalYear.replace('-', ' and ')}.`,
    );
  const said = (w: string) => `“${w.trim()}”`;
  const inferred = x.inferences.filter((f) => !['voteIntent', 'housingIntent', 'commentIntent'].includes(f.field));
  out.push(
    inferred.length
      ? `Inferred from the question: ${inferred.map((f) => `${f.field === 'fromYear' ? `years ${f.value}` : `${f.field} = ${f.value}`} (from ${said(f.words)})`).join('; ')}.`
      : 'No supervisor, year, recorded position or final-action filter was inferred from the question.',
  );
  if (i.fromYear === MIN_YEAR && i.toYear === MAX_YEAR)
    out.push(
      `No year was named: all of ${MIN_YEAR}–${MAX_YEAR} was searched, of which the lake holds only what the coverage above says.`,
    );
  if (x.ignoredYears.length)
    out.push(
      `Years outside ${MIN_YEAR}–${MAX_YEAR} are not in this service and were ignored: ${x.ignoredYears.join(', ')}.`,
    );
  if (i.searchQuery)
    out.push(
      `Searched for ${said(i.searchQuery)} (the question without names, years, position words and question words).`,
    );
  else
    out.push(
      `No subject words were left after removing names, years and question words, so the searches used ${said(words)}.`,
    );
  if (x.ambiguous) {
    out.push(
      `${said(x.ambiguous.words)} matches ${x.ambiguous.candidates.length} supervisors serving in ${i.fromYear}–${i.toYear}: ${x.ambiguous.candidates.map(describeSupervisor).join('; ')}. No voter filter was applied; ask again with the full name or a year, or call ${links.votes({ voter: x.ambiguous.candidates[0].fullName, from: i.fromYear, to: i.toYear })}.`,
    );
  }
  if (x.notServing) {
    out.push(
      `${said(x.notServing.words)} names ${x.notServing.candidates.map(describeSupervisor).join('; ')}, who did not serve in ${i.fromYear}–${i.toYear}; no voter filter was applied. Widen the years to see their record.`,
    );
  }
  const voter = x.supervisor;
  if (i.voteIntent || voter) {
    out.push(`${INTERPRETATION_LIMITS[0]} ${INTERPRETATION_LIMITS[2]}`);
    out.push(
      'A first reading is not final; isFinal and actionType on each roll call say which votes were final actions.',
    );
  }
  if (voter) {
    const scope = `${voter.fullName}${i.recordedPosition ? ` with a recorded ${i.recordedPosition}` : ''}${i.finalOnly ? ' on a final action' : ''}`;
    if (found.votesShown)
      out.push(
        `legislativeItems lists items matching ${said(words)} that have a roll call of ${scope}; voterPositions gives each of their recorded positions with its action text.`,
      );
    else
      out.push(
        `No item matching ${said(words)} has a roll call of ${scope} in ${i.fromYear}–${i.toYear}; legislativeItems shows the matching items without the voter filter.`,
      );
    const agg = {
      voter: voter.fullName,
      from: i.fromYear,
      to: i.toYear,
      position: i.recordedPosition,
      final: i.finalOnly || null,
    };
    out.push(
      `Next: for every recorded position of ${voter.fullName} (not only those matching the words), call ${links.votes(agg)}`,
    );
    if (i.housingIntent)
      out.push(
        `Next: for housing-related files with unit counts (maximum-unit-mention rule) and totals per position, call ${links.housing(agg)}`,
      );
  } else if (i.voteIntent && !x.ambiguous && !x.notServing) {
    out.push(
      'No supervisor was named: the roll calls on each item list every recorded position. Name a supervisor to get their positions and an aggregate.',
    );
  }
  if (x.subject)
    out.push(
      `The question names ${describeSupervisor(x.subject)} without vote words: the name was searched as words, and no voter filter was applied. For their recorded positions, call ${links.votes({ voter: x.subject.fullName, from: i.fromYear, to: i.toYear })}`,
    );
  for (const o of x.others)
    out.push(
      `The question also names ${describeSupervisor(o)}: call ${links.votes({ voter: o.fullName, from: i.fromYear, to: i.toYear })}`,
    );
  if (i.finalOnly)
    out.push(
      'Only records with a roll call classified as a final action (final passage, adoption, approval, rejection…) are in legislativeItems.',
    );
  if (i.commentIntent)
    out.push(
      "publicComments are the Clerk's speaker summaries from the minutes, not verbatim transcripts; a speaker's name is as the Clerk recorded it.",
    );
  else
    out.push(
      `publicComments is null: the question does not ask about public comment or speakers. To search them, call ${links.comments({ q: words, from: i.fromYear, to: i.toYear })}`,
    );
  out.push(
    'Cite each record by its officialUrl (the City PDF, with #page=N) and its transcriptUrl; quote the action text rather than paraphrasing a vote.',
  );
  return out;
}
