// Real inputs of the generator: the roster by date (reference/supervisors.tsv) and the 2023 Legistar export
// (titles, sponsors, action histories), plus small word lists for the invented parts.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED = resolve(process.env.SHARED || join(import.meta.dirname, '../../../shared'));

export interface Member {
  surname: string;
  fullName: string;
  district: number;
  start: string;
  end: string | null;
}

export interface Roster {
  members: Member[];
  /** Presidencies, `[start, end)` as ISO dates. */
  presidents: { surname: string; start: string; end: string | null }[];
}

/** Terms change hands early in the month: `2017-01` becomes `2017-01-08`. */
const monthStart = (ym: string, day = 8) => `${ym}-${String(day).padStart(2, '0')}`;

export function loadRoster(path = join(SHARED, 'reference/supervisors.tsv')): Roster {
  const rows = readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(1)
    .map((l) => l.split('\t'));
  const members: Member[] = [];
  const presidents: Roster['presidents'] = [];
  // Per district, in file order: a member serves until the next one starts (or their own `to`, if earlier).
  // Two starts in the same month (an appointee who resigned within weeks) are spread two weeks apart.
  const byDistrict = new Map<number, string[][]>();
  for (const r of rows) byDistrict.set(Number(r[2]), [...(byDistrict.get(Number(r[2])) ?? []), r]);
  for (const list of byDistrict.values()) {
    list.sort((a, b) => a[3].localeCompare(b[3]));
    const starts = list.map((r, i) => monthStart(r[3], 8 + 14 * list.slice(0, i).filter((o) => o[3] === r[3]).length));
    list.forEach((r, i) => {
      const next = starts[i + 1] ?? null;
      const own = r[4] && r[4] !== r[3] ? monthStart(r[4]) : null;
      const end = own && next ? (own < next ? own : next) : (own ?? next);
      members.push({ surname: r[0], fullName: r[1], district: Number(r[2]), start: starts[i], end });
    });
  }
  for (const r of rows) {
    const m = /President (\d{4}-\d{2})\.\.(\d{4}-\d{2})?/.exec(r[5] ?? '');
    if (m) presidents.push({ surname: r[0], start: monthStart(m[1]), end: m[2] ? monthStart(m[2]) : null });
  }
  return { members, presidents };
}

const serving = (d: string, start: string, end: string | null) => start <= d && (end === null || d < end);

/** Members seated on an ISO date, sorted by surname as roll calls print them. */
export function rosterOn(roster: Roster, date: string): Member[] {
  return roster.members
    .filter((m) => serving(date, m.start, m.end))
    .sort((a, b) => a.surname.localeCompare(b.surname) || a.district - b.district);
}

export function presidentOn(roster: Roster, date: string): Member | null {
  const p = roster.presidents.find((x) => serving(date, x.start, x.end));
  return p ? (rosterOn(roster, date).find((m) => m.surname === p.surname) ?? null) : null;
}

export function mayorOn(date: string): string {
  if (date < '2017-12-12') return 'Lee';
  if (date < '2018-07-11') return 'Farrell';
  if (date < '2025-01-08') return 'Breed';
  return 'Lurie';
}

/** Minimal RFC 4180 reader (quoted fields, doubled quotes, embedded commas and newlines). */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [head, ...body] = rows.filter((r) => r.length > 1);
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

export interface Template {
  /** Bracketed short title (Legistar `name`). */
  name: string;
  title: string;
  /** Count of sponsors on the real file (`Mayor` kept as such). */
  sponsorCount: number;
  mayorSponsor: boolean;
  /** Committee that recommended it, as printed in 2023 (renamed by year when rendered). */
  committee: string;
  /** Board actions in order, from the real history (`PASSED ON FIRST READING`, `FINALLY PASSED`, …). */
  boardActions: string[];
  amended: boolean;
  committeeReport: boolean;
  killed: boolean;
}

