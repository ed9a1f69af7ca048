// Amounts, housing units, street addresses and agreement parties from an item's title and long title.
// Precise before complete: each pattern is narrow, and every value returned appears literally in the text
// (after whitespace is collapsed, since layout lines wrap mid-phrase).
import { partyKey } from '../../core/text/entities.ts';
import type { Amount, AmountQualifier, Extracted, UnitMention } from '../records.ts';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

// ---- amounts ----------------------------------------------------------------------------------------------------

const AMOUNT = /\$(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s+(million|billion))?(?![\d,]*\d)/gi;

/**
 * The qualifier rule table: the role a sum plays, read from the words just before it (back to the previous sum or a
 * clause break); the first row that matches wins. Each row has an example (test/enrich.test.ts runs every one).
 */
export const QUALIFIER_RULES: { pattern: RegExp; qualifier: AmountQualifier; example: string }[] = [
  {
    pattern: /\bde-?appropriat\w*(?:\s+(?:of|approximately|a total of))*\s*(?:\(\d+\)\s*)?$/i,
    qualifier: 'decrease',
    example: 'de-appropriating $39,500,000 from permanent salaries',
  },
  {
    pattern: /\bincreas\w*\b[^$;]{0,60}\bby\s*$/i,
    qualifier: 'increase',
    example: 'to increase the not to exceed amount by $2,918,942',
  },
  {
    pattern: /\b(?:decreas|reduc)\w*\b[^$;]{0,60}\bby\s*$/i,
    qualifier: 'decrease',
    example: 'reducing the contract amount by $150,000',
  },
  {
    pattern: /\b(?:not[- ]to[- ]exceed|up to|no more than)\s*(?:approximately\s+|an additional\s+)?$/i,
    qualifier: 'not-to-exceed',
    example: 'an aggregate total settlement amount not to exceed $7,000,000',
  },
  {
    pattern: /\bcap\b[^$;]{0,60}?\bat\s*$/i,
    qualifier: 'not-to-exceed',
    example: 'to cap the City’s Administrative Services Fee at $250,000 annually',
  },
  {
    pattern: /\bmaximum\b[^$;,]{0,40}?\b(?:of|to)\s*$/i,
    qualifier: 'not-to-exceed',
    example: 'increasing the maximum amount of the agreements to $41,500,000',
  },
  {
    pattern: /\b(?:re-?)?appropriat\w*(?:\s+(?:of|approximately|an additional|a total of))*\s*(?:\(\d+\)\s*)?$/i,
    qualifier: 'appropriation',
    example: 'appropriation of (1) $260,878,172',
  },
  {
    pattern: /\b(?:an additional amount|increase) of\s*$/i,
    qualifier: 'increase',
    example:
      'to extend the contract for three years and twenty days to commence November 30, 2020, for a total term of December 19, 2014, through December 19, 2023, for an additional amount of $19,500,000',
  },
  {
    pattern:
      /\bCity (?:to|shall|will) (?:be paid|receive)\s*$|\bpayment to (?:the City|San Francisco)\b[^$;]{0,30}?\b(?:of|for)\s*$|\b(?:to receive|receiving)\s*$|\brevenues?\b(?!\s+bonds?\b)[^$;]{0,60}?\bof(?:\s+(?:more than|approximately|at least))?\s*$/i,
    qualifier: 'revenue',
    example: 'Settlement of Lawsuit - MJM Management Group - City to Receive $400,000',
  },
  {
    pattern: /\baccept(?:ing)?,? and expend\b[^$;]{0,160}?$/i,
    qualifier: 'revenue',
    example: 'to accept and expend a grant in the amount of $3,639,888',
  },
];

/** A sum that follows another in a list (`$X to A, $Y to B, and $Z to C`) keeps the list's qualifier. */
const LIST_GAP = /^[^$;]{0,200}?(?:,\s*(?:and\s+)?|\s+and\s+|:\s*)(?:\(\d+\)\s*)?$/;

/** One sum named in two roles: `de-appropriating and re-appropriating (… appropriations of) $X`. */
const MOVED = /\bde-?appropriat\w* and (?:re-?)?appropriat\w*\b(?:[^$;]{0,80}?\bof)?\s*$/i;
/** The parts of a sum keep its role: `appropriating $X, consisting of $Y … and $Z`. */
const PARTS = /,?\s*consisting of\s*$/i;
/** A change whose result follows: `in the amount of $X resulting in a total contract amount of $Y`. */
const CHANGE_BEFORE_TOTAL = /^,?\s*resulting in a (?:new )?total\b/i;
/** The total after an increase (`a grant increase of $X for a total amount of $Y`): the role the words before the increase give. */
const TOTAL_AFTER_INCREASE = /^,?\s*(?:for|resulting in) a (?:new )?total (?:\w+ )?amount of\s*$/i;

/** A total after sums of one role is theirs (`$100,000 from A, and $200,000 from B for a total of $300,000`). */
const TOTAL_OF = /^[^$;]{0,120}?\b(?:for )?a total (?:amount )?of\s*$/i;
/** A gift or grant the City accepts, its sum printed first: `accepting a $300,000 gift`. */
const ACCEPTED_BEFORE = /\baccept(?:s|ing|ed)?\s+(?:a|an|the)\s*$/i;
const ACCEPTED_AFTER = /^\s+(?:gift|donation|grant)\b/i;
/** The price of what the City sells: `the conveyance by the City and County of San Francisco … to Buyer … for $X`. */
const SOLD_BY_CITY = /\bconvey\w* by the City and County of San Francisco\b[^$;]*\bfor\s*$/i;
/** A sum's share of one fiscal year keeps the sum's role: `appropriating $X … for FY2020-2021 at $Y and for FY2021-2022 at $Z`. */
const PER_YEAR = /\b(?:Fiscal Years?|FYs?)[^$;]{0,30}?\sat\s*$/i;

