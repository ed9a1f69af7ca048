// A whole question → the filters it implies (spec 2.1 `interpretation`): years, the supervisor named (date-aware),
// the recorded position asked about, final-only, intents, and the search words that are left. Deterministic rules, no
// model: every inferred filter is reported with the words it came from, so a reader can check it.
import { foldChars, QUESTION_TITLE, servesIn, type RosterEntry } from '../../core/roster.ts';
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
}

/** One inferred filter and the words of the question it came from. */
export interface Inference { field: keyof Interpretation | 'voter-candidates'; value: string; words: string }

export interface Interpreted {
  interpretation: Interpretation;
  inferences: Inference[];
  /** The supervisor `voter` names (null when none, or when the name was ambiguous or not serving in the years). */
  supervisor: RosterEntry | null;
  /** A name matched several supervisors serving in the years asked. */
  ambiguous: { words: string; candidates: RosterEntry[] } | null;
  /** A name matched, but nobody of that name served in the years asked. */
  notServing: { words: string; candidates: RosterEntry[] } | null;
  /** Further supervisors named after the first. */
  others: RosterEntry[];
  /** Years mentioned outside 2012–2026 and ignored. */
  ignoredYears: number[];
}

type Span = [number, number];

// Surnames that are also ordinary words (or month abbreviations): a bare match counts only in a "name slot".
const COMMON_WORD_SURNAMES = new Set(['fewer', 'brown', 'breed', 'mar', 'kim', 'chan', 'wong', 'yee', 'tang', 'chu', 'chen', 'lee']);
const POSSESSIVE = String.raw`(?:['’]s|s['’]|['’])?`;
const VOTE_WORD = /^\s*(?:['’]s\b|s['’]|votes?\b|voted\b|voting\b|record\b)/i;

const YEAR_RULES: { re: RegExp; range: (a: number, b: number) => [number, number] }[] = [
  { re: /\bbetween\s+((?:19|20)\d\d)\s+and\s+((?:19|20)\d\d)\b/gi, range: (a, b) => [Math.min(a, b), Math.max(a, b)] },
  { re: /\b(?:from\s+|in\s+|during\s+)?((?:19|20)\d\d)\s*(?:-|–|—|to|through|thru|until)\s*((?:19|20)\d\d)\b/gi, range: (a, b) => [Math.min(a, b), Math.max(a, b)] },
  { re: /\b(?:since|after|from)\s+((?:19|20)\d\d)\b(?:\s+on(?:wards?)?\b)?/gi, range: (a) => [a, MAX_YEAR] },
  { re: /\b(?:before|prior\s+to)\s+((?:19|20)\d\d)\b/gi, range: (a) => [MIN_YEAR, a - 1] },
  { re: /\b(?:until|through|thru|up\s+to|by)\s+((?:19|20)\d\d)\b/gi, range: (a) => [MIN_YEAR, a] },
  { re: /\b(?:(?:in|during|of|for|on)\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?)?((?:19|20)\d\d)(?:-\d\d-\d\d)?\b/gi, range: (a) => [a, a] },
];

const POSITION_RULES: { position: 'aye' | 'no'; re: RegExp }[] = [
  { position: 'no', re: /\b(?:vot(?:ed|es?|ing)\s+(?:no|nay)|(?:no|nay)\s+votes?|noes|nays?|vot(?:ed|es?|ing)\s+against|against|oppos(?:ed|es?|ing|ition))\b/gi },
  { position: 'aye', re: /\b(?:vot(?:ed|es?|ing)\s+(?:for|yes|aye|in\s+favou?r(?:\s+of)?)|ayes?|yes|in\s+favou?r(?:\s+of)?|support(?:ed|s|ing)?)\b/gi },
];