export function loadTemplates(dir = join(SHARED, 'corpus/legistar')): Template[] {
  const legislation = parseCsv(readFileSync(join(dir, 'legislation_2023.csv'), 'utf8'));
  const history = parseCsv(readFileSync(join(dir, 'history_2023.csv'), 'utf8'));
  const byFile = new Map<string, Record<string, string>[]>();
  for (const h of history) byFile.set(h.file_number, [...(byFile.get(h.file_number) ?? []), h]);
  return legislation
    .filter((l) => l.name && l.title)
    .map((l) => {
      // History rows are newest first.
      const rows = (byFile.get(l.file_number) ?? []).slice().reverse();
      const recommending = rows.find((r) => /Committee$/.test(r.action_by) && /^RECOMMENDED/.test(r.action));
      const sponsors = l.sponsors
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return {
        name: l.name,
        title: l.title,
        sponsorCount: sponsors.length,
        mayorSponsor: sponsors[0] === 'Mayor',
        committee:
          recommending?.action_by ?? rows.find((r) => /Committee$/.test(r.action_by))?.action_by ?? 'Rules Committee',
        boardActions: rows.filter((r) => r.action_by === 'Board of Supervisors').map((r) => r.action),
        amended: rows.some((r) => /AMENDED/.test(r.action)),
        committeeReport: rows.some((r) => /COMMITTEE REPORT/.test(r.action)),
        killed: /Killed|Filed/.test(l.status),
      };
    });
}