// A heading (`Type - … - $X - …`, several joined by `;`) whose type says what its bare sums are.
const APPROPRIATION_HEADING = /^(?:Re-?)?Appropriations?$/i;
const DECREASE_HEADING = /^De-?Appropriations?$/i;
// `De-Appropriation and Appropriation`, `De- and Re-Appropriation`.
const MOVE_HEADING = /^De-?\s*(?:Appropriations?\s+)?and (?:Re-?)?Appropriations?$/i;
/** A semicolon that opens another typed part of a heading (`…; De-appropriation - Capital Projects - $X`). */
const HEADING_PART = /;\s*(?=(?:De-?\s*(?:Appropriations?\s+)?and\s+)?(?:De-?|Re-?)?Appropriations?\s+-\s)/gi;

interface Sum {
  raw: string;
  value: number;
  qualifiers: AmountQualifier[];
  before: string;
}

const ruleFor = (before: string) => QUALIFIER_RULES.find((r) => r.pattern.test(before));

function sums(text: string, heading: boolean): Sum[] {
  const out: Sum[] = [];
  const matches = [...text.matchAll(AMOUNT)];
  // A heading's part (`Type - … - $X`) ends where a semicolon opens another type: its type and its sums.
  const starts = [0, ...[...text.matchAll(HEADING_PART)].map((p) => p.index + p[0].length), text.length];
  const part = (at: number) => {
    const i = starts.findLastIndex((p) => p <= at);
    return [starts[i], starts[i + 1]];
  };
  let last = 0;
  let previous: Sum | null = null;
  for (const m of matches) {
    const gap = text.slice(last, m.index);
    const clause = gap.split(/[;[\]]/).pop()!;
    const before = heading ? clause.split(/\s+-\s+/).pop()! : clause.slice(-200);
    const base = Number(m[1].replace(/,/g, '') + (m[2] ?? ''));
    const scale = m[3] ? (m[3].toLowerCase() === 'million' ? 1e6 : 1e9) : 1;
    const after = text.slice(m.index + m[0].length);
    const rule = ruleFor(before);
    let qualifiers: AmountQualifier[] = [rule?.qualifier ?? 'stated'];
    if (MOVED.test(before)) qualifiers = ['decrease', 'appropriation'];
    else if (!rule && CHANGE_BEFORE_TOTAL.test(after)) qualifiers = ['increase'];
    else if (previous?.qualifiers.includes('increase') && TOTAL_AFTER_INCREASE.test(gap))
      qualifiers = [ruleFor(previous.before.replace(/\bincreas\w*[^$;]*$/i, ''))?.qualifier ?? 'stated'];
    else if (previous && (PARTS.test(gap) || (!rule && PER_YEAR.test(before)))) qualifiers = previous.qualifiers;
    else if (!rule && previous && TOTAL_OF.test(gap)) qualifiers = previous.qualifiers;
    else if (!rule && ACCEPTED_BEFORE.test(before) && ACCEPTED_AFTER.test(after)) qualifiers = ['revenue'];
    else if (!rule && SOLD_BY_CITY.test(clause)) qualifiers = ['revenue'];
    // A list goes on past a comma or `and`, and past a semicolon that the next sum opens (`…; $25,000 to …`).
    const listed = (clause === gap && LIST_GAP.test(gap)) || (clause !== gap && /^\s*(?:and\s+)?$/.test(clause));
    if (!rule && previous && listed && !(heading && /\s-\s/.test(gap))) qualifiers = previous.qualifiers;
    else if (!rule && heading && before.trim() === '') {
      const [from, to] = part(m.index);
      const type = text
        .slice(from, to)
        .trim()
        .split(/\s+-\s+/)[0];
      if (APPROPRIATION_HEADING.test(type)) qualifiers = ['appropriation'];
      else if (DECREASE_HEADING.test(type)) qualifiers = ['decrease'];
      // One total moved from one place to others: de-appropriated and appropriated.
      else if (MOVE_HEADING.test(type) && matches.filter((x) => x.index >= from && x.index < to).length === 1)
        qualifiers = ['decrease', 'appropriation'];
    }
    previous = { raw: m[0], value: Math.round(base * scale), qualifiers, before };
    out.push(previous);
    last = m.index + m[0].length;
  }
  return out;
}

/** One amount per sum and role: a sum stated without a role elsewhere (`$X` in the heading, `for $X`) is the same amount. */
function amounts(title: string, longTitle: string): Amount[] {
  const all = [...sums(title, true), ...sums(longTitle, false)].flatMap((s) =>
    s.qualifiers.map((qualifier) => ({ raw: s.raw, value: s.value, currency: 'USD' as const, qualifier })),
  );
  const roles = new Set(all.filter((a) => a.qualifier !== 'stated').map((a) => a.value));
  const seen = new Set<string>();
  return all.filter((a) => {
    const k = `${a.value}|${a.qualifier}`;
    if (seen.has(k) || (a.qualifier === 'stated' && roles.has(a.value))) return false;
    seen.add(k);
    return true;
  });
}

// ---- housing units ----------------------------------------------------------------------------------------------

const NUM = String.raw`(\d{1,3}(?:,\d{3})+|\d{1,6})`;
const UNIT_PATTERNS = [
  new RegExp(String.raw`\b${NUM}-unit\b`, 'g'),
  new RegExp(
    String.raw`\b${NUM}\s+(?:(?:new|permanently|affordable|dwelling|residential|housing|rental|senior|supportive|market-rate|below-market-rate|BMR|inclusionary|on-site|off-site)\s+){1,3}units\b`,
    'gi',
  ),
  new RegExp(
    String.raw`\b${NUM}\s+units\s+of\s+(?:affordable\s+|supportive\s+|senior\s+|permanent\s+)*housing\b`,
    'gi',
  ),
];