const FINAL_RE = /\b(?:final(?:ly)?\s+(?:passage|passed|vote|votes|approval|reading|action|adoption)|passed\s+finally|on\s+final\s+passage)\b/gi;
const VOTE_RE = /\b(?:vot(?:e|ed|es|ing)|(?:voting\s+)?record|roll[- ]calls?|ayes?|nays?|noes|abstain(?:ed)?|excused|absent|passed|adopted|approved|rejected|tabled|against|oppos(?:e|ed|ing)|support(?:ed|ing)?|in\s+favou?r)\b/i;
const HOUSING_RE = /\b(?:housing|affordable|units?|dwellings?|residential|apartments?|multi-?family|homes|home\s*owner\w*|homeless(?:ness)?|rent(?:als?|s|ers?)?|short[- ]term\s+rentals?|tenants?|evictions?|inclusionary|bmr|below[- ]market|sro|adus?|accessory\s+dwelling|condo(?:minium)?s?)\b/i;
const COMMENT_RE = /\b(?:public\s+comments?|(?:the\s+)?public\s+(?:say|said|says|think|thought|want|wanted)|comment(?:s|ed|ers?|ing)?|speakers?|spoke|speak(?:ing)?|testif(?:y|ied|ies)|testimony|members?\s+of\s+the\s+public)\b/i;

// Words that frame a question rather than name its subject; removed from searchQuery.
const QUESTION_WORDS = new Set(`how what which who whom whose when where why did does do doing done was were is are be been being has have had
  the a an on of about for in to at with by and or any all there this that these those me us i you we they it its tell show list find give get
  please can could would should will vote votes voted voting supervisor supervisors sup president board record records recorded position positions
  say said says public comment comments commented commenter commenters speaker speakers spoke speak testify testified testimony members member
  many much often times time ever anyone anybody anything happen happened happens file files`.split(/\s+/).filter(Boolean));

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const overlaps = (a: Span, spans: Span[]) => spans.some(([s, e]) => a[0] < e && s < a[1]);

