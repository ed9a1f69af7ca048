// Any Legistar export a user drops in: a corpus of the 2016-11-01 minutes with, under legistar/, the legislation grid's
// export as CSV, as the `.xls` HTML table of the site's Excel button, as an .xlsx workbook and as a workbook saved
// under .xls; an action-history grid; a file's own history grid; a member's votes; an unknown CSV; a broken workbook;
// and meeting_items.csv for 2016-11-01. Every file is generated here, labelled synthetic in its name; the legislation
// and history rows are real rows of ../shared/corpus/legistar reshaped into the grids' columns, the meeting items
// the minutes' own outcomes, but for one row that disagrees on purpose. The build publishes; the files carry their
// sources; the unknown and broken files are problems naming them and their columns; the quality report, through the
// real server, lists exactly the disagreeing row. Also: Legistar's action/result words → the lake's, one test a row.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { LEGISTAR_OUTCOMES, legistarOutcome } from '../pipelines/enrich/legistar-actions.ts';
import { classify, type Shape } from '../pipelines/exports/shapes.ts';
import { Release } from '../src/lake/release.ts';
import { start } from '../src/server.ts';
import { build, makeCorpus, newLake } from './corpora.ts';
import type { Json } from './fixture.ts';
import { CORPUS, getValid, testConfig } from './fixture.ts';

t.test("Legistar's action and result → the lake's action type and result", async (t) => {
  for (const [action, result, actionType, outcome] of LEGISTAR_OUTCOMES) {
    t.same(
      legistarOutcome(action, result),
      { actionType, result: outcome },
      `${action || '(none)'} / ${result || '(none)'}`,
    );
  }
});

t.test('headers → shapes', async (t) => {
  const cases: [string, Shape | null][] = [
    ['id,legislation_id,date,ver,action_by,action,result,file_number', 'scraped-history'],
    [
      'id,file_number,type,introduced,on_agenda,enactment_date,name,status,in_control,final_action,enactment_number,title,sponsors,related_files,url',
      'scraped-legislation',
    ],
    ['File #,Enactment #,Name,Type,Status,Introduced,Final Action,Title', 'legislation-grid'],
    ['File #,Ver.,Type,Status,Intro Date,In Control,Final Action,Title,Sponsors', 'legislation-grid'],
    ['File #,Date,Ver.,Action By,Action,Result', 'history-grid'],
    ['File #,Date,Action,Result', 'history-grid'],
    ['Date,Ver.,Action By,Action,Result,Action Details,Meeting Details,Video', 'history-grid'],
    ['File #,Action Date,Title,Vote,Meeting Body', 'member-votes'],
    ['Meeting Date,Meeting Details,File #,Ver.,Agenda #,Name,Type,Status,Title,Action,Result', 'meeting-items'],
    ['\uFEFFFile # , Title ,Status', 'legislation-grid'],
    ['foo,bar', null],
    ['File #,Name', null],
  ];
  for (const [header, shape] of cases) t.equal(classify(header.split(',')), shape, header);
});

// Real rows of the shared exports, read by DuckDB (not by the code under test).
const duck = await (await DuckDBInstance.create(':memory:')).connect();
const csvRows = async (file: string, where: string) =>
  (
    await duck.runAndReadAll(
      `SELECT * FROM read_csv('${join(CORPUS, 'legistar', file)}', header = true, all_varchar = true) WHERE ${where} ORDER BY TRY_CAST(id AS INTEGER)`,
    )
  ).getRowObjectsJson() as Record<string, string | null>[];
const legislation = await csvRows(
  'legislation_2023.csv',
  `file_number IN ('231274', '231273', '231272', '231271', '231270', '231245')`,
);
const byFile = new Map(legislation.map((r) => [r.file_number, r]));
const history231272 = await csvRows('history_2023.csv', `file_number = '231272'`);
const history231271 = await csvRows('history_2023.csv', `file_number = '231271'`);