function units(text: string): UnitMention[] {
  const sentences = text.split(/(?<=[.;])\s+(?=[A-Za-z(])/);
  const out: UnitMention[] = [];
  for (const sentence of sentences) {
    const found = new Map<number, number>(); // position → units, so overlapping patterns count once
    for (const re of UNIT_PATTERNS) {
      for (const m of sentence.matchAll(re)) {
        const n = Number(m[1].replace(/,/g, ''));
        if (n > 0 && n < 100000 && !found.has(m.index)) found.set(m.index, n);
      }
    }
    for (const [, n] of [...found].sort((a, b) => a[0] - b[0])) out.push({ units: n, sentence });
  }
  return out;
}

// ---- addresses --------------------------------------------------------------------------------------------------

const SUFFIX =
  'Street|Avenue|Boulevard|Drive|Road|Way|Place|Lane|Court|Terrace|Alley|Plaza|Circle|Highway|Parkway|Square';
// A number (`250`, a range `162-164` or `172-172A-174B`, `12A`, a spelled `One`: `One Oak Street`; `Seven Seas Avenue` is a street's
// name; never a year's `2017 Annual … Drive`), then the street; the City prints numbered streets as `3175-24th Street`.
const ADDRESS = new RegExp(
  String.raw`\b(?!(?:19|20)\d\d\s+Annual\b)(?:One\s+|\d{1,5}[A-Z]?(?:-\d{1,5}[A-Z]?){0,6}(?:\s+|-(?=\d{1,3}(?:st|nd|rd|th)\s)))(?:The\s+Embarcadero|(?:(?:(?:Mc|Mac|O’|O')?[A-Z][a-z'’]+|[A-Z]\.|\d{1,3}(?:st|nd|rd|th)|de|del|la|los)\s+){1,4}(?:${SUFFIX}))\b(?!,?\s+(?:Inc\b|LLC|L\.?P|Corp|Co\b|Associates|Partners))`,
  'g',
);

const ADDRESS_ONLY = new RegExp(`^${ADDRESS.source}$`);

function addresses(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(ADDRESS)) {
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    if (/\b(No\.|Nos\.|Section|Block|Lot|File|Page)\s*$/i.test(before)) continue;
    out.add(m[0].replace(/\s+/g, ' '));
  }
  return [...out];
}

// ---- parties ----------------------------------------------------------------------------------------------------
// From three places: the heading of an agreement, lease, memorandum or settlement (`Type - Party - …`); the long
// title's triggers (`between the City … and X`, `with X`, `filed by X`, `against X` when the City sued, a grant's
// grantor or grantee, a seller); and lists of them (`A, B, and C`, `A; B`, `A and B`), split where a name ends.

const CONNECT = String.raw`(?:and|of(?:\s+the)?|on\s+the|de|la|the|for(?:\s+the)?|&)`;
const WORD = String.raw`(?:[\p{Lu}\d][\p{L}\d'’.&/*-]*|@)`;
const LEGAL_FORM = String.raw`(?:Inc\.?|LLC|L\.\s?P\.|LP|LLP|Ltd\.?|LTD\.?|Corp\.?|N\.A\.|National Association)`;
/** What may follow a name after a comma and still be the name: a legal form, a union local, an acronym. */
const CONTINUATION = String.raw`(?:${LEGAL_FORM}|Local(?: Union)? \d+(?:-[A-Z])?|Unit \d+|[A-Z]{2,}(?:-[A-Z]{2,})?)`;
/** A parenthesised word inside a name, not at its end: `Bombardier Transportation (Holdings) USA, Inc.`. */
const INNER = String.raw`\(${WORD}\)`;
const NAME = String.raw`(?:the\s+)?(${WORD}(?:\s+(?:${CONNECT}\s+|${INNER}\s+)?${WORD})*(?:,?\s+${CONTINUATION}(?![\p{L}\d]))*)`;
const CITY_SIDE = String.raw`(?:City and County of San Francisco|City(?! and County)|Port|(?:San Francisco )?[\p{Lu}][\p{L} ]{0,60}?(?:Commission|Department|Agency|Authority))(?:\s*\([^)]*\))?(?:,(?!\s+the\s+\p{Lu})[^,;]{0,120},)?`;
/** The end of a clause that names parties: `for`, `to`, `under` … a purpose or term follows. */
const CLAUSE_END = String.raw`(?=;|$|\s+(?:for|to|under|in|as|at|on|with|by|pursuant)\s+(?!\p{Lu}))`;
/** A list of names ends at `against`, `for $…`, or a semicolon that a lower-case clause follows (`; the lawsuit …`). */
const LIST_END = String.raw`(?=\s+(?:against|for|by|in|v\.)\s|;\s+(?![\p{Lu}\d]|and\s)|;?$)`;

/**
 * The party rule table: triggers in the long title, group 1 being one name or (`list`) a list of names. Each row has an
 * example and the parties it gives (test/enrich.test.ts runs every one).
 */
