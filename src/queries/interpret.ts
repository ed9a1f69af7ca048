// A whole question → the filters it implies (spec 2.1 `interpretation`): years, the supervisor named (date-aware),
// the recorded position asked about, final-only, intents, and the search words that are left. Deterministic rules, no
// model: every inferred filter is reported with the words it came from, so a reader can check it.
import { datesIn, monthOf } from '../../core/dates.ts';
import { foldChars, QUESTION_TITLE, type RosterEntry, servesIn } from '../../core/roster.ts';
import { distance } from '../../core/text/analysis.ts';
import { MAX_YEAR, MIN_YEAR } from './years.ts';

export interface Interpretation {
  searchQuery: string;
  voter: string | null;
  recordedPosition: 'aye' | 'no' | null;
  fromYear: number;
  toYear: number;
  voteIntent: boolean;
  housingIntent: boolean;
  commentIntent: boolean;
  finalOnly: boolean;
  /** The meeting the question names by its date (`November 1, 2016`, `11/1/2016`, `the first meeting in March 2017`). */
  meetingDate: string | null;
  /** What the question asks of that meeting, when it asks about the meeting itself. */
  meetingQuestion: MeetingQuestion | null;
  /** A fiscal year named (`the 2018-2019 budget`, `FY 2018-19`): searched as words, not as two calendar years. */
  fiscalYear: string | null;
}

export const MEETING_QUESTIONS = [
  'what-happened',
  'presided',
  'called-to-order',
  'adjourned',
  'attendance',
  'item',
  'item-count',
  'speakers',
] as const;
export type MeetingQuestion = (typeof MEETING_QUESTIONS)[number];

/** `the first meeting in March 2017`: which meeting of a month or year, resolved against the meetings the lake holds. */
export interface MeetingOrdinal {
  n: number;
  month: number | null;
  year: number;
  words: string;
}

/** One inferred filter and the words of the question it came from. */
export interface Inference {
  field: keyof Interpretation | 'voter-candidates';
  value: string;
  words: string;
}

export interface Interpreted {
  interpretation: Interpretation;
  inferences: Inference[];
  /** The supervisor `voter` names (null when none, or when the name was ambiguous or not serving in the years). */
  supervisor: RosterEntry | null;
  /** A supervisor named without vote words: what the question is about, searched by name, not a voter filter. */
  subject: RosterEntry | null;
  /** A name matched several supervisors serving in the years asked. */
  ambiguous: { words: string; candidates: RosterEntry[] } | null;
  /** A name matched, but nobody of that name served in the years asked. */
  notServing: { words: string; candidates: RosterEntry[] } | null;
  /** Further supervisors named after the first. */
  others: RosterEntry[];
  /** Years mentioned outside 2012–2026 and ignored. */
  ignoredYears: number[];
  /** A meeting named by its place in a month or year, to resolve against the meetings held (then `meetingDate`). */
  meetingOrdinal: MeetingOrdinal | null;
  /** The n-th item asked for (`the first item`: 1; `the last item`: -1). */
  itemNumber: number | null;
}

type Span = [number, number];

// Surnames that are also ordinary words (or month abbreviations): a bare match counts only in a "name slot".
const COMMON_WORD_SURNAMES = new Set([
  'fewer',
  'brown',
  'breed',
  'mar',
  'kim',
  'chan',
  'wong',
  'yee',
  'tang',
  'chu',
  'chen',
  'lee',
]);
const POSSESSIVE = String.raw`(?:['’]s|s['’]|['’])?`;
const VOTE_WORD = /^\s*(?:['’]s\b|s['’]|votes?\b|voted\b|voting\b|record\b)/i;

