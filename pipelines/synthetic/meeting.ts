// One synthetic meeting as data: the agenda and the minutes are both rendered from it.
// Every legislative file is a pure function of (seed, file number, roster), so a file passed on first reading at
// one meeting comes back, same title and sponsors, for final passage at the next.
import {
  AGENCIES,
  BODIES,
  COMPANIES,
  FIRST_NAMES,
  LAST_NAMES,
  mayorOn,
  type Member,
  presidentOn,
  type Roster,
  rosterOn,
  STREETS,
  type Template,
  TOPICS,
} from './data.ts';
import { Rng } from './rng.ts';
import { addDays, andList, longDate, money, paddedDate, shiftYears, shortDate } from './text.ts';

export interface Vote {
  ayes: string[];
  noes: string[];
  excused: string[];
  absent: string[];
}

export interface Motion {
  text: string;
  vote: Vote;
}

export interface Speaker {
  name: string;
  statement: string;
}

export interface Item {
  file: string;
  name: string;
  sponsors: string;
  type: 'Ordinance' | 'Resolution' | 'Motion' | 'Hearing';
  title: string;
  fiscal: boolean;
  /** Lines printed before the action (co-sponsor requests, privilege of the floor). */
  notes: string[];
  motions: Motion[];
  /** Minutes action line (`FINALLY PASSED`), and its own vote, or null when the section's shared vote applies. */
  action: string;
  vote: Vote | null;
  /** Lines printed after the vote (a rescission and its re-referral). */
  after: Motion[];
  afterNote: string | null;
  enactment: string | null;
  /** Agenda status lines, `11/01/2016; PASSED, ON FIRST READING.` */
  history: string[];
  question: string;
  speakers: Speaker[];
}

export interface Group {
  heading: string | null;
  present: string[];
  items: Item[];
}

export interface Section {
  title: string;
  groups: Group[];
  sharedVote: Vote | null;
  note: string | null;
}

export interface Committee {
  name: string;
  members: string[];
  days: string;
  time: string;
}

export interface Meeting {
  date: string;
  year: number;
  members: Member[];
  president: Member | null;
  absent: string[];
  mayor: string;
  draft: boolean;
  committees: Committee[];
  minutesApproved: string;
  approvalMotion: Motion;
  sections: Section[];
  hearings: Item[];
  committeeReports: Item[];
  speakers: Speaker[];
  adoption: Section;
  introduced: { heading: string; items: Item[] }[];
  communications: string[];
  /** File number of the agenda's Petitions and Communications item. */
  communicationsFile: string;
  printedMinutes: { date: string; time: string };
  printedAgenda: { date: string; time: string };
  adjournedAt: string;
  calledAt: string;
}

/** Where a meeting sits in the full schedule (at its scale), which fixes its file numbers. */
export interface MeetingSlot {
  date: string;
  density: number;
  indexInYear: number;
  meetingsInYear: number;
  previous: string | null;
}

export interface Inputs {
  seed: string;
  roster: Roster;
  templates: Template[];
}

const COMMITTEES = [
  'Budget and Finance Committee',
  'Government Audit and Oversight Committee',
  'Land Use and Transportation Committee',
  'Public Safety and Neighborhood Services Committee',
  'Rules Committee',
];
const COMMITTEE_DAYS: [string, string][] = [
  ['Wednesday', '10:00 AM'],
  ['1st and 3rd Thursday', '9:30 AM'],
  ['Monday', '1:30 PM'],
  ['2nd Thursday', '10:00 AM'],
  ['2nd and 4th Thursday', '11:00 AM'],
];

/** File numbers this meeting introduces: `YY` + a block of the year's 4-digit counter. */
export function fileBlock(slot: MeetingSlot): { numbers: (j: number) => string; size: number } {
  const size = Math.max(20, Math.min(130, Math.floor(9990 / slot.meetingsInYear)));
  const yy = slot.date.slice(2, 4);
  return { size, numbers: (j) => `${yy}${String(((slot.indexInYear * size + j) % 9999) + 1).padStart(4, '0')}` };
}