export const PARTY_RULES: { pattern: RegExp; list: boolean | 'items'; example: string; parties: string[] }[] = [
  {
    pattern: new RegExp(
      String.raw`\b(?:[Aa]greement|[Cc]ontract|[Ll]ease|[Aa]mendment|[Ll]oan|[Ss]ettlement|[Ll]icense|[Gg]rant|[Mm]emorandum of [Uu]nderstanding)s?\b(?:[^;.]|(?<=\bNo)\.){0,120}?(?<!\btogether )\bwith\s+${NAME}`,
      'gu',
    ),
    // A list of people (`with Pradeep Gandhi and Gabriel Gonzalez`) is split; an organisation's `and` stays.
    list: true,
    example: 'to amend the booking agreement with the Sayana Corporation, operator of the Adante Hotel',
    parties: ['Sayana Corporation'],
  },
  {
    pattern: new RegExp(
      String.raw`\bbetween (?:the )?${CITY_SIDE}(?:\s+and\s+|,\s+(?=(?:the\s+)?\p{Lu}))([^;]{1,600}?)${CLAUSE_END}`,
      'gu',
    ),
    list: true,
    example:
      'a Development Agreement between the City and County of San Francisco and California Barrel Company, LLC, a Delaware limited liability company, for the Potrero Power Station project',
    parties: ['California Barrel Company, LLC'],
  },
  {
    pattern: new RegExp(
      String.raw`\bbetween\s+(?!the City\b)${NAME}(?:\s*\([^)]*\))?(?:,?\s+dba\s+[^,;]{1,60})?(?:,\s+as\s+\p{L}+)?,?\s+and\s+the (?:City|Port)\b`,
      'gu',
    ),
    list: false,
    // Its role may follow: `a lease between C & E Haas Development Company, LLC, as landlord, and the City`.
    example: 'Lease No. L-16159 between IDEO, LP, and the Port',
    parties: ['IDEO, LP'],
  },
  {
    // Several before the City: `between the Housing Authority of …, BRIDGE Potrero Community Associates, LLC, a
    // California limited liability company, and the City and County of San Francisco`.
    pattern: new RegExp(
      String.raw`\bbetween\s+(?!the City\b)(${NAME},\s+(?!${LEGAL_FORM}(?![\p{L}\d]))(?:the\s+)?${NAME})(?:,\s+an?\s+[^,;]{1,80})?,?\s+and\s+the (?:City|Port)\b`,
      'gu',
    ),
    list: true,
    example:
      'the Master Development Agreement between the Housing Authority of the City and County of San Francisco, Sunnydale Development Co., LLC, a California limited liability company and the City and County of San Francisco',
    parties: ['Housing Authority of the City and County of San Francisco', 'Sunnydale Development Co., LLC'],
  },
  {
    // The recipient of what the City donates: `to donate a retired pick-up truck to the San Francisco Firefighters Local 798`.
    pattern: new RegExp(String.raw`\bdonat(?:e|es|ing)\b[^;$]{0,80}?\s+to\s+${NAME}`, 'gu'),
    list: false,
    example:
      'authorizing the Fire Department to donate a retired pick-up truck to the San Francisco Firefighters Local 798',
    parties: ['San Francisco Firefighters Local 798'],
  },
  {
    // A party named by its role in the instrument: `Pomeroy Recreation and Rehabilitation Center, a California
    // not-for-profit corporation (Tenant)`, `Recreation Center For the Handicapped, Inc. (Original Tenant)’s lease`.
    pattern: new RegExp(
      String.raw`(?<![\p{L}\d])(?!(?:the\s+)?(?:Amendment|Restatement|Assignment|Extension|Lease|Agreement)\b)${NAME}(?:,\s+an?\s+[^,;()]{1,80})?\s+\([“"]?(?:Original\s+)?(?:Tenant|Landlord|Lessee|Lessor|Licensee|Licensor|Buyer|Seller|Developer|Grantee|Borrower|Contractor|Consultant)[”"]?\)`,
      'gu',
    ),
    list: false,
    example:
      'to name successor entity of Original Tenant - Pomeroy Recreation and Rehabilitation Center, a California not-for-profit corporation (Tenant); exercising the 25-year extension',
    parties: ['Pomeroy Recreation and Rehabilitation Center'],
  },
  {
    // A novation: the contract passes `from A to B`.
    pattern: new RegExp(String.raw`\bnovation\b[^;]{0,200}?\bfrom\s+(${NAME}\s+to\s+${NAME})`, 'gu'),
    list: 'items',
    example:
      'approving the novation of the San Francisco Public Utilities Commission (SFPUC) Agreement No. CS-169, for planning and engineering services for the Central Bayside System Improvement Project, from MWH Americas, Inc. to Stantec Consulting Services, Inc., and authorizing',
    parties: ['MWH Americas, Inc.', 'Stantec Consulting Services, Inc.'],
  },
  {
    // A coalition's member unions, after a colon, one per semicolon.
    pattern: new RegExp(String.raw`\bCoalition:\s+([^:]{1,2000}?)(?=,\s+to\s+\p{Ll}|\.?$)`, 'gu'),
    list: 'items',
    example:
      'Crafts Coalition: Bricklayers and Allied Crafts, Local 3; Hod Carriers, Local 166; Northern California Carpenters Regional Council, Local 22; Carpet, Linoleum and Soft Tile Workers, Local 12; Plasterers and Cement Masons, Local 300; Glaziers, Architectural Metal and Glass Workers, Local Union No. 718; International Alliance of the Theatrical Stage Employees, Moving Picture Technicians, Artist and Allied Crafts of the United States, Its Territories and Canada, Local 16; International Association of Bridges, Structural Ornamental, Reinforcing Iron Workers, Riggers and Machinery Movers, Local 377; Pile Drivers, Divers, Carpenters, Bridge, Wharf and Dock Builders, Local Union No. 34; Plasterers and Shophands, Local 66; United Union of Roofers, Waterproofers and Allied Workers, Local 40; Sheet Metal Workers International Union, Local 104; and Teamsters, Local 853, to implement base wage increases',
    parties: [
      'Bricklayers and Allied Crafts, Local 3',
      'Hod Carriers, Local 166',
      'Northern California Carpenters Regional Council, Local 22',
      'Carpet, Linoleum and Soft Tile Workers, Local 12',
      'Plasterers and Cement Masons, Local 300',
      'Glaziers, Architectural Metal and Glass Workers, Local Union No. 718',
      'International Alliance of the Theatrical Stage Employees, Moving Picture Technicians, Artist and Allied Crafts of the United States, Its Territories and Canada, Local 16',
      'International Association of Bridges, Structural Ornamental, Reinforcing Iron Workers, Riggers and Machinery Movers, Local 377',
      'Pile Drivers, Divers, Carpenters, Bridge, Wharf and Dock Builders, Local Union No. 34',
      'Plasterers and Shophands, Local 66',
      'United Union of Roofers, Waterproofers and Allied Workers, Local 40',
      'Sheet Metal Workers International Union, Local 104',
      'Teamsters, Local 853',
    ],
  },
  {
    // Who is paid what a settlement distributes: `to be distributed as follows: A $X, B $Y`.
    pattern: new RegExp(
      String.raw`\bdistributed as follows:\s+((?:[^;$]{1,80}?\s+\$[\d,.]+\d(?:,?\s+(?:and\s+)?|(?=;)))+)`,
      'gu',
    ),
    list: 'items',
    example:
      'distributed as follows: BHR Operations LLC $379,969.68, Hotel Nikko of San Francisco Inc. $201,741.40, Datam S.F. LLC $277,953.69, RP/Kinetic Parc 55 Owner, LLC $25,601.63, S.F. Hilton LLC $447,301.52, W2005 Argent Hotel Realty LLC $42,857.19, British Airways Plc $163,369.38, Cathay Pacific Airways Ltd $74,760.25; the lawsuits were filed',
    parties: [
      'BHR Operations LLC',
      'Hotel Nikko of San Francisco Inc.',
      'Datam S.F. LLC',
      'RP/Kinetic Parc 55 Owner, LLC',
      'S.F. Hilton LLC',
      'W2005 Argent Hotel Realty LLC',
      'British Airways Plc',
      'Cathay Pacific Airways Ltd',
    ],
  },
  {
    // Several grantors, each with its sum: `grants in the amounts of $100,000 from A, $100,000 from B, and $200,000 from C`.
    pattern: new RegExp(
      String.raw`\bgrants in the amounts of\s+((?:\$[\d,.]+\s+from\s+[^$;]{1,120}?,?\s+(?:and\s+)?)+)(?=for|to)`,
      'gu',
    ),
    list: 'items',
    example:
      'to accept and expend grants in the amounts of $100,000 from the Water Research Foundation, $100,000 from the Water Environment and Reuse Foundation, and $200,000 from the U.S. Bureau of Reclamation for a total of $400,000',
    parties: ['Water Research Foundation', 'Water Environment and Reuse Foundation', 'U.S. Bureau of Reclamation'],
  },
  {
    // Who is granted permission to occupy a street: `granting revocable permission to X, to occupy`.
    pattern: new RegExp(String.raw`\bgranting (?:revocable )?permission to\s+${NAME}`, 'gu'),
    list: false,
    example:
      'Resolution granting revocable permission to 45 Lansing Development, LLC, to occupy and maintain the Lansing Street Shared Public Way',
    parties: ['45 Lansing Development, LLC'],
  },
  {
    // A newspaper the City designates: `designating X to be the outreach periodical …; Y, doing business as Z, to be …`.
    pattern: new RegExp(
      String.raw`(?:\bdesignating|;\s+(?:and\s+)?)\s*${NAME}(?:,?\s+(?:doing business as|dba)\s+[^,;]{1,60}?,?)?\s+to be the (?:[\w-]+\s+){0,4}?(?:periodical|newspaper)\b`,
      'gu',
    ),
    list: false,
    example:
      'Resolution designating Small Business Exchange to be the outreach periodical of the City and County of San Francisco for the African American community; San Francisco Print Media Co., doing business as SF Weekly, to be the outreach periodical',
    parties: ['Small Business Exchange', 'San Francisco Print Media Co.'],
  },
  {
    // A historical property (Mills Act) contract with the owners of a building.
    pattern: new RegExp(
      String.raw`\bbetween\s+(?!the City\b)([^;]{1,200}?),\s+the owners? of\b[^;]{1,80}?,\s+and\s+the City\b`,
      'gu',
    ),
    list: true,
    example:
      'historical property contract between Christopher J. Ludwig and Liesl Ludwig, the owners of 361 Oak Street, and the City and County of San Francisco',
    parties: ['Christopher J. Ludwig', 'Liesl Ludwig'],
  },
  {
    pattern: new RegExp(String.raw`\bfiled by\s+(?!the City\b)([^]{1,2000}?)${LIST_END}`, 'gu'),
    list: true,
    example:
      'settlement of the lawsuit filed by Tatiana Umnov and Anatoly Umnov against the City and County of San Francisco for $450,000',
    parties: ['Tatiana Umnov', 'Anatoly Umnov'],
  },
  {
    pattern: new RegExp(
      String.raw`\bfiled by the City and County of San Francisco\b[^;]{0,120}?\bagainst\s+([^]{1,2000}?)${LIST_END}`,
      'gu',
    ),
    list: true,
    example:
      'the lawsuit filed by the City and County of San Francisco and the People of the State of California against Walgreen Co. for $229,610,002',
    parties: ['Walgreen Co.'],
  },
  {
    // A payer of a settlement: `payment of $X by Y`, `payment of $X to Plaintiff from Y`.
    pattern: new RegExp(String.raw`\bpayment of \$[\d,.]+ (?:by|(?:to [^;$]{1,40}?\s+)?from)\s+${NAME}`, 'gu'),
    list: false,
    example: 'for payment of $913,970 by U.S. Pipe & Foundry Company to the City',
    parties: ['U.S. Pipe & Foundry Company'],
  },
  {
    // Another who pays under a settlement's terms: `Co-Defendant X will pay plaintiff $Y`, `X to pay $Y`.
    pattern: new RegExp(
      String.raw`(?<=\bsettlement\b[^]*)(?<![\p{L}\d$,.'’-])(?:Co-?[Dd]efendants?\s+)?${NAME},?\s+(?:will|shall|to|agrees? to)\s+pay\b`,
      'gu',
    ),
    list: false,
    example:
      'other material terms of the settlement are Co-Defendant Impark Pacific Parking, LLC will pay plaintiff $75,000',
    parties: ['Impark Pacific Parking, LLC'],
  },
  {
    pattern: new RegExp(String.raw`\bloan\s+(?:to|from)\s+${NAME}`, 'gu'),
    list: false,
    example: 'a loan to Mercy Housing California, L.P. in an amount not to exceed $5,000,000',
    parties: ['Mercy Housing California, L.P.'],
  },
  {
    // The grantor after `from`; a bare parent first (`the Department of Health and Human Services, Centers for …`) is
    // passed, as a `Department of …` alone reads as the City's.
    pattern: new RegExp(
      String.raw`\baccept(?:ing)?,? and expend\b[^;]{0,200}?\bfrom\s+(?:the\s+)?(?:State of California,\s+|Department of [^,;$]{1,60},\s+(?:the\s+)?)?${NAME}`,
      'gu',
    ),
    list: false,
    example:
      'to accept and expend a grant in the amount of $2,050,000 from the State of California, Board of State and Community Corrections, to fund',
    parties: ['Board of State and Community Corrections'],
  },
  {
    // The grantor before `grant(s)`, one or several, its program after a comma: `two X, Brownfield Cleanup … grants`.
    pattern: new RegExp(
      String.raw`\baccept(?:ing)? and expend (?:a|an|the|two|three|four)\s+${NAME}(?:,\s+[^,;$]{1,80}?)?\s+grants?\b`,
      'gu',
    ),
    list: false,
    example:
      'to accept and expend a Federal Emergency Management Agency grant administered through the California Governor',
    parties: ['Federal Emergency Management Agency'],
  },
  {
    // A grantor named by its program: `through Metropolitan Transportation Commission’s Safe Routes to School Grant Program`.
    pattern: new RegExp(
      String.raw`\baccept(?:ing)?,? and expend\b[^;]{0,240}?\b(?:from|through)\s+${NAME}['’]s\s+(?:(?:[\p{Lu}\d]\S*|to|of|and|&)\s+){1,10}Program\b`,
      'gu',
    ),
    list: false,
    example:
      'to accept and expend a grant in the amount of $360,000 in Federal Surface Transportation Program and/or Congestion Mitigation and Air Quality Improvements Funds through Metropolitan Transportation Commission’s Safe Routes to School Grant Program',
    parties: ['Metropolitan Transportation Commission'],
  },
  {
    // The grantor of a grant's expenditure plan: `the … Program Expenditure Plan from the United States Department of …`.
    pattern: new RegExp(String.raw`\bExpenditure (?:Plan|Schedule)\s+from\s+${NAME}`, 'gu'),
    list: false,
    example:
      'amending the CARES Act Housing Opportunities for Persons with AIDS Coronavirus (HOPWA-CV) Program Expenditure Plan from the United States Department of Housing and Urban Development to expend the amount of $118,179',
    parties: ['United States Department of Housing and Urban Development'],
  },
  {
    // Who receives real property the City conveys: `the conveyance of real property by the City and County of San Francisco to X`.
    pattern: new RegExp(
      String.raw`\bconveyance\b[^;]{0,40}?\bby the City and County of San Francisco\b(?:,[^;]{0,120}?,)?\s+to\s+${NAME}`,
      'gu',
    ),
    list: false,
    example:
      'a Quitclaim Deed for the conveyance of real property by the City and County of San Francisco to the City of Sunnyvale, commonly known as a portion of Manzano Way',
    parties: ['City of Sunnyvale'],
  },
  {
    // Who receives an easement: `to grant the Midpeninsula Regional Open Space District a permanent … easement`.
    pattern: new RegExp(String.raw`\bto grant\s+${NAME}\s+an?\s+[^;$]{0,80}?\beasement\b`, 'gu'),
    list: false,
    example:
      'to grant the Midpeninsula Regional Open Space District a permanent, non-exclusive public trail easement in exchange',
    parties: ['Midpeninsula Regional Open Space District'],
  },
  {
    // The holder of a permit the ordinance grants: `a major encroachment permit for X (“Permittee”)`.
    pattern: new RegExp(String.raw`\bpermit for\s+${NAME}\s*\([“"]?Permittee\b`, 'gu'),
    list: false,
    example: 'approving a major encroachment permit for Laurel Heights Partners, LLC (“Permittee”) to occupy portions',
    parties: ['Laurel Heights Partners, LLC'],
  },
  {
    pattern: new RegExp(String.raw`\bgrants?\s+to\s+${NAME}`, 'gu'),
    list: false,
    example: 'to award a one-time grant to Planned Parenthood Northern California (“Planned Parenthood NC”)',
    parties: ['Planned Parenthood Northern California'],
  },
  {
    // The buyer of what the City sells: `the sale of electricity-related products to A and B for a term …`.
    pattern: new RegExp(String.raw`\bsale of\s+[^;,$]{1,80}?\s+to\s+(\p{Lu}[^;]{1,300}?)${CLAUSE_END}`, 'gu'),
    list: true,
    example:
      'the sale of electricity-related products to Pacific Gas & Electric Company and Southern California Edison Company for a term',
    parties: ['Pacific Gas & Electric Company', 'Southern California Edison Company'],
  },
  {
    pattern: new RegExp(String.raw`\b(?:procure|purchase|acquire|buy)\b[^;]{0,120}?\bfrom\s+${NAME}`, 'gu'),
    list: false,
    example: 'to procure up to 14 used compressed natural gas transit buses from the City of Phoenix, which owns',
    parties: ['City of Phoenix'],
  },
];
/** Heading types whose second part names the other party (`Partial Settlement of Lawsuit`, `Lease of Real Property`, `Real Property Lease Extension`). */
const PARTY_HEADING =
  /^(?:Accept and Expend (?:In-Kind )?Gifts?|(?:[\p{Lu}][\p{L}-]* )*(?:Agreements?|Contracts?|Leases?|Licenses?|Loans?|Memorandum of Understanding|(?:Lease|License) of (?:Real|City) Property|Settlement of (?:Lawsuits?|Unlitigated Claims?|Claims?))(?: Amendments?| Extensions?)?)$/u;