const YEAR_RULES: { re: RegExp; range: (a: number, b: number) => [number, number] }[] = [
  { re: /\bbetween\s+((?:19|20)\d\d)\s+and\s+((?:19|20)\d\d)\b/gi, range: (a, b) => [Math.min(a, b), Math.max(a, b)] },
  {
    re: /\b(?:from\s+|in\s+|during\s+)?((?:19|20)\d\d)\s*(?:-|–|—|to|through|thru|until)\s*((?:19|20)\d\d)\b/gi,
    range: (a, b) => [Math.min(a, b), Math.max(a, b)],
  },
  { re: /\b(?:since|after|from)\s+((?:19|20)\d\d)\b(?:\s+on(?:wards?)?\b)?/gi, range: (a) => [a, MAX_YEAR] },
  { re: /\b(?:before|prior\s+to)\s+((?:19|20)\d\d)\b/gi, range: (a) => [MIN_YEAR, a - 1] },
  { re: /\b(?:until|through|thru|up\s+to|by)\s+((?:19|20)\d\d)\b/gi, range: (a) => [MIN_YEAR, a] },
  {
    re: /\b(?:(?:in|during|of|for|on)\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?)?((?:19|20)\d\d)(?:-\d\d-\d\d)?\b/gi,
    range: (a) => [a, a],
  },
];

const POSITION_RULES: { position: 'aye' | 'no'; re: RegExp }[] = [
  {
    position: 'no',
    re: /\b(?:vot(?:ed|es?|ing)\s+(?:no|nay)|(?:no|nay)\s+votes?|noes|nays?|vot(?:ed|es?|ing)\s+against|against|oppos(?:ed|es?|ing|ition))\b/gi,
  },
  {
    position: 'aye',
    re: /\b(?:vot(?:ed|es?|ing)\s+(?:for|yes|aye|in\s+favou?r(?:\s+of)?)|ayes?|yes|in\s+favou?r(?:\s+of)?|support(?:ed|s|ing)?)\b/gi,
  },
];

const FINAL_RE =
  /\b(?:final(?:ly)?\s+(?:passage|passed|vote|votes|approval|reading|action|adoption)|passed\s+finally|on\s+final\s+passage)\b/gi;
const VOTE_RE =
  /\b(?:vot(?:e|ed|es|ing)|(?:voting\s+)?record|roll[- ]calls?|ayes?|nays?|noes|abstain(?:ed)?|excused|absent|passed|adopted|approved|rejected|tabled|against|oppos(?:e|ed|ing)|support(?:ed|ing)?|in\s+favou?r|(?:dis)?agree(?:d|s)?|split)\b/i;
const HOUSING_RE =
  /\b(?:housing|affordable|units?|dwellings?|residential|apartments?|multi-?family|homes|home\s*owner\w*|homeless(?:ness)?|rent(?:als?|s|ers?)?|short[- ]term\s+rentals?|tenants?|evictions?|inclusionary|bmr|below[- ]market|sro|adus?|accessory\s+dwelling|condo(?:minium)?s?)\b/i;
const COMMENT_RE =
  /\b(?:public\s+comments?|(?:the\s+)?public\s+(?:say|said|says|think|thought|want|wanted)|comment(?:s|ed|ers?|ing)?|speakers?|spoke|speak(?:ing)?|testif(?:y|ied|ies)|testimony|members?\s+of\s+the\s+public)\b/i;

// Words that frame a question rather than name its subject; removed from searchQuery.
const QUESTION_WORDS = new Set(
  `how what which who whom whose when where why did does do doing done was were is are be been being has have had
  the a an on of about for in to at with by and or any all there this that these those me us i you we they it its tell show list find give get
  please can could would should will vote votes voted voting supervisor supervisors sup president board record records recorded position positions
  say said says public comment comments commented commenter commenters speaker speakers spoke speak testify testified testimony members member
  many much often times time ever anyone anybody anything happen happened happens file files over`
    .split(/\s+/)
    .filter(Boolean),
);

const ORDINALS: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
  final: -1,
};
const ORDINAL = String.raw`(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|final)`;
const MEETING_ORDINAL_RE = new RegExp(
  String.raw`\b(?:the\s+)?${ORDINAL}\s+(?:(?:full\s+)?board\s+|regular\s+)?meeting\s+(?:in|of)\s+(?:([a-z]{3,9})\.?\s+)?((?:19|20)\d\d)\b`,
  'gi',
);
const FISCAL_RE =
  /\b(?:(fy|fiscal\s+years?)\s*)?((?:19|20)\d\d)\s*[-–/]\s*((?:19|20)?\d\d)\b(\s*(?:budget|fiscal|appropriation|annual\s+salary))?/gi;
