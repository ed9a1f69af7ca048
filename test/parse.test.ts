// Parsing the real Board PDFs (read from ../shared/corpus, never copied): facts read off the 2016-11-01 minutes and agendas.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import t from 'tap';

import { classifyAction } from '../pipelines/enrich/actions.ts';
import { loadRoster } from '../pipelines/enrich/supervisors.ts';
import { type PageText, splitRunning } from '../pipelines/extract/pages.ts';
import { extractPages } from '../pipelines/extract/pdf.ts';
import { flatten } from '../pipelines/parse/blocks.ts';
import { markRescinded, parseDocument } from '../pipelines/parse/document.ts';
import { meetingRoster } from '../pipelines/parse/meeting.ts';
import { findVotes } from '../pipelines/parse/rollcalls.ts';
import type { ParsedDocument, RollCallRecord } from '../pipelines/records.ts';
import { MEMBERS_2016_11_01 } from './corpora.ts';

const PDFS = process.env.CORPUS
  ? join(process.env.CORPUS, 'pdfs')
  : new URL('../../shared/corpus/pdfs', import.meta.url).pathname;
const roster = loadRoster();
const pageCache = new Map<string, PageText[]>();

async function pages(file: string): Promise<PageText[]> {
  if (!pageCache.has(file)) pageCache.set(file, splitRunning(await extractPages(join(PDFS, file))));
  return pageCache.get(file)!;
}

async function parse(file: string): Promise<ParsedDocument> {
  const m = /bag(\d\d)(\d\d)(\d\d)_(agenda|minutes)/.exec(file)!;
  const date = `20${m[3]}-${m[1]}-${m[2]}`;
  const kind = m[4] as 'agenda' | 'minutes';
  return parseDocument({ id: `${date}-${kind}`, meetingDate: date, kind }, await pages(file), roster);
}