/** The City itself, its departments and commissions, a possessive (`City’s`), a program or project: not parties. */
const NOT_A_PARTY =
  /^(?:(?:City (?:and )?)?County of San Francisco|City of San Francisco|San Francisco|General Plan|General Manager|(?:Department|Office) of\b.*|San Francisco\b.*\b(?:Commission|Department|Agency))$|\b(?:City|Mayor|Department|Board)['’]s\b|['’]s$|\b(?:Program|Project|System|Proposition|Code|Plan|Bonds|Act)$/i;
/** A grantor's name followed by `grant program` names the program, not the grantor. */
const PROGRAM_AFTER = /^\s*(?:\([^)]*\)\s*)?(?:grant\s+)?program\b/i;
/** A class of parties, not one: `Investor Owned Utilities`, `Related Entities`. */
const GENERIC =
  /\b(?:Utilities|Entities|Affiliates|Contractors|Organizations|Agencies|Providers|Plaintiffs|Defendants|Parties|Purchasers|Owners|Others)$/;
/** A date ends a clause, never a name: `… the Clerk on January 10, 2017`. */
const DATE = /\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d/;
/** Words of an organisation's name: `Pacific Gas and Electric Company` is one party, `Tatiana Umnov and Anatoly Umnov` two. */
const ORGANISATION =
  /\b(?:Company|Corporation|Association|Union|Industry|Engineers|Services|Group|Trust|Bank|Foundation|Partners|Enterprises|Authority|Agency|Department|Commission|Council|Electric|Insurance|Holdings|Properties|Construction|Management|Systems|Society|Institute|Center|Fund|Committee|Coalition|Board)\b/;