const GRID = ['File #', 'Ver.', 'Enactment #', 'Name', 'Type', 'Status', 'Introduced', 'Final Action', 'Title'];
const gridRow = (r: Record<string, string | null>) =>
  [r.file_number, '1', r.enactment_number, r.name, r.type, r.status, r.introduced, r.final_action, r.title].map(
    (v) => v ?? '',
  );
const csvField = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csv = (rows: string[][]) => rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The markup of a Telerik grid's Excel export in its Html format (Office HTML with an x:ExcelWorkbook block). */
const telerikHtml = (
  rows: string[][],
) => `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel" xmlns="http://www.w3.org/TR/REC-html40">
<head><meta http-equiv="content-type" content="application/vnd.ms-excel; charset=UTF-8"><style>.text { mso-number-format:\\@; }</style>
<!--[if gte mso 9]><xml><x:ExcelWorkbook><x:ExcelWorksheets><x:ExcelWorksheet><x:Name>SYNTHETIC TEST DATA</x:Name></x:ExcelWorksheet></x:ExcelWorksheets></x:ExcelWorkbook></xml><![endif]--></head>
<body><table border="1"><colgroup><col /><col /></colgroup><thead><tr>${rows[0].map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>
${rows
  .slice(1)
  .map((r) => `<tr>${r.map((v) => `<td class="text">${esc(v).replace(/\n/g, '<br />')}&nbsp;</td>`).join('')}</tr>`)
  .join('\n')}
</tbody></table></body></html>`;

/** A minimal .xlsx: one sheet, strings shared, `numbers` written as numeric cells (dates as day serials, as Excel keeps them). */
function xlsx(rows: (string | number)[][]): Buffer {
  const strings: string[] = [];
  const col = (i: number) => String.fromCharCode(65 + i);
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows
    .map(
      (r, y) =>
        `<row r="${y + 1}">${r.map((v, x) => (v === '' ? '' : typeof v === 'number' ? `<c r="${col(x)}${y + 1}"><v>${v}</v></c>` : `<c r="${col(x)}${y + 1}" t="s"><v>${strings.push(v) - 1}</v></c>`)).join('')}</row>`,
    )
    .join('')}</sheetData></worksheet>`;
  const parts: [string, string][] = [
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    ],
    [
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="SYNTHETIC" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ],
    ['xl/worksheets/sheet1.xml', sheet],
    [
      'xl/sharedStrings.xml',
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`,
    ],
  ];
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of parts) {
    const data = Buffer.from(text, 'utf8');
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc32(data), 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(nameBytes.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc32(data), 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(head, nameBytes, packed);
    central.push(dir, nameBytes);
    offset += head.length + nameBytes.length + packed.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dirBytes, end]);
}
/**
 * A minimal BIFF8 .xls (Excel 97–2003) as [MS-CFB] and [MS-XLS] lay it out: a compound file (512-byte sectors: one FAT
 * sector, one directory sector, the `Workbook` stream padded to 4096 bytes so it lives in the FAT, not the mini stream)
 * holding the globals (BOF, SST split into CONTINUE records every `split` bytes, strings resumed behind a new flags
 * byte, EOF) and one worksheet (BOF, LABELSST and NUMBER cells, EOF).
 */