/** How many new items and introductions a meeting has (its own stream, so the next meeting can ask too). */
export function meetingCounts(seed: string, slot: MeetingSlot): { items: number; introduced: number } {
  const r = new Rng(seed, `counts/${slot.date}`);
  return {
    items: Math.round((r.int(26, 46) + (r.chance(0.2) ? r.int(10, 40) : 0)) * slot.density),
    introduced: Math.round(r.int(6, 24) * slot.density),
  };
}

interface FileFacts {
  file: string;
  template: Template | null;
  type: Item['type'];
  name: string;
  title: string;
  sponsors: string[];
  committee: string;
  /** Ordinances: amended on first reading; re-referred (no final passage); continued. */
  amended: boolean;
  rereferred: boolean;
  fiscal: boolean;
}

const street = (r: Rng) => `${r.int(1, 48) * 50 + r.int(0, 49)} ${r.pick(STREETS)}`;
const person = (r: Rng) => `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
const amount = (r: Rng) =>
  r.pick([r.int(2, 95) * 1000, r.int(10, 990) * 10_000, r.int(1, 250) * 1_000_000 + r.int(0, 999) * 1000]);

/** Resolutions and motions invented from patterns (the Legistar export holds only ordinances). */
function inventResolution(
  r: Rng,
  year: number,
): { type: Item['type']; name: string; title: string; committee: string } {
  const addr = street(r);
  const amt = money(amount(r));
  const co = r.pick(COMPANIES);
  const ag = r.pick(AGENCIES);
  const units = r.int(12, 420);
  const bonds = money(r.int(8, 300) * 1_000_000);
  const fy = `FY${year}-${year + 1}`;
  const patterns: (() => { type: Item['type']; name: string; title: string; committee: string })[] = [
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[0],
      name: `Accept and Expend Grant - ${ag} - ${amt}`,
      title: `Resolution retroactively authorizing the ${ag} to accept and expend a grant in the amount of ${amt} from the State of California for the period of July 1, ${year}, through June 30, ${year + 1}, for services supporting ${r.pick(TOPICS)}. (${ag})`,
    }),
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[0],
      name: `Contract Amendment - ${co} - Not to Exceed ${amt}`,
      title: `Resolution approving the second amendment to the agreement between the ${ag} and ${co}, for services related to ${r.pick(TOPICS)}, to increase the agreement amount by ${money(amount(r))} for a total not to exceed ${amt}, and to extend the term through June 30, ${year + r.int(2, 5)}, pursuant to Charter, Section 9.118(b). (${ag})`,
    }),
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[0],
      name: `Residential Mortgage Revenue Bonds - ${addr} - Not to Exceed ${bonds}`,
      title: `Resolution approving, for purposes of the Internal Revenue Code of 1986, as amended, the issuance and sale of residential mortgage revenue bonds by the City in an aggregate principal amount not to exceed ${bonds} for the purpose of providing financing for the acquisition, construction and development of an approximately ${units}-unit multifamily rental housing project, in part for low or very low income persons or households, located in the City at ${addr}; and ratifying and approving any action heretofore taken in connection with the Project, as defined herein.`,
    }),
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[1],
      name: `Mills Act Historical Property Contract - ${addr}`,
      title: `Resolution approving a historical property contract between ${person(r)} and ${person(r)}, the owners of ${addr}, and the City and County of San Francisco, under Administrative Code, Chapter 71; and authorizing the Planning Director and the Assessor-Recorder to execute the historical property contract. (Planning Department)`,
    }),
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[1],
      name: `Liquor License Transfer - ${addr}`,
      title: `Resolution determining that the transfer of a Type ${r.pick([21, 41, 47, 48])} on-sale general public premises license to ${addr} (District ${r.int(1, 11)}), will serve the public convenience or necessity of the City and County of San Francisco in accordance with California Business and Professions Code, Section 23958.4, and recommending that the California Department of Alcoholic Beverage Control impose conditions on the issuance of the license. (Government Audit and Oversight Committee)`,
    }),
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[1],
      name: `Settlement of Unlitigated Claim - ${person(r)} - ${amt}`,
      title: `Resolution approving the settlement of the unlitigated claim filed by ${person(r)} against the City and County of San Francisco for ${amt}; the claim was filed on ${longDate(`${year}-0${r.int(1, 9)}-1${r.int(0, 9)}`)}; the claim involves alleged property damage. (City Attorney)`,
    }),
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[2],
      name: `Lease Agreement - ${co} - ${addr}`,
      title: `Resolution approving and authorizing the Director of Property to lease approximately ${r.int(20, 900) * 10} square feet at ${addr} from ${co}, for an initial term of ${r.int(3, 15)} years at a base rent of ${money(r.int(40, 900) * 1000)} per year, with ${r.int(2, 4)}% annual increases; and authorizing the Director of Property to execute documents and take certain actions in furtherance of this Resolution. (Real Estate Department)`,
    }),
    () => {
      const body = r.pick(BODIES);
      const [a, b] = [person(r), person(r)];
      return {
        type: 'Motion',
        committee: COMMITTEES[4],
        name: `Appointments, ${body} - ${a} and ${b}`,
        title: `Motion appointing ${a} and ${b}, terms ending ${longDate(`${year + r.int(1, 4)}-0${r.int(1, 9)}-${r.int(10, 28)}`)}, to the ${body}. (Rules Committee)`,
      };
    },
    () => ({
      type: 'Resolution',
      committee: COMMITTEES[3],
      name: `Urging ${ag} - ${r
        .pick(TOPICS)
        .replace(/^the /, '')
        .replace(/^./, (c) => c.toUpperCase())}`,
      title: `Resolution urging the ${ag} to report to the Board of Supervisors within ninety days on its efforts regarding ${r.pick(TOPICS)}, including staffing, costs and outcomes for ${fy}.`,
    }),
  ];
  return r.pick(patterns)();
}

function sponsorsFor(r: Rng, members: Member[], count: number, mayor: boolean): string[] {
  const names = r.sample(
    members.map((m) => m.surname),
    Math.min(Math.max(count, 1), members.length),
  );
  return mayor ? ['Mayor', ...names.slice(0, Math.max(0, count - 1))] : names;
}

function fileFacts(inputs: Inputs, file: string, members: Member[]): FileFacts {
  const r = new Rng(inputs.seed, `file/${file}`);
  const year = 2000 + Number(file.slice(0, 2));
  if (r.chance(0.5)) {
    const t = r.pick(inputs.templates);
    return {
      file,
      template: t,
      type: 'Ordinance',
      name: shiftYears(t.name, year - 2023),
      title: shiftYears(t.title, year - 2023),
      sponsors: sponsorsFor(r, members, t.sponsorCount || r.int(0, 2), t.mayorSponsor),
      committee: COMMITTEES.includes(t.committee) ? t.committee : r.pick(COMMITTEES),
      amended: t.amended && r.chance(0.35),
      rereferred: r.chance(0.04),
      fiscal: r.chance(0.25),
    };
  }
  const inv = inventResolution(r, year);
  return {
    file,
    template: null,
    type: inv.type,
    name: inv.name,
    title: inv.title,
    sponsors: r.chance(0.3) ? [] : sponsorsFor(r, members, r.int(1, 3), r.chance(0.3)),
    committee: inv.committee,
    amended: false,
    rereferred: false,
    fiscal: r.chance(0.2),
  };
}

const committeeName = (name: string, date: string) =>
  name === 'Budget and Finance Committee' && date.slice(5, 7) >= '06' && date.slice(5, 7) <= '07'
    ? 'Budget and Appropriations Committee'
    : name;

export function sponsorLine(sponsors: string[]): string {
  if (sponsors.length === 0) return '';
  if (sponsors.length === 1) return `Sponsor: ${sponsors[0]}`;
  return `Sponsors: ${sponsors[0]}; ${andList(sponsors.slice(1))}`;
}

export function planMeeting(inputs: Inputs, slot: MeetingSlot): Meeting {
  const { seed, roster } = inputs;
  const date = slot.date;
  const year = Number(date.slice(0, 4));
  const r = new Rng(seed, `meeting/${date}`);
  const members = rosterOn(roster, date);
  const surnames = members.map((m) => m.surname);
  const newTerm = slot.indexInYear === 0 && year % 2 === 1;
  const president = newTerm ? null : presidentOn(roster, date);
  const absent = r.chance(0.12)
    ? r
        .sample(
          surnames.filter((s) => s !== president?.surname),
          r.chance(0.2) ? 2 : 1,
        )
        .sort()
    : [];
  const present = surnames.filter((s) => !absent.includes(s));

  const vote = (opts: { noes?: number; excused?: boolean } = {}): Vote => {
    const noes = opts.noes ? r.sample(present, opts.noes).sort() : [];
    const excused = opts.excused ? [r.pick(present.filter((s) => !noes.includes(s)))] : [];
    return { ayes: present.filter((s) => !noes.includes(s) && !excused.includes(s)), noes, excused, absent };
  };
  const mover = () => r.sample(present, 2);
  const motionText = (what: string) => {
    const [a, b] = mover();
    return `Supervisor ${a}, seconded by Supervisor ${b}, ${what} The motion carried by the following vote:`;
  };

  // Committee membership is fixed per year (drawn from the members seated at each meeting).
  const cr = new Rng(seed, `committees/${year}`);
  const committees: Committee[] = COMMITTEES.map((name, i) => ({
    name: committeeName(name, date),
    members: cr.sample(surnames, 3),
    days: COMMITTEE_DAYS[i][0],
    time: COMMITTEE_DAYS[i][1],
  }));
  const presentOf = (committee: string) =>
    committees.find((c) => c.name === committeeName(committee, date))?.members ?? committees[4].members;

  const block = fileBlock(slot);
  const counts = meetingCounts(seed, slot);
  const prevDate = slot.previous;

  const makeItem = (f: FileFacts, stage: 'first' | 'final' | 'adopt'): Item => {
    const questionVerb =
      f.type === 'Ordinance'
        ? stage === 'final'
          ? 'FINALLY PASSED'
          : 'PASSED ON FIRST READING'
        : f.type === 'Motion'
          ? 'APPROVED'
          : f.type === 'Hearing'
            ? 'HEARD AND FILED'
            : 'ADOPTED';
    const action =
      f.type === 'Ordinance' ? (stage === 'final' ? 'FINALLY PASSED' : 'PASSED, ON FIRST READING') : questionVerb;
    const item: Item = {
      file: f.file,
      name: f.name,
      sponsors: sponsorLine(f.sponsors),
      type: f.type,
      title: f.title,
      fiscal: f.fiscal,
      notes: [],
      motions: [],
      action,
      vote: null,
      after: [],
      afterNote: null,
      enactment: null,
      history: [],
      question: `Question: Shall this ${f.type} be ${questionVerb}?`,
      speakers: [],
    };
    if (stage === 'final' && prevDate) {
      if (f.amended)
        item.history.push(`${paddedDate(prevDate)}; AMENDED, AN AMENDMENT OF THE WHOLE BEARING SAME TITLE.`);
      item.history.push(
        `${paddedDate(prevDate)}; ${f.amended ? 'PASSED ON FIRST READING AS AMENDED' : 'PASSED, ON FIRST READING'}.`,
      );
    }
    if (f.type === 'Motion' && r.chance(0.7))
      item.enactment = `Motion No. M${date.slice(2, 4)}-${r.int(1, 190).toString().padStart(3, '0')}`;
    if (f.sponsors.length > 1 && stage !== 'final' && r.chance(0.15))
      item.notes.push(
        `Supervisor${f.sponsors.length > 2 ? 's' : ''} ${andList(f.sponsors.slice(1).filter((s) => s !== 'Mayor'))} requested to be added as ${f.sponsors.length > 2 ? 'co-sponsors' : 'a co-sponsor'}.`,
      );
    if (r.chance(0.06))
      item.notes.push(
        `Privilege of the floor was granted unanimously to ${person(r)} (${r.pick(AGENCIES)}) who responded to questions raised throughout the discussion.`,
      );
    return item;
  };

  // New files: first readings (ordinances) and resolutions; finals: the previous meeting's first readings.
  const fresh = Array.from({ length: counts.items }, (_, j) => fileFacts(inputs, block.numbers(j), members));
  let finals: FileFacts[] = [];
  if (prevDate && slot.indexInYear > 0) {
    const prevSlot: MeetingSlot = { ...slot, date: prevDate, indexInYear: slot.indexInYear - 1 };
    const prevBlock = fileBlock(prevSlot);
    const prevMembers = rosterOn(roster, prevDate);
    finals = Array.from({ length: meetingCounts(seed, prevSlot).items }, (_, j) =>
      fileFacts(inputs, prevBlock.numbers(j), prevMembers),
    ).filter((f) => f.type === 'Ordinance' && !f.rereferred);
  }

  const byCommittee = (items: { f: FileFacts; item: Item }[]): Group[] => {
    const groups = new Map<string, Item[]>();
    for (const { f, item } of items)
      groups.set(committeeName(f.committee, date), [...(groups.get(committeeName(f.committee, date)) ?? []), item]);
    return [...groups.entries()].map(([c, list]) => ({
      heading: `Recommendation${list.length > 1 ? 's' : ''} of the ${c}`,
      present: presentOf(c),
      items: list,
    }));
  };

  // Consent: most finals and a share of the routine new items share one vote.
  const consent: { f: FileFacts; item: Item }[] = [];
  const unfinished: { f: FileFacts; item: Item }[] = [];
  const newBusiness: { f: FileFacts; item: Item }[] = [];
  for (const f of finals) (r.chance(0.7) ? consent : unfinished).push({ f, item: makeItem(f, 'final') });
  const adoptionItems: Item[] = [];
  for (const f of fresh) {
    const item = makeItem(f, f.type === 'Ordinance' ? 'first' : 'adopt');
    if (f.type !== 'Ordinance' && r.chance(0.15)) {
      adoptionItems.push(item);
      continue;
    }
    (r.chance(0.35) && !f.amended && !f.rereferred ? consent : newBusiness).push({ f, item });
  }
  for (const { f, item } of [...unfinished, ...newBusiness]) {
    const contested = r.chance(0.1);
    item.vote = vote({ noes: contested ? r.int(1, 4) : 0, excused: r.chance(0.03) });
    if (f.amended) {
      item.motions.push({
        text: motionText(
          `moved that this Ordinance be AMENDED, AN AMENDMENT OF THE WHOLE BEARING SAME TITLE, on Page ${r.int(2, 9)}, Line ${r.int(1, 25)}, by ${r.pick(['adding', 'deleting', 'clarifying'])} ${r.pick(['reporting requirements', 'the operative date', 'a sunset provision', 'findings under the California Environmental Quality Act', 'the definition of affordable unit'])}.`,
        ),
        vote: vote(),
      });
      item.action = 'PASSED ON FIRST READING AS AMENDED';
    }
    if (f.rereferred) {
      item.motions.push({
        text: motionText(
          `moved that this ${f.type} be RE-REFERRED to the ${committeeName(f.committee, date)} meeting of ${longDate(addDays(date, 13))}.`,
        ),
        vote: vote(),
      });
      item.action = '';
      item.vote = null;
    } else if (f.type === 'Resolution' && r.chance(0.02)) {
      // Fails, is rescinded, and goes back to committee (as on 11/1/2016).
      item.vote = vote({ noes: Math.max(1, Math.min(6, present.length - 5)) });
      item.action = 'NOT ADOPTED';
      item.after.push({ text: motionText('moved to rescind the previous vote.'), vote: vote() });
      item.afterNote = `Supervisor ${r.pick(present)} requested this Resolution be REFERRED to the ${committeeName(f.committee, date)}.`;
    } else if (r.chance(0.04)) {
      item.motions.push({
        text: motionText(
          `moved that this ${f.type} be CONTINUED to the Board of Supervisors meeting of ${longDate(addDays(date, 14))}.`,
        ),
        vote: vote(),
      });
      item.action = '';
      item.vote = null;
    }
  }

  const sections: Section[] = [
    {
      title: 'CONSENT AGENDA',
      groups: byCommittee(consent),
      sharedVote: vote({ excused: r.chance(0.02) }),
      note: null,
    },
    { title: 'UNFINISHED BUSINESS', groups: byCommittee(unfinished), sharedVote: null, note: null },
    { title: 'NEW BUSINESS', groups: byCommittee(newBusiness), sharedVote: null, note: null },
  ].filter((s) => s.groups.length > 0);

  // Appeal hearings (3:00 p.m. special order) with their own public comment and companion motions.
  const hearings: Item[] = [];
  if (r.chance(0.3)) {
    const addr = street(r);
    const n = block.numbers(block.size - 4);
    const base = Number(n);
    const nums = [0, 1, 2].map((k) => String(base + k).padStart(6, '0'));
    const kind = r.pick([
      'Conditional Use Authorization',
      'Determination of Exemption From Environmental Review',
      'Tentative Map Approval',
    ]);
    const hearing: Item = {
      file: nums[0],
      name: `Hearing - Appeal of ${kind} - ${addr}`,
      sponsors: '',
      type: 'Hearing',
      fiscal: false,
      title: `Hearing of persons interested in or objecting to the ${kind} for the proposed project at ${addr}, to allow the demolition of an existing building and the construction of a ${r.pick(['four', 'five', 'six', 'seven', 'nine', 'twelve'])}-story building with ${r.int(8, 240)} dwelling units. (District ${r.int(1, 11)}) (Appellant: ${person(r)}) (Filed ${longDate(addDays(date, -r.int(20, 40)))}). (Clerk of the Board)`,
      notes: [
        `The President inquired as to whether any member of the public wished to address the Board on the appeal.`,
      ],
      motions: [],
      action: 'HEARD AND FILED',
      vote: null,
      after: [],
      afterNote: null,
      enactment: null,
      history: [],
      question: 'Question: Shall this Hearing be HEARD AND FILED?',
      speakers: Array.from({ length: r.int(2, 12) }, () => ({
        name: speakerName(r),
        statement: r.pick([
          'spoke in support of the appeal.',
          'spoke in opposition to the appeal.',
          'shared concerns regarding the proposed project.',
        ]),
      })),
    };
    const affirm = r.chance(0.6);
    const motion = (num: string, verb: string, act: string): Item => ({
      file: num,
      name: `${verb} the ${kind} - ${addr}`,
      sponsors: '',
      type: 'Motion',
      fiscal: false,
      title: `Motion ${verb.toLowerCase()} the ${kind} for the proposed project at ${addr}. (Clerk of the Board)`,
      notes: [],
      motions: [],
      action: act,
      vote: vote(),
      after: [],
      afterNote: null,
      enactment:
        act === 'APPROVED' ? `Motion No. M${date.slice(2, 4)}-${r.int(1, 190).toString().padStart(3, '0')}` : null,
      history: [],
      question: 'Question: Shall this Motion be APPROVED?',
      speakers: [],
    });
    hearing.vote = vote();
    hearings.push(
      hearing,
      motion(nums[1], 'Affirming', affirm ? 'APPROVED' : 'TABLED'),
      motion(nums[2], 'Reversing', affirm ? 'TABLED' : 'APPROVED'),
    );
  }

  const speakers = Array.from({ length: Math.round(r.int(5, 45) * slot.density) }, () => ({
    name: speakerName(r),
    statement: speakerStatement(r),
  }));

  const introStart = counts.items;
  const introduced: Meeting['introduced'] = [
    { heading: 'PROPOSED ORDINANCES', items: [] },
    { heading: 'PROPOSED RESOLUTIONS', items: [] },
  ];
  for (let j = 0; j < counts.introduced; j++) {
    const f = fileFacts(inputs, block.numbers(introStart + j), members);
    const item = makeItem(f, 'first');
    const received = addDays(date, -r.int(6, 14));
    item.history = [
      `${shortDate(received)}; RECEIVED FROM DEPARTMENT.`,
      `${shortDate(date)}; RECEIVED AND ASSIGNED to ${committeeName(f.committee, date)}.`,
    ];
    item.sponsors = '';
    introduced[f.type === 'Ordinance' ? 0 : 1].items.push(item);
  }

  const communications = Array.from(
    { length: Math.round(r.int(5, 30) * slot.density) },
    (_, i) =>
      `From ${r.chance(0.5) ? r.pick(AGENCIES) : person(r)}, regarding ${r.pick(TOPICS)}. ${r.chance(0.3) ? `File No. ${block.numbers(r.int(0, counts.items))}. ` : ''}Copy: Each Supervisor. (${i + 1})`,
  );

  const minutesApproved = prevDate ?? addDays(date, -21);
  const [m1, m2] = mover();
  const hour = (h: number, m: number) => `${h}:${String(m).padStart(2, '0')}`;
  return {
    date,
    year,
    members,
    president,
    absent,
    mayor: mayorOn(date),
    draft: r.chance(0.1),
    committees,
    minutesApproved,
    approvalMotion: {
      text: `Supervisor ${m1}, seconded by Supervisor ${m2}, moved to approve the Board Meeting Minutes of ${longDate(minutesApproved)}. The motion carried by the following vote:`,
      vote: vote(),
    },
    sections,
    hearings,
    committeeReports: [],
    speakers,
    adoption: {
      title: 'FOR ADOPTION WITHOUT COMMITTEE REFERENCE',
      groups: adoptionItems.length ? [{ heading: null, present: [], items: adoptionItems }] : [],
      sharedVote: vote(),
      note: null,
    },
    introduced: introduced.filter((g) => g.items.length > 0),
    communications,
    communicationsFile: block.numbers(block.size - 1),
    printedMinutes: { date: addDays(date, r.int(1, 9)), time: `${hour(r.int(8, 11), r.int(0, 59))} am` },
    printedAgenda: { date: addDays(date, -r.int(4, 6)), time: `${hour(r.int(1, 5), r.int(0, 59))} pm` },
    adjournedAt: `${hour(r.int(3, 8), r.int(0, 59))} p.m.`,
    calledAt: `2:${String(r.int(0, 9)).padStart(2, '0')} p.m.`,
  };
}

function speakerName(r: Rng): string {
  const x = r.next();
  if (x < 0.12) return 'Male Speaker';
  if (x < 0.22) return 'Female Speaker';
  if (x < 0.3) return r.pick(FIRST_NAMES);
  return person(r);
}

function speakerStatement(r: Rng): string {
  const topic = r.pick(TOPICS);
  return r.pick([
    `shared concerns regarding ${topic}.`,
    `shared various concerns regarding ${topic} and ${r.pick(TOPICS)}.`,
    `expressed support for ${topic}.`,
    'shared various thoughts and experiences.',
    `shared concerns regarding ${topic}, and requested that the Board hold a hearing on the matter before the end of the fiscal year.`,
  ]);
}