const ENDS_ORGANISATION = new RegExp(`${ORGANISATION.source}$`);
/** What a heading's short form of a name may leave off: `Fireman’s Fund Insurance` for `… Insurance Company`. */
const ORGANISATION_TAIL = new RegExp(
  String.raw`^,?\s+(?:${ORGANISATION.source}|${LEGAL_FORM})(?:,?\s+${LEGAL_FORM})*$`,
);
/** Whether `name` is the heading's short form `short` plus an organisation word or legal form. */
const shortens = (short: string, name: string) =>
  name.startsWith(short) && ORGANISATION_TAIL.test(name.slice(short.length));
/** A one-word name written in camel case or capitals (`WestEd`, `IDEO`): a brand, never an office. */
const BRAND = /^(?:\p{Lu}\p{Ll}+\p{Lu}[\p{L}]*|\p{Lu}{3,})$/u;
const SEPARATOR = /\s*;\s*(?:and\s+)?|,\s+(?:and\s+)?|\s+(?:and|AND)\s+(?:by\s+)?|\//g;
const IS_CONTINUATION = new RegExp(String.raw`^${CONTINUATION}$`);
const ENDS_CONTINUATION = new RegExp(String.raw`${CONTINUATION}$`);
/** A full stop that belongs to the name: a legal form's, an initial's, `Jr.`, `Co.`. */
const NAME_STOP = new RegExp(String.raw`(?:\s|,)${CONTINUATION}$|\b[A-Z]\.$|\b(?:Jr|Sr|Co)\.$`);
// Words one at a time: `on` of `on the` (`Tastes on the Fly San Francisco, LLC`), or alone (`Institute on Aging`).
const NAME_WORD = new RegExp(String.raw`^(?:${WORD}|${CONNECT}|${INNER}|on|y),?$`, 'u');