function biff(rows: (string | number)[][], split = 200): Buffer {
  const rec = (type: number, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt16LE(type, 0);
    head.writeUInt16LE(data.length, 2);
    return Buffer.concat([head, data]);
  };
  const bof = (kind: number) => {
    const b = Buffer.alloc(16);
    b.writeUInt16LE(0x0600, 0);
    b.writeUInt16LE(kind, 2);
    return rec(0x0809, b);
  };
  const eof = rec(0x000a, Buffer.alloc(0));
  const strings: string[] = [];
  const cells: Buffer[] = [];
  rows.forEach((r, y) =>
    r.forEach((v, x) => {
      if (v === '') return;
      const b = Buffer.alloc(typeof v === 'number' ? 14 : 10);
      b.writeUInt16LE(y, 0);
      b.writeUInt16LE(x, 2);
      if (typeof v === 'number') b.writeDoubleLE(v, 6);
      else b.writeUInt32LE(strings.push(v) - 1, 6);
      cells.push(rec(typeof v === 'number' ? 0x0203 : 0x00fd, b));
    }),
  );
  // The SST: a string's 3-byte header never splits; its UTF-16 characters may, the rest resuming behind a flags byte.
  const sst: Buffer[][] = [[Buffer.alloc(8)]];
  sst[0][0].writeUInt32LE(strings.length, 0);
  sst[0][0].writeUInt32LE(strings.length, 4);
  const size = () => sst[sst.length - 1].reduce((n, b) => n + b.length, 0);
  for (const s of strings) {
    if (size() + 3 > split) sst.push([]);
    const head = Buffer.alloc(3);
    head.writeUInt16LE(s.length, 0);
    head[2] = 1;
    sst[sst.length - 1].push(head);
    let chars = Buffer.from(s, 'utf16le');
    while (chars.length) {
      const room = Math.floor((split - size()) / 2) * 2;
      if (room <= 0) {
        sst.push([Buffer.from([1])]);
        continue;
      }
      sst[sst.length - 1].push(chars.subarray(0, room));
      chars = chars.subarray(room);
    }
  }
  const globals = Buffer.concat([
    bof(0x0005),
    ...sst.map((parts, i) => rec(i === 0 ? 0x00fc : 0x003c, Buffer.concat(parts))),
    eof,
  ]);
  let stream = Buffer.concat([globals, bof(0x0010), ...cells, eof]);
  if (stream.length < 4096) stream = Buffer.concat([stream, Buffer.alloc(4096 - stream.length)]);
  const sectors = Math.ceil(stream.length / 512);
  const header = Buffer.alloc(512);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c); // FAT sectors
  header.writeUInt32LE(1, 0x30); // the directory's first sector
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(0xfffffffe, 0x3c);
  header.writeUInt32LE(0xfffffffe, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : 0xffffffff, 0x4c + i * 4);
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0);
  fat.writeUInt32LE(0xfffffffe, 4);
  for (let i = 0; i < sectors; i++) fat.writeUInt32LE(i === sectors - 1 ? 0xfffffffe : 3 + i, (2 + i) * 4);
  const entry = (name: string, type: number, child: number, start: number, bytes: number) => {
    const e = Buffer.alloc(128);
    e.write(`${name}\0`, 0, 'utf16le');
    e.writeUInt16LE((name.length + 1) * 2, 0x40);
    e[0x42] = type;
    e[0x43] = 1;
    e.writeUInt32LE(0xffffffff, 0x44);
    e.writeUInt32LE(0xffffffff, 0x48);
    e.writeUInt32LE(child, 0x4c);
    e.writeUInt32LE(start, 0x74);
    e.writeUInt32LE(bytes, 0x78);
    return e;
  };
  const directory = Buffer.concat([
    entry('Root Entry', 5, 1, 0xfffffffe, 0),
    entry('Workbook', 2, 0xffffffff, 2, stream.length),
    Buffer.alloc(256),
  ]);
  return Buffer.concat([header, fat, directory, stream, Buffer.alloc(sectors * 512 - stream.length)]);
}