/** Cues of a question about the meeting itself, each with the words the minutes or agenda print for it. */
const MEETING_CUES: { question: MeetingQuestion; re: RegExp; needsMeeting?: boolean }[] = [
  {
    question: 'presided',
    re: /\b(?:who\s+(?:presided|chaired|was\s+presiding|was\s+(?:the\s+)?(?:board\s+)?president)|presid(?:ed|ing)\b|presiding\s+officer)/gi,
  },
  {
    question: 'called-to-order',
    re: /\b(?:call(?:ed)?\s+to\s+order|(?:scheduled\s+to\s+)?(?:start|begin)(?:s|ning)?(?:\s+time)?)\b/gi,
    needsMeeting: true,
  },
  { question: 'adjourned', re: /\badjourn(?:ed|ment|s)?\b/gi },
  {
    question: 'attendance',
    re: /\b(?:who\s+(?:was|were)\s+(?:absent|present|excused|not\s+present)|(?:noted|not)\s+present|on\s+the\s+call\s+of\s+the\s+roll|roll\s+call\s+attendance)\b/gi,
  },
  { question: 'item-count', re: /\bhow\s+many\s+(?:numbered\s+)?items?\b/gi },
  {
    question: 'speakers',
    re: /\b(?:who\s+spoke|how\s+many\s+(?:public\s+comment\s+)?speakers|speakers?)\b/gi,
    needsMeeting: true,
  },
  { question: 'what-happened', re: /\bwhat\s+(?:happened|was\s+(?:decided|discussed|done))\b/gi, needsMeeting: true },
];
const ITEM_RE = new RegExp(
  String.raw`\b(?:(?:the\s+)?${ORDINAL}\s+(?:numbered\s+)?item|item\s+(?:no\.?\s*|number\s+)?(\d{1,3}))\b`,
  'gi',
);
/** Words that only frame a question about a meeting (kept out of the search words once a meeting is named). */
const MEETING_WORDS = new Set(
  'meeting meetings agenda agendas minutes item items numbered first last listed held'.split(' '),
);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const overlaps = (a: Span, spans: Span[]) => spans.some(([s, e]) => a[0] < e && s < a[1]);