/**
 * A list of parties → its names, each a literal part of the list, up to the first description. A separator inside a name stays: before
 * a legal form (`, Inc.`), after a lone word (`In and Out`, `F/V`), and an `and` inside an organisation's name.
 */
function splitNames(list: string): string[] {
  // Parentheticals (`f/k/a …`, one cut off by the list's end) end a name.
  const text = list
    .replace(/:\s[\s\S]*$/, '')
    .replace(/[\s,;:]+$/, '')
    .replace(/\s*\([^()]*(?:\)|$)/g, (m) => '\0'.repeat(m.length));
  const parts: { from: number; to: number; sep: string }[] = [];
  let from = 0;
  let sep = '';
  for (const m of text.matchAll(SEPARATOR)) {
    parts.push({ from, to: m.index, sep });
    from = m.index + m[0].length;
    sep = m[0];
  }
  parts.push({ from, to: text.length, sep });
  const piece = (p: { from: number; to: number }) => text.slice(p.from, p.to).replace(/\0+/g, '').trim();
  const lone = (s: string) => !/\s/.test(s);
  const joined: typeof parts = [];
  for (const p of parts) {
    const prev = joined[joined.length - 1];
    const [left, right] = [prev ? piece(prev) : '', piece(p)];
    const and = /^\s+and\s/i.test(p.sep);
    const keep =
      prev &&
      (IS_CONTINUATION.test(right) ||
        /^(?:dba|d\/b\/a)\s/i.test(right) ||
        (lone(left) && !IS_CONTINUATION.test(left)) ||
        (lone(right) && /^[A-Z]{2,}/.test(right)) ||
        (and &&
          !ENDS_CONTINUATION.test(left) &&
          (ORGANISATION.test(left) || ORGANISATION.test(right)) &&
          !(ENDS_ORGANISATION.test(left) && (ENDS_ORGANISATION.test(right) || ENDS_CONTINUATION.test(right)))));
    if (keep) prev.to = p.to;
    else joined.push({ ...p });
  }
  const names = joined.map((p) =>
    text
      .slice(p.from, p.to)
      .replace(/\0[\s\S]*$/, '')
      .trim(),
  );
  // The names come first; a description (`a Delaware limited liability company, for …`) ends the list.
  const end = names.findIndex((n) => !/^(?:(?:the|by)\s+)?[\p{Lu}\d]/u.test(n));
  return end < 0 ? names : names.slice(0, end);
}

/** A union's local, where its name ends: `Local 21`, `Local Union No. 718`, `Local 250-A`. */
const UNION_LOCAL = String.raw`\bLocal(?: Union)?(?: No\.)? \d+(?:-[A-Z])?`;
const AFTER_UNION_LOCAL = new RegExp(`(${UNION_LOCAL}),[\\s\\S]*$`);
const ENDS_UNION_LOCAL = new RegExp(`${UNION_LOCAL}$`);

/** A list whose names end at semicolons, at sums (`A $1, B $2`, `$1 from A, and $2 from B`) or at `to`: its names. */
function splitItems(list: string): string[] {
  return list
    .split(/\s*(?:;|,?\s*(?:and\s+)?\$[\d,.]*\d(?:\s+from\b)?,?|\s+to\s+(?=\p{Lu}))\s*(?:and\s+)?/u)
    .map((n) => n.trim())
    .filter(Boolean);
}