// Word lists for invented parts (speakers, addresses, parties). Invented, not real people.
export const FIRST_NAMES = [
  'Maria',
  'James',
  'Linda',
  'Robert',
  'Patricia',
  'Michael',
  'Jennifer',
  'David',
  'Elizabeth',
  'William',
  'Susan',
  'Richard',
  'Karen',
  'Joseph',
  'Nancy',
  'Thomas',
  'Lisa',
  'Daniel',
  'Betty',
  'Paul',
  'Sandra',
  'Mark',
  'Ashley',
  'Steven',
  'Kimberly',
  'Andrew',
  'Donna',
  'Kevin',
  'Michelle',
  'Brian',
  'Carol',
  'George',
  'Amanda',
  'Edward',
  'Melissa',
  'Ronald',
  'Deborah',
  'Anthony',
  'Stephanie',
  'Jason',
  'Rebecca',
  'Ryan',
  'Laura',
  'Jacob',
  'Helen',
  'Gary',
  'Sharon',
  'Eric',
  'Cynthia',
  'Jonathan',
  'Kathleen',
  'Larry',
  'Amy',
  'Frank',
  'Angela',
  'Scott',
  'Shirley',
  'Justin',
  'Anna',
  'Brandon',
  'Ruth',
  'Raymond',
  'Brenda',
  'Gregory',
  'Pamela',
  'Samuel',
  'Nicole',
  'Benjamin',
  'Katherine',
  'Patrick',
  'Virginia',
  'Jack',
  'Catherine',
  'Dennis',
  'Christine',
  'Jerry',
  'Samantha',
  'Tyler',
  'Debra',
  'Aaron',
  'Janet',
  'Jose',
  'Carolyn',
  'Adam',
  'Rachel',
  'Henry',
  'Heather',
  'Nathan',
  'Maria',
  'Douglas',
  'Diane',
  'Zachary',
  'Julie',
  'Peter',
  'Joyce',
  'Kyle',
  'Victoria',
  'Wei',
  'Mei',
  'Jun',
  'Hui',
  'Ana',
  'Luis',
  'Carmen',
  'Jorge',
  'Rosa',
  'Miguel',
  'Thi',
  'Minh',
  'Olga',
  'Tomas',
];
export const LAST_NAMES = [
  'Alvarez',
  'Bennett',
  'Castillo',
  'Dunn',
  'Espinoza',
  'Fong',
  'Garcia',
  'Hayes',
  'Ibarra',
  'Jensen',
  'Kwan',
  'Lopez',
  'Morales',
  'Nakamura',
  'Ortiz',
  'Park',
  'Quinn',
  'Rivera',
  'Santos',
  'Tran',
  'Underwood',
  'Vargas',
  'Whitfield',
  'Xu',
  'Yamamoto',
  'Zamora',
  'Abbott',
  'Baldwin',
  'Chavez',
  'Delgado',
  'Ellison',
  'Fischer',
  'Gutierrez',
  'Holloway',
  'Ingram',
  'Jimenez',
  'Kowalski',
  'Lindqvist',
  'McCarthy',
  'Nguyen',
  "O'Brien",
  'Patel',
  'Ramirez',
  'Sullivan',
  'Takahashi',
  'Uribe',
  'Villanueva',
  'Wong',
  'Yoshida',
  'Zhang',
  'Brennan',
  'Cortez',
  'Donovan',
  'Estrada',
  'Fuentes',
  'Gallagher',
  'Huang',
  'Liang',
  'Medina',
  'Navarro',
  'Okafor',
  'Pham',
  'Rosen',
  'Schwartz',
  'Torres',
  'Valdez',
  'Walsh',
  'Young',
  'Lee',
  'Chen',
  'Lam',
  'Leung',
  'Reyes',
  'Cruz',
];
export const STREETS = [
  'Mission Street',
  'Market Street',
  'Valencia Street',
  'Folsom Street',
  'Howard Street',
  'Geary Boulevard',
  'Van Ness Avenue',
  'Divisadero Street',
  'Irving Street',
  'Taraval Street',
  'Ocean Avenue',
  'Third Street',
  'Fillmore Street',
  'Haight Street',
  'Castro Street',
  'Columbus Avenue',
  'Stockton Street',
  'Clement Street',
  'Noriega Street',
  'Judah Street',
  'San Bruno Avenue',
  'Bayshore Boulevard',
  'Potrero Avenue',
  'Bryant Street',
  'Harrison Street',
  'Polk Street',
  'Larkin Street',
  'Hyde Street',
  'Sutter Street',
  'Bush Street',
  'Pine Street',
  'California Street',
  'Sacramento Street',
  'Clay Street',
  'Jackson Street',
  'Pacific Avenue',
  'Broadway',
  'Vallejo Street',
  'Green Street',
  'Union Street',
  'Chestnut Street',
  'Lombard Street',
  'Alemany Boulevard',
  'Mission Bay Boulevard',
  'Cesar Chavez Street',
  'Army Street',
  'Evans Avenue',
  'Jerrold Avenue',
  'Leland Avenue',
  'Sloat Boulevard',
];
export const TOPICS = [
  'housing affordability',
  'homelessness and shelter access',
  'public transit service',
  'street safety and traffic',
  'police accountability',
  'rent control and evictions',
  'small business permits',
  'the San Francisco Public Library',
  'park maintenance',
  'public health services',
  'the city budget',
  'development projects in the neighborhood',
  'tenant protections',
  'the oppression of the Falun Gong',
  'taxi driver issues',
  'public banking',
  'the accessibility of the public microphone',
  'noise from construction',
  'the Muni fare increase',
  'street cleaning',
  'vacant storefronts',
  'the shelter-in-place order',
  'wildfire smoke and air quality',
  'senior services',
  'youth programs',
  'water rates',
  'the Central Subway',
  'short-term rentals',
  'cannabis retail permits',
  'the proposed navigation center',
];
export const COMPANIES = [
  'Bayview Builders, Inc.',
  'Golden Gate Transit Partners, LLC',
  'Pacific Gas and Electric Company',
  'Harbor Technology Services',
  'Mission Community Housing Corporation',
  'Sunset Maintenance Group',
  'Civic Center Consulting, LLP',
  'Tenderloin Neighborhood Development Corporation',
  'Western Analytics, Inc.',
  'Presidio Software Corporation',
  'Embarcadero Security Services',
  'North Beach Environmental, Inc.',
  'Twin Peaks Engineering',
  'Bay Area Health Collaborative',
  'Excelsior Family Services',
];
export const AGENCIES = [
  'Department of Public Health',
  'Municipal Transportation Agency',
  'Public Utilities Commission',
  'Recreation and Park Department',
  'Department of Homelessness and Supportive Housing',
  'Mayor’s Office of Housing and Community Development',
  'Fire Department',
  'Police Department',
  'Department of the Environment',
  'Airport Commission',
  'Port Commission',
  'Human Services Agency',
  'San Francisco Public Library',
  'Department of Emergency Management',
  'Office of Economic and Workforce Development',
];
export const BODIES = [
  'Youth Commission',
  'Reentry Council',
  'Sunshine Ordinance Task Force',
  'Bicycle Advisory Committee',
  'Food Security Task Force',
  'Citizens’ General Obligation Bond Oversight Committee',
  'Child Care Planning and Advisory Council',
  'Veterans Affairs Commission',
  'Small Business Commission',
  'Assessment Appeals Board',
  'Mental Health Board',
  'Public Utilities Rate Fairness Board',
];
