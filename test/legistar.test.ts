// Legistar exports in legislative files: a corpus of the 2016-11-01 minutes plus an export naming one of its files
// (written here in the real exports' columns) builds a release whose `legislative_files` row holds both sources apart,
// and whose search resolves the export's enactment number to the minutes page of that file.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import t from 'tap';

import { Release } from '../src/lake/release.ts';
import { namedFiles } from '../src/queries/numbers.ts';
import { start } from '../src/server.ts';
import { build, makeCorpus, newLake } from './corpora.ts';
import type { Json } from './fixture.ts';
import { CORPUS, getValid, testConfig } from './fixture.ts';

const corpus = await makeCorpus(['bag110116_minutes.pdf']);
const lake = await newLake();
t.teardown(() =>
  Promise.all([rm(corpus, { recursive: true, force: true }), rm(lake, { recursive: true, force: true })]),
);
const header = (file: string) => readFile(join(CORPUS, 'legistar', file), 'utf8').then((s) => s.split('\n')[0]);
await mkdir(join(corpus, 'legistar'));
// File 160965 (Better Roof Requirements, printed in these minutes) as an export would list it; the values are the test's.
await writeFile(
  join(corpus, 'legistar', 'legislation_2016.csv'),
  `${await header('legislation_2023.csv')}
1,160965,Ordinance,9/13/2016,"",11/18/2016,"Building, Green Building Codes - Better Roof Requirements",Passed,"Clerk of the Board",11/18/2016,099-16,"Ordinance amending the Building Code and the Green Building Code to require solar or living roofs.","Scott Wiener, Malia Cohen","161000",https://sfgov.legistar.com/LegislationDetail.aspx?ID=1
`,
);
await writeFile(
  join(corpus, 'legistar', 'history_2016.csv'),
  `${await header('history_2023.csv')}
1,1,11/18/2016,1,Mayor,APPROVED," ",160965
2,1,11/8/2016,1,"Board of Supervisors","FINALLY PASSED",Pass,160965
3,1,11/1/2016,1,"Board of Supervisors","PASSED ON FIRST READING",Pass,160965
`,
);
const { releaseId } = await build(corpus, lake);
const release = await Release.open(join(lake, 'releases', releaseId), {
  poolSize: 1,
  queueLimit: 8,
  queryTimeoutMs: 60_000,
});
t.teardown(() => release.retire());

t.test('a file printed in the minutes and listed by Legistar: one row, each source in its own columns', async (t) => {
  const [row] = await release.pool.rows(`SELECT * FROM legislative_files WHERE file_number = '160965'`);
  t.ok((row.meetings as unknown[]).length > 0, 'its appearance in the minutes');
  t.ok(
    (row.sponsors as string[]).includes('Wiener') && (row.sponsors as string[]).every((s) => !s.includes(' ')),
    'sponsors as the minutes print them: surnames',
  );
  const legistar = row.legistar as Record<string, Json>;
  t.same(
    [
      legistar.type,
      legistar.status,
      legistar.enactment_number,
      String(legistar.introduced),
      String(legistar.final_action),
    ],
    ['Ordinance', 'Passed', '099-16', '2016-09-13', '2016-11-18'],
  );
  t.same(legistar.sponsors, ['Scott Wiener', 'Malia Cohen'], 'full names from Legistar');
  t.same(legistar.related_files, ['161000']);
  t.same(
    legistar.history.map((h: Json) => [String(h.date), h.action, h.result]),
    [
      ['2016-11-01', 'PASSED ON FIRST READING', 'Pass'],
      ['2016-11-08', 'FINALLY PASSED', 'Pass'],
      ['2016-11-18', 'APPROVED', null],
    ],
    'the history in date order',
  );
  const [{ n }] = await release.pool.rows(
    `SELECT count(*)::INTEGER AS n FROM legislative_files WHERE legistar IS NOT NULL`,
  );
  t.equal(n, 1, 'only the file the export lists');
});

t.test('the enactment number Legistar knows resolves to the page printing the file', async (t) => {
  t.same(await namedFiles(release, 'Ordinance No. 99-16'), ['160965'], 'padded in the export, plain in the query');
  const running = await start(testConfig({ lakeDir: lake }));
  t.teardown(() => running.close());
  const body = await getValid(
    t,
    `${running.url}/api/search?q=${encodeURIComponent('Ordinance No. 99-16')}`,
    'search-response.json',
  );
  const [row] = await release.pool.rows(
    `SELECT meetings[1].start_page AS page FROM legislative_files WHERE file_number = '160965'`,
  );
  t.equal(body.results[0]?.id, `2016-11-01-minutes-p${row.page}`, 'the minutes page of file 160965 first');
});