export function interpret(question: string, roster: RosterEntry[]): Interpreted {
  const q = question.normalize('NFC');
  const consumed: Span[] = [];
  const inferences: Inference[] = [];
  const take = (start: number, end: number) => consumed.push([start, end]);

  // Years: ranges first, then single years; outside 2012–2026 ignored.
  let fromYear = MIN_YEAR;
  let toYear = MAX_YEAR;
  const ignoredYears: number[] = [];
  const singles: number[] = [];
  let ranged = false;
  for (const rule of YEAR_RULES) {
    for (const m of q.matchAll(rule.re)) {
      const span: Span = [m.index!, m.index! + m[0].length];
      if (overlaps(span, consumed)) continue;
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

  // Supervisors: full names and name variants anywhere; surnames anywhere unless they are also ordinary words, which
  // count only after a title, as a possessive, before "vote(d)", or capitalised mid-sentence; then near misses (typos)
  // in those name slots.
  const found: { entry: RosterEntry; span: Span; words: string}[] = [];
  const names: { name: string; entry: RosterEntry; full: boolean }[] = [];
  for (const s of roster) {
    for (const n of new Set([s.fullName, ...(s.nameVariants ?? [])])) names.push({ name: n, entry: s, full: n.trim().includes(' ') });
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
    const re = new RegExp(`(?<![\\p{L}])(${QUESTION_TITLE})?${escapeRe(foldChars(name)).replace(/\\?\s+/g, '[\\s-]+')}${POSSESSIVE}(?![\\p{L}])`, 'giu');
    for (const m of qClean.matchAll(re)) {
      const span: Span = [m.index!, m.index! + m[0].length];
      if (overlaps(span, consumed) || found.some((f) => overlaps(span, [f.span]) && (f.span[0] !== span[0] || f.span[1] !== span[1]))) continue;
      const original = q.slice(...span);
      const common = !full && COMMON_WORD_SURNAMES.has(foldChars(name));
      if (!accept(span[0], span[1], original, Boolean(m[1]), common)) continue;
      found.push({ entry, span, words: original });
    }
  }
  // Typos: a word of 5+ letters within edit distance 1 (2 for 8+) of a surname, in a name slot.
  const surnames = [...new Set(roster.map((s) => s.surname))].filter((n) => n.length >= 5 && !COMMON_WORD_SURNAMES.has(foldChars(n)));
  for (const m of q.matchAll(/(?<![\p{L}])(\p{L}{4,})(['’]s|s['’]|['’])?(?![\p{L}])/gu)) {
    const span: Span = [m.index!, m.index! + m[0].length];
    if (overlaps(span, consumed) || found.some((f) => overlaps(span, [f.span]))) continue;
    const word = foldChars(m[1]);
    if (QUESTION_WORDS.has(word)) continue;
    const titled = /(?:supervisors?|sup\.?|president|by)\s+$/i.test(q.slice(0, span[0]));
    const slot = titled || Boolean(m[2]) || VOTE_WORD.test(q.slice(span[1])) || (/^\p{Lu}/u.test(m[1]) && span[0] >= firstWordEnd);
    if (!slot) continue;
    const near = surnames.filter((n) => { const d = distance(word, foldChars(n)); return d > 0 && d <= (n.length >= 8 ? 2 : 1); });
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
      } else if (serving[0].id !== supervisor.id && !others.some((o) => o.id === serving[0].id)) others.push(serving[0]);
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
  if (recordedPosition) inferences.push({ field: 'recordedPosition', value: recordedPosition, words: positionHits.map((h) => h.words).join(', ') });
  let finalOnly = false;
  for (const m of q.matchAll(FINAL_RE)) {
    finalOnly = true;
    take(m.index!, m.index! + m[0].length);
    inferences.push({ field: 'finalOnly', value: 'true', words: m[0] });
  }

  const voteIntent = VOTE_RE.test(q) || recordedPosition !== null || finalOnly;
  const housingIntent = HOUSING_RE.test(q);
  const commentIntent = COMMENT_RE.test(q);
  for (const [field, on, re] of [['voteIntent', voteIntent, VOTE_RE], ['housingIntent', housingIntent, HOUSING_RE], ['commentIntent', commentIntent, COMMENT_RE]] as const) {
    const words = q.match(re)?.[0];
    if (on) inferences.push({ field, value: 'true', words: words ?? (finalOnly ? 'final' : 'position words') });
  }
  // "public comment", "members of the public", "the public said" frame the question: drop them from the search words.
  for (const m of q.matchAll(/\b(?:public\s+comments?|members?\s+of\s+the\s+public|the\s+public\s+(?:say|said|says|think|thought|want|wanted))\b/gi)) take(m.index!, m.index! + m[0].length);

  return {
    interpretation: { searchQuery: searchWords(q, consumed), voter: supervisor?.fullName ?? null, recordedPosition, fromYear, toYear, voteIntent, housingIntent, commentIntent, finalOnly },
    inferences,
    supervisor,
    ambiguous,
    notServing,
    others,
    ignoredYears,
  };
}

/** The question minus the consumed spans and the question words; quoted phrases kept whole. */
function searchWords(q: string, consumed: Span[]): string {
  let rest = '';
  for (let i = 0; i < q.length; i++) rest += consumed.some(([s, e]) => i >= s && i < e) ? ' ' : q[i];
  const out: string[] = [];
  for (const m of rest.matchAll(/"[^"]*"|[^\s"]+/g)) {
    if (m[0].startsWith('"')) {
      if (m[0].replace(/"/g, '').trim()) out.push(m[0]);
      continue;
    }
    const word = m[0].replace(/^[^\p{L}\p{N}$#]+|[^\p{L}\p{N}%]+$/gu, '').replace(/['’]s$/i, '');
    if (!word || QUESTION_WORDS.has(foldChars(word))) continue;
    out.push(word);
  }
  return out.join(' ');
}