/** M/D/YYYY → the day serial a workbook stores. */
const serial = (mdy: string) => {
  const [m, d, y] = mdy.split('/').map(Number);
  return (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
};

const corpus = await makeCorpus(['bag110116_minutes.pdf']);
const lake = await newLake();
t.teardown(() =>
  Promise.all([rm(corpus, { recursive: true, force: true }), rm(lake, { recursive: true, force: true })]),
);
const dir = join(corpus, 'legistar');
await mkdir(dir);
const workbookRows = (r: Record<string, string | null>) => [
  GRID,
  gridRow(r).map((v, i) => (GRID[i] === 'Introduced' && v ? serial(v) : v)),
];
const goodXlsx = xlsx(workbookRows(byFile.get('231271')!));
// The legislation grid as CSV (with a BOM, CRLF, quoted commas), as the .xls HTML table, as .xlsx, and as an .xlsx saved as .xls.
await writeFile(
  join(dir, 'Legislation_synthetic.csv'),
  '\uFEFF' + csv([GRID, gridRow(byFile.get('231274')!), gridRow(byFile.get('231273')!)]),
);
// A caption row above the header, as a saved grid may have.
await writeFile(
  join(dir, 'Legislation_synthetic.xls'),
  telerikHtml([['SYNTHETIC TEST DATA: Legislation'], GRID, gridRow(byFile.get('231272')!)]),
);
await writeFile(join(dir, 'Legislation_workbook_synthetic.xlsx'), goodXlsx);
await writeFile(join(dir, 'Legislation_workbook_synthetic.xls'), xlsx(workbookRows(byFile.get('231270')!)));
await writeFile(join(dir, 'Legislation_biff_synthetic.xls'), biff(workbookRows(byFile.get('231245')!)));
// An action-history grid (File #, Date, Ver., Action By, Action, Result) and a file's own history grid, named after its file.
await writeFile(
  join(dir, 'ActionHistory_synthetic.csv'),
  csv([
    ['File #', 'Date', 'Ver.', 'Action By', 'Action', 'Result'],
    ...history231272.map((h) => [h.file_number!, h.date!, h.ver!, h.action_by!, h.action!, (h.result ?? '').trim()]),
  ]),
);
await writeFile(
  join(dir, '231271_history_synthetic.xls'),
  telerikHtml([
    ['Date', 'Ver.', 'Action By', 'Action', 'Result', 'Action Details', 'Meeting Details', 'Video'],
    ...history231271.map((h) => [
      h.date!,
      h.ver!,
      h.action_by!,
      h.action!,
      (h.result ?? '').trim(),
      'Action details',
      'Meeting details',
      'Not available',
    ]),
  ]),
);
// A member's votes (read, not used), an unknown CSV, a broken workbook.
await writeFile(
  join(dir, 'MemberVotes_synthetic.csv'),
  csv([
    ['File #', 'Action Date', 'Title', 'Vote', 'Meeting Body'],
    ['231274', '3/26/2024', 'SYNTHETIC TEST ROW', 'Aye', 'Board of Supervisors'],
  ]),
);
await writeFile(join(dir, 'foo_synthetic.csv'), 'foo,bar\n1,2\n');
await writeFile(join(dir, 'broken_synthetic.xlsx'), goodXlsx.subarray(0, 200));
// Legistar's meeting page for 2016-11-01 as the fetcher writes it: the minutes' outcomes, one row that disagrees (161170
// was APPROVED), one file the minutes do not print.
const MEETING = 'https://sfgov.legistar.com/MeetingDetail.aspx?ID=0&GUID=SYNTHETIC-TEST-ROW';
const item = (file: string, agenda: string, type: string, action: string, result: string) => [
  '11/1/2016',
  MEETING,
  file,
  '1',
  agenda,
  `SYNTHETIC TEST ROW ${file}`,
  type,
  'Passed',
  'SYNTHETIC TEST ROW, title "quoted", and a\nsecond line',
  action,
  result,
];
await writeFile(
  join(dir, 'meeting_items.csv'),
  csv([
    [
      'Meeting Date',
      'Meeting Details',
      'File #',
      'Ver.',
      'Agenda #',
      'Name',
      'Type',
      'Status',
      'Title',
      'Action',
      'Result',
    ],
    item('160965', '1', 'Ordinance', 'FINALLY PASSED', 'Pass'),
    item('160820', '10', 'Ordinance', 'PASSED ON FIRST READING', 'Pass'),
    item('160301', '20', 'Resolution', 'ADOPTED', 'Pass'),
    item('160222', '5', 'Ordinance', 'RE-REFERRED AS AMENDED', 'Pass'),
    item('161170', '40', 'Motion', 'CONTINUED', 'Pass'),
    item('169999', '99', 'Motion', 'APPROVED', 'Pass'),
  ]),
);

const { releaseId, published } = await build(corpus, lake);
const release = await Release.open(join(lake, 'releases', releaseId), {
  poolSize: 1,
  queueLimit: 8,
  queryTimeoutMs: 60_000,
});
t.teardown(() => release.retire());

t.test('the build publishes, and every legislative file says which export it came from', async (t) => {
  t.ok(published, `release ${releaseId} published`);
  const rows = await release.pool
    .rows(`SELECT file_number, legistar.source AS source, legistar.history_source AS history_source, strftime(legistar.introduced, '%Y-%m-%d') AS introduced,
      legistar.status AS status, legistar.enactment_number AS enactment, legistar.title AS title FROM legislative_files WHERE legistar IS NOT NULL ORDER BY file_number`);
  const of = new Map(rows.map((r) => [r.file_number, r]));
  t.same([...of.keys()], ['231245', '231270', '231271', '231272', '231273', '231274'], 'the six files the grids list');
  t.equal(of.get('231274')!.source, 'legistar/Legislation_synthetic.csv (legislation grid, CSV)');
  t.equal(of.get('231273')!.enactment, byFile.get('231273')!.enactment_number, 'Enactment # read from the CSV');
  t.equal(of.get('231273')!.title, byFile.get('231273')!.title, 'a quoted title with commas, whole');
  t.equal(of.get('231272')!.source, 'legistar/Legislation_synthetic.xls (legislation grid, HTML table)');
  t.equal(of.get('231272')!.status, 'Pending Committee Action');
  t.equal(of.get('231271')!.source, 'legistar/Legislation_workbook_synthetic.xlsx (legislation grid, xlsx workbook)');
  t.equal(
    of.get('231270')!.source,
    'legistar/Legislation_workbook_synthetic.xls (legislation grid, xlsx workbook)',
    'an .xls holding a workbook is read by its bytes',
  );
  t.equal(of.get('231271')!.introduced, '2023-12-12', "a workbook's day serial read as the date");
  t.equal(
    of.get('231245')!.source,
    'legistar/Legislation_biff_synthetic.xls (legislation grid, BIFF8 workbook)',
    'a BIFF8 .xls',
  );
  t.equal(of.get('231245')!.title, byFile.get('231245')!.title, 'its long title whole across CONTINUE records');
  t.equal(of.get('231245')!.introduced, '2023-12-12');
  t.equal(of.get('231274')!.introduced, '2023-12-12', 'M/D/YYYY read as the date');
  t.equal(of.get('231272')!.history_source, 'legistar/ActionHistory_synthetic.csv (action history grid, CSV)');
  t.equal(
    of.get('231271')!.history_source,
    'legistar/231271_history_synthetic.xls (action history grid, HTML table)',
    'a file history grid, its file from its name',
  );
  const [h] = await release.pool.rows(
    `SELECT [h.action FOR h IN legistar.history] AS actions FROM legislative_files WHERE file_number = '231272'`,
  );
  t.same(
    h.actions,
    ['ASSIGNED UNDER 30 DAY RULE', 'REFERRED TO DEPARTMENT', 'RESPONSE RECEIVED'],
    'the history in date order',
  );
});

t.test(
  'an unknown CSV, a broken workbook and an unused export are problems naming the file and its columns',
  async (t) => {
    const problems = await release.pool.rows(
      `SELECT document_id, page, kind, detail FROM problems WHERE document_id LIKE 'legistar/%' ORDER BY document_id`,
    );
    t.same(
      problems.map((p) => [p.document_id, p.page, p.kind]),
      [
        ['legistar/MemberVotes_synthetic.csv', 0, 'unused-export'],
        ['legistar/broken_synthetic.xlsx', 0, 'unreadable-export'],
        ['legistar/foo_synthetic.csv', 0, 'unknown-export'],
      ],
    );
    t.match(
      problems[2].detail,
      /^legistar\/foo_synthetic\.csv: CSV with columns "foo", "bar": not a Legistar export shape/,
    );
    t.match(problems[1].detail, /^legistar\/broken_synthetic\.xlsx: not read: .*(zip|truncated)/);
    t.match(problems[0].detail, /"File #", "Action Date", "Title", "Vote", "Meeting Body".*1 rows read, not used/);
    t.same(release.manifest.problems['unknown-export'], 1, 'counted in the manifest');
  },
);

t.test('the meeting items are a table of the release', async (t) => {
  const rows = await release.pool.rows(
    `SELECT strftime(meeting_date, '%Y-%m-%d') AS d, file_number, action, result, action_type, outcome, meeting_url, source, title FROM legistar_meeting_items ORDER BY file_number`,
  );
  t.equal(rows.length, 6);
  const one = rows.find((r) => r.file_number === '160820')!;
  t.same(
    [one.d, one.action, one.result, one.action_type, one.outcome, one.meeting_url, one.source],
    [
      '2016-11-01',
      'PASSED ON FIRST READING',
      'Pass',
      'first-reading',
      'passed',
      MEETING,
      'legistar/meeting_items.csv (meeting items, CSV)',
    ],
  );
  t.equal(one.title, 'SYNTHETIC TEST ROW, title "quoted", and a\nsecond line', 'a quoted field with a newline');
});

t.test('the quality report lists exactly the disagreeing row, with counts and coverage', async (t) => {
  const running = await start(testConfig({ lakeDir: lake }));
  t.teardown(() => running.close());
  const report = await getValid(t, `${running.url}/api/quality`, 'quality-report.json');
  const w = report.legistarMeetings;
  t.same(w.coverage.meetingsCompared, ['2016-11-01']);
  t.same(w.coverage.legistarWithoutMinutes, []);
  const [{ files }] = await release.pool.rows(
    `SELECT count(DISTINCT file_number)::INTEGER AS files FROM roll_calls WHERE document_id = '2016-11-01-minutes' AND file_number IS NOT NULL`,
  );
  t.same(w.counts, {
    compared: 5,
    agreeing: 4,
    disagreeing: 1,
    onlyInLegistar: 1,
    onlyInMinutes: Number(files) - 5,
    legistarRows: 6,
  });
  t.same(
    w.byMeeting,
    [
      {
        meetingDate: '2016-11-01',
        compared: 5,
        agreeing: 4,
        disagreeing: 1,
        onlyInLegistar: 1,
        onlyInMinutes: Number(files) - 5,
        meetingUrl: MEETING,
      },
    ],
    'meeting by meeting',
  );
  t.equal(w.disagreements.length, 1);
  const [d] = w.disagreements;
  t.same(
    [
      d.meetingDate,
      d.fileNumber,
      d.legistar.action,
      d.legistar.result,
      d.legistar.meetingUrl,
      d.minutes.action,
      d.minutes.result,
    ],
    ['2016-11-01', '161170', 'CONTINUED', 'Pass', MEETING, 'APPROVED', 'approved'],
  );
  const [rc] = await release.pool.rows(`SELECT page::INTEGER AS page FROM roll_calls WHERE file_number = '161170'`);
  t.equal(d.minutes.page, rc.page);
  t.equal(
    d.minutes.pageUrl,
    `${running.url}/api/pages/2016-11-01-minutes-p${rc.page}`,
    'the minutes page it is printed on',
  );
  const foo = report.problems.rows.find((p: Json) => p.documentId === 'legistar/foo_synthetic.csv');
  t.same([foo.page, foo.kind, foo.pageUrl], [0, 'unknown-export', null], 'an export problem has no page record');
});