if (!existsSync(PDFS)) {
  t.fail(`corpus not found at ${PDFS}`);
} else {
  const minutes = await parse('bag110116_minutes.pdf');
  const item = (file: string) => minutes.items.find((i) => i.fileNumber === file)!;
  const votes = (file: string) => minutes.rollCalls.filter((r) => r.fileNumber === file);
  const ELEVEN = ['Avalos', 'Breed', 'Campos', 'Cohen', 'Farrell', 'Kim', 'Mar', 'Peskin', 'Tang', 'Wiener', 'Yee'];

  t.test('minutes: item blocks with titles, sponsors, types, pages', async (t) => {
    t.equal(minutes.items.length, 45);
    const roof = item('160965');
    t.equal(roof.title, 'Planning, Green Building Codes - Better Roof Requirements, Including Living Roofs');
    t.same(roof.sponsors, ['Wiener', 'Cohen', 'Mar']);
    t.equal(roof.itemType, 'Ordinance');
    t.equal(roof.section, 'CONSENT AGENDA');
    t.equal(roof.startPage, 4);
    t.match(roof.longTitle, /^Ordinance amending the Planning Code and Green Building Code .* Section 101\.1\.$/);
    t.equal(item('160789').sponsors[0], 'Mayor');
    t.equal(item('160615').itemType, 'Motion');
    t.same(item('160615').enactmentNumbers, ['Motion No. M16-152']);
    t.same(item('161171').enactmentNumbers, ['Motion No. M16-155']);
    t.equal(
      item('161050').title,
      'Multifamily Housing Revenue Notes and Variable Rate Multifamily Housing Revenue Bonds - Transbay Block 8 - Not to Exceed $302,390,833',
    );
    for (const i of minutes.items)
      t.notMatch(i.text, /Printed at|Meeting Minutes - Draft/, `${i.fileNumber} text has no running header/footer`);
    t.same(item('161144').statusLines, [
      '10/24/16; RECEIVED FROM DEPARTMENT.',
      '11/01/16; RECEIVED AND ASSIGNED to Government Audit and Oversight Committee.',
    ]);
    t.equal(new Set(minutes.items.map((i) => i.id)).size, 45, 'item ids are unique');
  });

  t.test('minutes: the consent block shared vote applies to each of its items with its own action', async (t) => {
    for (const file of ['160424', '160553', '160962', '160965', '160964']) {
      const [v] = votes(file);
      t.equal(votes(file).length, 1, file);
      t.equal(v.sharedVote, true);
      t.equal(v.action, 'FINALLY PASSED');
      t.equal(v.actionType, 'final-passage');
      t.equal(v.isFinal, true);
      t.same(v.ayes, ELEVEN);
      t.equal(v.page, 4, 'the tally is printed on page 4');
    }
    const forAdoption = ['161168', '161170', '161171'].map((f) => votes(f)[0]);
    t.same(
      forAdoption.map((v) => [v.action, v.actionType, v.sharedVote]),
      [
        ['ADOPTED', 'adoption', true],
        ['APPROVED', 'approval', true],
        ['APPROVED', 'approval', true],
      ],
    );
    t.equal(votes('160789')[0].sharedVote, false, 'an item with its own vote is not part of the run');
  });

  t.test('minutes: 160222 AMENDED then RE-REFERRED, each with its roll call', async (t) => {
    const [amend, refer] = votes('160222');
    t.equal(votes('160222').length, 2);
    t.equal(amend.sequence, 1);
    t.equal(
      amend.action,
      'Supervisor Avalos, seconded by Supervisor Mar, moved that this Ordinance be AMENDED, AN AMENDMENT OF THE WHOLE BEARING SAME TITLE, by adding reference to approval of California Environmental Quality Act findings.',
    );
    t.equal(amend.actionType, 'amendment');
    t.equal(amend.isFinal, false);
    t.same(amend.ayes, ELEVEN);
    t.same(amend.declaredCounts, { ayes: 11, noes: null, absent: null, excused: null });
    t.equal(refer.sequence, 2);
    t.equal(
      refer.action,
      'Supervisor Avalos, seconded by Supervisor Mar, moved that this Ordinance be RE-REFERRED AS AMENDED to the Land Use and Transportation Committee meeting of November 14, 2016.',
    );
    t.equal(refer.actionType, 'referral');
    t.equal(refer.isFinal, false);
  });

  t.test('minutes: 161169 excused member, NOT ADOPTED, rescission, referral', async (t) => {
    // Vote 2 (NOT ADOPTED, 7–3) is undone by vote 3 ("moved to rescind the previous vote", carried 10–0): it keeps its
    // record and action type, says what rescinded it, and is not final.
    const [excuse, vote, rescind] = votes('161169');
    t.equal(votes('161169').length, 3);
    t.equal(
      excuse.action,
      'Supervisor Tang, seconded by Supervisor Mar, moved that Supervisor Farrell be excused from voting on File No. 161169.',
      'a block-level motion naming the file belongs to it',
    );
    t.equal(excuse.actionType, 'other');
    t.same(excuse.excused, ['Farrell']);
    t.equal(vote.action, 'NOT ADOPTED');
    t.equal(vote.actionType, 'rejection');
    t.equal(vote.result, 'not-adopted');
    t.equal(vote.isFinal, false, 'rescinded later the same meeting');
    t.equal(vote.rescindedBy, rescind.id);
    t.same(
      [excuse.result, excuse.rescindedBy, excuse.isFinal],
      ['carried', null, false],
      'the excuse motion is not undone',
    );
    t.same(vote.ayes, ['Avalos', 'Breed', 'Campos', 'Kim', 'Mar', 'Peskin', 'Yee']);
    t.same(vote.noes, ['Cohen', 'Tang', 'Wiener']);
    t.same(vote.excused, ['Farrell']);
    t.same(vote.declaredCounts, { ayes: 7, noes: 3, absent: null, excused: 1 });
    t.equal(rescind.action, 'Supervisor Kim, seconded by Supervisor Mar, moved to rescind the previous vote.');
    t.equal(rescind.actionType, 'rescission');
    t.equal(rescind.result, 'carried', 'The motion carried by the following vote');
    t.equal(rescind.isFinal, false);
    t.equal(rescind.rescindedBy, null);
    t.same([excuse.sequence, vote.sequence, rescind.sequence], [1, 2, 3]);
    t.ok(
      item('161169').statusLines.includes(
        'Supervisor Kim requested this Resolution be REFERRED to the Government Audit and Oversight Committee.',
      ),
    );
    const positions = minutes.positions.filter((p) => p.rollCallId === vote.id);
    t.equal(positions.length, 11);
    t.same(
      positions.filter((p) => p.position === 'no').map((p) => p.supervisorId),
      ['malia-cohen', 'katy-tang', 'scott-wiener'],
    );
    t.same(
      positions.find((p) => p.position === 'excused'),
      {
        ...positions.find((p) => p.position === 'excused'),
        supervisorId: 'mark-farrell',
        isFinal: false,
        rescindedBy: rescind.id,
        actionType: 'rejection',
        page: 17,
      },
    );
    t.ok(
      positions.every((p) => !p.isFinal && p.rescindedBy === rescind.id),
      'every position of the rescinded vote says so',
    );
    t.equal(
      minutes.rollCalls.filter((r) => r.rescindedBy !== null).length,
      1,
      'no other vote of the minutes is rescinded',
    );
  });

  t.test('rescission rule on the 161169 votes: only one that carried undoes the vote before it', async (t) => {
    const again = (change: Partial<RollCallRecord>) => {
      const calls = votes('161169').map((rc) => ({ ...rc, rescindedBy: null, isFinal: rc.actionType === 'rejection' }));
      Object.assign(calls[2], change);
      markRescinded(calls);
      return calls.map((rc) => [rc.rescindedBy, rc.isFinal]);
    };
    const undone = [
      [null, false],
      ['2016-11-01-minutes-161169-v3', false],
      [null, false],
    ];
    const kept = [
      [null, false],
      [null, true],
      [null, false],
    ];
    t.same(again({}), undone, 'as printed: The motion carried');
    t.same(again({ result: 'failed' }), kept, 'The motion failed: the vote stands');
    t.same(
      again({ result: 'other', ayes: ['Kim', 'Mar'], noes: ['Cohen', 'Tang', 'Wiener'] }),
      kept,
      'no printed outcome and fewer ayes than noes',
    );
    t.same(again({ result: 'other' }), undone, 'no printed outcome and more ayes than noes (10–0)');
    t.same(
      again({
        action: 'Supervisor Kim, seconded by Supervisor Mar, moved to reconsider the previous vote.',
        actionType: classifyAction(
          'Supervisor Kim, seconded by Supervisor Mar, moved to reconsider the previous vote.',
          'Resolution',
        ).actionType,
      }),
      undone,
      'a reconsideration reopens the vote too',
    );
    t.same(again({ actionType: 'referral' }), kept, 'only a rescission undoes');
  });

  t.test('minutes: positions reconciled through the Members Present line', async (t) => {
    t.same(meetingRoster(flatten(await pages('bag110116_minutes.pdf'))), MEMBERS_2016_11_01);
    const counted = minutes.rollCalls.reduce(
      (n, r) => n + r.ayes.length + r.noes.length + r.absent.length + r.excused.length,
      0,
    );
    t.equal(minutes.positions.length, counted, 'one position per name per roll call');
    t.ok(minutes.positions.filter((p) => p.nameAsRecorded === 'Mar').every((p) => p.supervisorId === 'eric-mar'));
    t.ok(minutes.positions.every((p) => p.supervisorId !== null));
    t.equal(new Set(minutes.positions.map((p) => p.id)).size, minutes.positions.length, 'position ids are unique');
    t.equal(
      minutes.problems.filter(
        (p) => p.kind === 'count-mismatch' || p.kind === 'unresolved-name' || p.kind === 'ambiguous-name',
      ).length,
      0,
    );
    // The minutes approval and the rule suspension are votes on no legislative file: reported, not silently dropped.
    t.same(
      minutes.problems.map((p) => [p.kind, p.page]),
      [
        ['unparsed-block', 2],
        ['unparsed-block', 12],
      ],
    );
  });

  t.test('minutes: Transbay Block 8 financing: units, addresses, not-to-exceed amounts', async (t) => {
    const block8 = item('161050');
    t.same(block8.extracted.housingUnits, [80, 350]);
    t.match(
      block8.unitMentions[0].sentence,
      /an 80-unit multifamily rental housing project located in the City at 250 Fremont Street/,
    );
    t.same(block8.extracted.addresses, ['250 Fremont Street', '450 Folsom Street']);
    const nte = block8.extracted.amounts.filter((a) => a.qualifier === 'not-to-exceed').map((a) => a.value);
    t.same(nte, [302390833, 19290833, 263100000, 20000000, 282359227]);
    t.ok(block8.extracted.amounts.every((a) => a.currency === 'USD'));
    const lease = item('161041');
    t.same(lease.extracted.addresses, ['250 Fremont Street']);
    t.same(lease.extracted.parties, ['T8 Housing Partners, L.P.']);
    t.equal(item('161072').extracted.addresses[0], '2800 Arelious Walker Drive');
  });

  t.test('minutes: public comment, one record per speaker, exactly as recorded', async (t) => {
    const c = minutes.comments;
    t.equal(c.length, 16);
    t.same(
      c.slice(0, 3).map((x) => x.speaker),
      ['Male Speaker', 'Francisco Da Costa', 'Andrew Yip'],
    );
    t.equal(
      c[1].statement,
      'shared concerns regarding Millennium Towers and development projects on contaminated land.',
    );
    t.equal(c[0].id, '2016-11-01-minutes-c001');
    t.ok(c.every((x) => x.page === 15 && x.fileNumber === null));
    t.same(
      c.filter((x) => /Falun Gong/.test(x.statement)).map((x) => x.speaker),
      ['Natasha', 'Lorie Ten', 'Cassie', 'Tina Yen', 'Lisa'],
    );
    t.equal(c.filter((x) => x.speaker === 'Female Speaker').length, 2);
  });

  t.test(
    'public comment: names with particles; a paragraph that cannot be read is a problem, never dropped',
    async (t) => {
      const page15 = (await pages('bag110116_minutes.pdf')).find((p) => p.page === 15)!;
      const read = (...edits: [string, string][]) =>
        parseDocument(
          { id: 'x-minutes', meetingDate: '2016-11-01', kind: 'minutes' },
          [
            {
              ...page15,
              lines: page15.lines.map((l) => edits.reduce((line, [from, to]) => line.replace(from, to), l)),
            },
          ],
          roster,
        );
      const asPrinted = read();
      t.equal(asPrinted.comments.length, 16, 'the page alone reads as the whole minutes do');
      t.same(
        asPrinted.problems.filter((p) => p.kind === 'unparsed-speaker'),
        [],
      );
      const particles = read(
        ['Andrew Yip;', 'Jan van der Berg;'],
        ['Peter Warfield;', 'Maria de la Cruz;'],
        ['Emil Lawrence;', 'Omar al-Amin;'],
        ['Ingrid Que;', 'Ahmed bin Said;'],
      );
      t.same(particles.comments.map((c) => c.speaker).slice(1, 7), [
        'Francisco Da Costa',
        'Jan van der Berg',
        'Maria de la Cruz',
        'Omar al-Amin',
        'Female Speaker',
        'Ahmed bin Said',
      ]);
      t.same(
        particles.problems.filter((p) => p.kind === 'unparsed-speaker'),
        [],
      );
      // A summary in capitals and a speaker numbered by the Clerk do not read as `Name; summary`: reported with their page.
      const broken = read(['Andrew Yip; shared', 'Andrew Yip; Shared'], ['Lorie Ten;', 'Speaker 3;']);
      t.equal(broken.comments.length, 14, 'two paragraphs are not comments');
      t.notOk(
        broken.comments.some(
          (c) =>
            /his various thoughts|oppression of the Falun Gong\.$/.test(c.statement) && /Yip|Speaker 3/.test(c.speaker),
        ),
      );
      t.same(
        broken.problems
          .filter((p) => p.kind === 'unparsed-speaker')
          .map((p) => [p.page, p.detail.replace(/^.*: /, '')]),
        [
          [15, 'Andrew Yip; Shared his various thoughts and experiences.'],
          [15, 'Speaker 3; shared concerns regarding the oppression of the Falun Gong.'],
        ],
      );
    },
  );

  t.test('roll calls: wrapped lists joined, a count mismatch kept and reported', async (t) => {
    const page17 = (await pages('bag110116_minutes.pdf')).find((p) => p.page === 17)!;
    const wrapped = page17.lines.flatMap((l) =>
      /Ayes: 7 - /.test(l) ? [l.replace(' Mar, Peskin, Yee', ''), '                          Mar, Peskin, Yee'] : [l],
    );
    t.ok(wrapped.some((l) => /Ayes: 7 - Avalos, Breed, Campos, Kim,$/.test(l)));
    const vote = findVotes(flatten([{ ...page17, lines: wrapped }])).find((v) => v.action === 'NOT ADOPTED')!;
    t.same(vote.ayes, ['Avalos', 'Breed', 'Campos', 'Kim', 'Mar', 'Peskin', 'Yee']);
    t.equal(vote.countMismatch, false);
    const short = page17.lines.map((l) => l.replace(/(Noes: 3 - Cohen, Tang), Wiener/, '$1'));
    const doc = parseDocument(
      { id: 'x-minutes', meetingDate: '2016-11-01', kind: 'minutes' },
      [{ ...page17, lines: short }],
      roster,
    );
    const rc = doc.rollCalls.find((r) => r.action === 'NOT ADOPTED')!;
    t.equal(rc.countMismatch, true);
    t.same(rc.noes, ['Cohen', 'Tang']);
    t.equal(doc.positions.filter((p) => p.rollCallId === rc.id).length, 10, 'the mismatched tally is kept');
    t.ok(doc.problems.some((p) => p.kind === 'count-mismatch' && p.detail.startsWith(rc.id)));
  });

  t.test('agendas: items found, status lines, appeal bundles share a matter, no roll calls', async (t) => {
    const nov15 = await parse('bag111516_agenda.pdf');
    const f161034 = nov15.items.find((i) => i.fileNumber === '161034')!;
    t.same(f161034.statusLines, [
      '11/01/2016; PASSED, ON FIRST READING.',
      'Question: Shall this Ordinance be FINALLY PASSED?',
    ]);
    t.equal(nov15.rollCalls.length, 0);
    t.equal(nov15.comments.length, 0);
    const covid = await parse('bag091520_agenda.pdf');
    t.equal(covid.items.length, 87);
    t.ok(covid.items.find((i) => i.fileNumber === '200856')!.extracted.parties.includes('Thaïs Yafet'));
    const special = await parse('bag033120_agenda.pdf');
    t.equal(special.items.length, 23);
    t.match(
      special.items.find((i) => i.fileNumber === '200209')!.title,
      /^Accept and Expend Grant\] - Retroactive - Board of State and Community Corrections \(BSCC\) - Recruitment and Training - \$365,700$/,
    );
    const jan10 = await parse('bag011017_agenda.pdf');
    const bundle = ['161146', '161147', '161148', '161149'].map((f) => jan10.items.find((i) => i.fileNumber === f)!);
    t.same(
      bundle.map((i) => i.matter),
      Array(4).fill('Proposed Project at 2675 Folsom Street'),
    );
    t.same(
      bundle.map((i) => i.itemType),
      ['Hearing', 'Motion', 'Motion', 'Motion'],
    );
    t.equal(
      jan10.items.find((i) => i.fileNumber === '161015')!.matter,
      jan10.items.find((i) => i.fileNumber === '161015')!.title,
      'other items: matter is the short title',
    );
    const spanning = [...nov15.items, ...covid.items].filter((i) => i.endPage > i.startPage);
    t.ok(spanning.length > 0, 'some blocks run across a page break');
    for (const i of spanning) t.notMatch(i.text, /Printed at/);
  });

  t.test('agendas: every 2016-2020 agenda in the corpus yields its items', async (t) => {
    let total = 0;
    for (const file of readdirSync(PDFS)
      .filter((f) => /_agenda\.pdf$/.test(f))
      .sort()) {
      const doc = await parse(file);
      t.ok(doc.items.length > 10, `${file}: ${doc.items.length} items`);
      t.ok(
        doc.items.every((i) => /^\d{6}$/.test(i.fileNumber) && i.title !== '' && i.longTitle !== ''),
        `${file}: every item has a title and long title`,
      );
      total += doc.items.length;
      pageCache.delete(file);
    }
    t.equal(total, 1802);
  });
}