export function interpret(question: string, roster: RosterEntry[]): Interpreted {
  const q = question.normalize('NFC');
  const consumed: Span[] = [];
  const inferences: Inference[] = [];
  const take = (start: number, end: number) => consumed.push([start, end]);

  // Fiscal years: kept as search words (titles print them), never read as two calendar years.
  let fiscalYear: string | null = null;
  const fiscalSpans: Span[] = [];
  for (const m of q.matchAll(FISCAL_RE)) {
    const a = Number(m[2]);
    const b = Number(m[3].length === 2 ? `${m[2].slice(0, 2)}${m[3]}` : m[3]);
    if (b !== a + 1 || !(m[1] || m[4] || m[3].length === 2)) continue;
    fiscalSpans.push([m.index!, m.index! + m[0].length]);
    fiscalYear ??= `${a}-${b}`;
    inferences.push({ field: 'fiscalYear', value: `${a}-${b}`, words: m[0].trim() });
  }

  // A meeting named by its date, or by its place in a month or year.
  let meetingDate: string | null = null;
  let meetingOrdinal: MeetingOrdinal | null = null;
  for (const d of datesIn(q)) {
    const year = Number(d.iso.slice(0, 4));
    if (year < MIN_YEAR || year > MAX_YEAR || overlaps([d.start, d.end], consumed)) continue;
    take(d.start, d.end);
    if (meetingDate) continue;
    meetingDate = d.iso;
    inferences.push({ field: 'meetingDate', value: d.iso, words: q.slice(d.start, d.end) });
  }
  for (const m of q.matchAll(MEETING_ORDINAL_RE)) {
    const month = m[2] ? monthOf(m[2]) : 0;
    if (m[2] && month === 0) continue;
    take(m.index!, m.index! + m[0].length);
    meetingOrdinal ??= {
      n: ORDINALS[m[1].toLowerCase()],
      month: month || null,
      year: Number(m[3]),
      words: m[0].trim(),
    };
  }
  const meetingYear = meetingDate ? Number(meetingDate.slice(0, 4)) : (meetingOrdinal?.year ?? null);

  // What is asked of the meeting itself.
  let meetingQuestion: MeetingQuestion | null = null;
  // Words also used of other things ("what happened to the bill", "speakers on the lease", "start date") ask about
  // a meeting only when the question names one.
  const aboutNamedMeeting = meetingDate !== null || meetingOrdinal !== null;
  for (const cue of MEETING_CUES) {
    if (cue.needsMeeting && !aboutNamedMeeting) continue;
    for (const m of q.matchAll(cue.re)) {
      meetingQuestion ??= cue.question;
      take(m.index!, m.index! + m[0].length);
    }
  }
  let itemNumber: number | null = null;
  for (const m of aboutNamedMeeting ? q.matchAll(ITEM_RE) : []) {
    itemNumber ??= m[1] ? ORDINALS[m[1].toLowerCase()] : Number(m[2]);
    meetingQuestion ??= 'item';
    take(m.index!, m.index! + m[0].length);
  }
  if (meetingQuestion) inferences.push({ field: 'meetingQuestion', value: meetingQuestion, words: meetingQuestion });

  // Years: ranges first, then single years; outside 2012–2026 ignored.
  let fromYear = MIN_YEAR;
  let toYear = MAX_YEAR;
  const ignoredYears: number[] = [];
  const singles: number[] = [];
  let ranged = false;
  for (const rule of YEAR_RULES) {
    for (const m of q.matchAll(rule.re)) {
      const span: Span = [m.index!, m.index! + m[0].length];
      if (overlaps(span, consumed) || overlaps(span, fiscalSpans)) continue;
      const a = Number(m[1]);
      const b = m[2] ? Number(m[2]) : a;
      const outside = [a, b].filter((y) => y < MIN_YEAR || y > MAX_YEAR);
      take(...span);
      if (outside.length) {
        ignoredYears.push(...outside);
        continue;
      }
      if (rule === YEAR_RULES[YEAR_RULES.length - 1]) {
        singles.push(a);
        continue;
      }
      let [f, t] = rule.range(a, b);
      if (/^after\b/i.test(m[0])) f = a + 1;
      if (!ranged) {
        [fromYear, toYear] = [Math.max(MIN_YEAR, f), Math.min(MAX_YEAR, t)];
        ranged = true;
      } else {
        [fromYear, toYear] = [Math.min(fromYear, f), Math.max(toYear, t)];
      }
      inferences.push({ field: 'fromYear', value: `${fromYear}–${toYear}`, words: m[0].trim() });
    }
  }
  if (singles.length) {
    const lo = Math.min(...singles, ...(ranged ? [fromYear] : []));
    const hi = Math.max(...singles, ...(ranged ? [toYear] : []));
    [fromYear, toYear] = [lo, hi];
    inferences.push({ field: 'fromYear', value: `${fromYear}–${toYear}`, words: singles.join(', ') });
  }
  if (fromYear > toYear) [fromYear, toYear] = [toYear, fromYear];
  if (meetingYear !== null && !ranged && singles.length === 0) {
    [fromYear, toYear] = [meetingYear, meetingYear];
    inferences.push({
      field: 'fromYear',
      value: `${meetingYear}–${meetingYear}`,
      words: meetingDate ?? meetingOrdinal!.words,
    });
  }

  // Supervisors: full names and name variants anywhere; surnames anywhere unless they are also ordinary words, which
  // count only after a title, as a possessive, before "vote(d)", or capitalised mid-sentence; then near misses (typos)
  // in those name slots.
  const found: { entry: RosterEntry; span: Span; words: string }[] = [];
  const names: { name: string; entry: RosterEntry; full: boolean }[] = [];
  for (const s of roster) {
    for (const n of new Set([s.fullName, ...(s.nameVariants ?? [])]))
      names.push({ name: n, entry: s, full: n.trim().includes(' ') });
    names.push({ name: s.surname, entry: s, full: false });
  }
  names.sort((a, b) => b.name.length - a.name.length);
  const firstWordEnd = q.match(/^\W*\w+/)?.[0].length ?? 0;
  const accept = (start: number, end: number, matched: string, titled: boolean, common: boolean) => {
    if (!common) return true;
    if (titled || VOTE_WORD.test(q.slice(end)) || /['’]s?$/.test(matched)) return true;
    if (/^\s*\.?\s*\d/.test(q.slice(end))) return false; // "Mar 5", "Mar. 2017"
    const bare = matched.replace(new RegExp(`^${QUESTION_TITLE}`, 'i'), '');
    return /^\p{Lu}/u.test(bare) && start >= firstWordEnd;
  };
  const qClean = foldChars(q);
  for (const { name, entry, full } of names) {
    const re = new RegExp(
      `(?<![\\p{L}])(${QUESTION_TITLE})?${escapeRe(foldChars(name)).replace(/\\?\s+/g, '[\\s-]+')}${POSSESSIVE}(?![\\p{L}])`,
      'giu',
    );
    for (const m of qClean.matchAll(re)) {
      const span: Span = [m.index!, m.index! + m[0].length];
      if (
        overlaps(span, consumed) ||
        found.some((f) => overlaps(span, [f.span]) && (f.span[0] !== span[0] || f.span[1] !== span[1]))
      )
        continue;
      const original = q.slice(...span);
      const common = !full && COMMON_WORD_SURNAMES.has(foldChars(name));
      if (!accept(span[0], span[1], original, Boolean(m[1]), common)) continue;
      found.push({ entry, span, words: original });
    }
  }
  // Typos: a word of 5+ letters within edit distance 1 (2 for 8+) of a surname, in a name slot.
  const surnames = [...new Set(roster.map((s) => s.surname))].filter(
    (n) => n.length >= 5 && !COMMON_WORD_SURNAMES.has(foldChars(n)),
  );
  for (const m of q.matchAll(/(?<![\p{L}])(\p{L}{4,})(['’]s|s['’]|['’])?(?![\p{L}])/gu)) {
    const span: Span = [m.index!, m.index! + m[0].length];
    if (overlaps(span, consumed) || found.some((f) => overlaps(span, [f.span]))) continue;
    const word = foldChars(m[1]);
    if (QUESTION_WORDS.has(word)) continue;
    const titled = /(?:supervisors?|sup\.?|president|by)\s+$/i.test(q.slice(0, span[0]));
    const slot =
      titled || Boolean(m[2]) || VOTE_WORD.test(q.slice(span[1])) || (/^\p{Lu}/u.test(m[1]) && span[0] >= firstWordEnd);
    if (!slot) continue;
    const near = surnames.filter((n) => {
      const d = distance(word, foldChars(n));
      return d > 0 && d <= (n.length >= 8 ? 2 : 1);
    });
    if (near.length !== 1) continue;
    for (const entry of roster.filter((s) => s.surname === near[0])) found.push({ entry, span, words: m[0] });
  }
  found.sort((a, b) => a.span[0] - b.span[0]);
  for (const f of found) take(...f.span);

  // Group matches by the words that named them; resolve each within the years.
  const mentions: { words: string; start: number; candidates: RosterEntry[] }[] = [];
  for (const f of found) {
    const same = mentions.find((x) => x.start === f.span[0]);
    if (same) same.candidates.push(f.entry);
    else mentions.push({ words: f.words, start: f.span[0], candidates: [f.entry] });
  }
  let supervisor: RosterEntry | null = null;
  let ambiguous: Interpreted['ambiguous'] = null;
  let notServing: Interpreted['notServing'] = null;
  const others: RosterEntry[] = [];
  for (const x of mentions) {
    const unique = [...new Map(x.candidates.map((c) => [c.id, c])).values()];
    const serving = unique.filter((c) => servesIn(c, fromYear, toYear));
    if (serving.length === 1) {
      if (!supervisor) {
        supervisor = serving[0];
        inferences.push({ field: 'voter', value: supervisor.fullName, words: x.words });
      } else if (serving[0].id !== supervisor.id && !others.some((o) => o.id === serving[0].id))
        others.push(serving[0]);
    } else if (serving.length > 1) ambiguous ??= { words: x.words, candidates: serving };
    else notServing ??= { words: x.words, candidates: unique };
  }

  // Recorded position and final-only.
  const positionHits: { position: 'aye' | 'no'; words: string }[] = [];
  for (const rule of POSITION_RULES) {
    for (const m of q.matchAll(rule.re)) {
      const span: Span = [m.index!, m.index! + m[0].length];
      if (overlaps(span, consumed)) continue;
      take(...span);
      positionHits.push({ position: rule.position, words: m[0] });
    }
  }
  const positions = new Set(positionHits.map((h) => h.position));
  const recordedPosition = positions.size === 1 ? [...positions][0] : null;
  if (recordedPosition)
    inferences.push({
      field: 'recordedPosition',
      value: recordedPosition,
      words: positionHits.map((h) => h.words).join(', '),
    });
  let finalOnly = false;
  for (const m of q.matchAll(FINAL_RE)) {
    finalOnly = true;
    take(m.index!, m.index! + m[0].length);
    inferences.push({ field: 'finalOnly', value: 'true', words: m[0] });
  }

  const voteIntent = VOTE_RE.test(q) || recordedPosition !== null || finalOnly;
  const housingIntent = HOUSING_RE.test(q);
  const commentIntent = COMMENT_RE.test(q);
  for (const [field, on, re] of [
    ['voteIntent', voteIntent, VOTE_RE],
    ['housingIntent', housingIntent, HOUSING_RE],
    ['commentIntent', commentIntent, COMMENT_RE],
  ] as const) {
    const words = q.match(re)?.[0];
    if (on) inferences.push({ field, value: 'true', words: words ?? (finalOnly ? 'final' : 'position words') });
  }
  // A supervisor named without vote words is what the question is about ("which file commended Supervisor Eric Mar"),
  // not a voter: the name stays among the search words and no roll-call filter applies.
  const subject = voteIntent ? null : supervisor;
  if (subject) {
    const spans = found.filter((f) => f.entry.id === subject.id).map((f) => f.span);
    const kept = consumed.filter(([s, e]) => !spans.some((span) => span[0] === s && span[1] === e));
    consumed.splice(0, consumed.length, ...kept);
    const named = inferences.findIndex((f) => f.field === 'voter');
    if (named >= 0) inferences.splice(named, 1);
    supervisor = null;
  }
  // The Board's own name frames a question ("the San Francisco Board of Supervisors meeting"): it is on every page.
  for (const m of q.matchAll(/\b(?:city\s+and\s+county\s+of\s+)?san\s+francisco(?=\s+board\b)/gi))
    take(m.index!, m.index! + m[0].length);
  // "public comment", "members of the public", "the public said" frame the question: drop them from the search words.
  for (const m of q.matchAll(
    /\b(?:public\s+comments?|members?\s+of\s+the\s+public|the\s+public\s+(?:say|said|says|think|thought|want|wanted))\b/gi,
  ))
    take(m.index!, m.index! + m[0].length);

  return {
    interpretation: {
      searchQuery: searchWords(q, consumed, meetingYear !== null || meetingQuestion !== null),
      voter: supervisor?.fullName ?? null,
      recordedPosition,
      fromYear,
      toYear,
      voteIntent,
      housingIntent,
      commentIntent,
      finalOnly,
      meetingDate,
      meetingQuestion,
      fiscalYear,
    },
    inferences,
    meetingOrdinal,
    itemNumber,
    supervisor,
    subject,
    ambiguous,
    notServing,
    others,
    ignoredYears,
  };
}

/** The question minus the consumed spans and the question words (and, about a meeting, its framing words); quoted phrases kept whole. */
function searchWords(q: string, consumed: Span[], aboutMeeting: boolean): string {
  let rest = '';
  for (let i = 0; i < q.length; i++) rest += consumed.some(([s, e]) => i >= s && i < e) ? ' ' : q[i];
  const out: string[] = [];
  for (const m of rest.matchAll(/"[^"]*"|[^\s"]+/g)) {
    if (m[0].startsWith('"')) {
      if (m[0].replace(/"/g, '').trim()) out.push(m[0]);
      continue;
    }
    const word = m[0].replace(/^[^\p{L}\p{N}$#]+|[^\p{L}\p{N}%]+$/gu, '').replace(/['’]s$/i, '');
    if (!word || QUESTION_WORDS.has(foldChars(word)) || (aboutMeeting && MEETING_WORDS.has(foldChars(word)))) continue;
    out.push(word);
  }
  return out.join(' ');
}