/** A candidate cleaned to the name as printed (no `the`, `Plaintiffs`, `et al.`, trailing comma), or null if it is not a name. */
function cleanName(raw: string, brand = false): string | null {
  const name = raw
    .replace(/(\p{Ll}{3,})\.\s[\s\S]*$/u, '$1') // a sentence ended inside the match (`United States Navy. Copy …`)
    .replace(/,?\s+(?:dba|d\/b\/a|doing business as)\s[\s\S]*$/i, '') // an alias is not another party
    .replace(/,?\s+et\.? al\.?,?$/i, '')
    .replace(/^(?:the|by|Plaintiffs?|Mr\.|Ms\.|Mrs\.|Dr\.)\s+/i, '')
    .replace(/,?\s+Unit \d+$/, '')
    .replace(AFTER_UNION_LOCAL, '$1') // a union's name ends at its local
    .replace(/[,;:]$/, '')
    .replace(/\.$/, (c) => (NAME_STOP.test(raw.replace(/[,;:]$/, '')) ? c : ''))
    .trim();
  const words = name.split(/\s+/);
  // A union's name may run long (`International Alliance of … and Canada, Local 16`); it ends at its local.
  const most = ENDS_UNION_LOCAL.test(name) ? 28 : 12;
  if (!/^[\p{Lu}\d]/u.test(name) || words.length > most || words.some((w) => !NAME_WORD.test(w))) return null;
  // A lone word (`Clerk`, `Trustee`, `Caltrans`) is too often an office, not a party; legal forms make it a name (`JobAps, Inc.`).
  const lone = !/\s/.test(name) && !/,/.test(name) && !(brand && BRAND.test(name));
  if (NOT_A_PARTY.test(name) || /^\d+$/.test(name) || lone) return null;
  if (GENERIC.test(name) || ADDRESS_ONLY.test(name) || DATE.test(name)) return null;
  return name;
}

function parties(title: string, longTitle: string): string[] {
  const segments = title.split(/\s+-\s+/);
  // The heading's party, when the long title prints it too (a heading's second part may name a project instead).
  const named = segments[segments[1] === 'Retroactive' ? 2 : 1] ?? '';
  const printed = (name: string) => longTitle === '' || partyKey(longTitle).includes(partyKey(name));
  const lawsuit = /\bSettlement\b/.test(segments[0]);
  const fromHeading = (
    PARTY_HEADING.test(segments[0]) ? (lawsuit ? splitNames(named) : [named.replace(/\s*\(.*$/, '')]) : []
  )
    .filter(printed)
    .map((n) => cleanName(n, true))
    .filter((n) => n !== null);
  const headingNames = [...segments.slice(1), ...fromHeading].sort((a, b) => b.length - a.length);
  const found: string[] = [...fromHeading];
  for (const rule of PARTY_RULES) {
    for (const m of longTitle.matchAll(rule.pattern)) {
      if (PROGRAM_AFTER.test(longTitle.slice(m.index + m[0].length))) continue;
      // A code, program or plan named with `and` (`California Business and Professions Code`) is not a list of names.
      if (rule.list && NOT_A_PARTY.test(m[1].trim())) continue;
      const names = rule.list === 'items' ? splitItems(m[1]) : rule.list ? splitNames(m[1]) : [m[1]];
      for (let raw of names.map((n) => n.replace(/^the\s+/, ''))) {
        // The heading's short form bounds a longer printed one: `Board of State and Community Corrections Organized Retail Theft Grant Program`.
        const bound = headingNames.find(
          (h) => (raw.startsWith(h + ' ') || raw.startsWith(h + ',')) && !shortens(h, raw) && cleanName(h),
        );
        if (bound) raw = bound;
        // A possessive cut short of the heading's name (`Bay Area Air Quality Management’s … Program`, the heading's `… District`).
        const possessive = longTitle.includes(raw + '’s') || longTitle.includes(raw + "'s");
        const longer = possessive && segments.slice(1).find((h) => h.startsWith(raw + ' ') && cleanName(h));
        if (longer) raw = longer;
        // The heading's party printed with its parent first (`United States Department of Energy Western Area Power
        // Administration`), or a part of the heading's party (`Committee of Interns and Residents`), is that party.
        const within = (h: string) =>
          raw.endsWith(' ' + h) || (partyKey(h) !== partyKey(raw) && ` ${partyKey(h)} `.includes(` ${partyKey(raw)} `));
        // The heading's short form gives way to the printed name it shortens.
        const shortened = found.findIndex((h) => fromHeading.includes(h) && shortens(h, raw));
        if (shortened >= 0) found[shortened] = raw;
        else if (!fromHeading.some(within)) found.push(raw);
      }
    }
  }
  // A memorandum's heading names the bargaining unit after the union: a unit, not a party.
  const units = /^Memorandum of Understanding$/.test(segments[0])
    ? new Set(segments.slice(2).map((u) => partyKey(u.replace(/\s*\(.*$/, ''))))
    : new Set<string>();
  const out = new Map<string, string>();
  for (const raw of found) {
    if (units.has(partyKey(raw))) continue;
    const name = cleanName(raw, fromHeading.includes(raw));
    if (name && !out.has(partyKey(name))) out.set(partyKey(name), name);
  }
  return [...out.values()];
}

export function extractEntities(
  title: string,
  longTitle: string,
): { extracted: Extracted; unitMentions: UnitMention[] } {
  const [h, t] = [squash(title), squash(longTitle)];
  const unitMentions = units(squash(`${h} ${t}`));
  return {
    extracted: {
      amounts: amounts(h, t),
      housingUnits: [...new Set(unitMentions.map((u) => u.units))],
      addresses: [...new Set([...addresses(h), ...addresses(t)])],
      parties: parties(h, t),
    },
    unitMentions,
  };
}
