// One bad document never blocks the rest: the 38 shared documents plus a truncated PDF, an encrypted one, an empty
// file and the 2016 minutes filed under a 2018 meeting publish the 38; the four are left out as problems the quality
// report and health show, and no roll call is dated by the wrong meeting.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { buildRelease } from '../pipelines/build.ts';
import { readCorpus } from '../pipelines/sources.ts';
import { start } from '../src/server.ts';
import { encryptedPdf, makeCorpus, newLake } from './corpora.ts';
import { CORPUS, get, ROOT, schemaErrors, testConfig } from './fixture.ts';

const names = (await readFile(join(CORPUS, 'MANIFEST.tsv'), 'utf8'))
  .split('\n')
  .slice(1)
  .filter(Boolean)
  .map((r) => r.split('\t')[0].replace('pdfs/', ''));
const corpus = await makeCorpus(names);
const bad = {
  truncated: 'pdfs/bag010918_agenda.pdf', // the first 60 KB of a real agenda: no trailer, no xref
  encrypted: 'pdfs/bag011618_agenda.pdf',
  empty: 'pdfs/bag012318_agenda.pdf',
  misdated: 'pdfs/bag013018_minutes.pdf', // the real 2016-11-01 minutes, filed under 2018-01-30
};
await writeFile(
  join(corpus, bad.truncated),
  (await readFile(join(CORPUS, 'pdfs', 'bag011017_agenda.pdf'))).subarray(0, 60_000),
);
await writeFile(join(corpus, bad.encrypted), await encryptedPdf());
await writeFile(join(corpus, bad.empty), '');
await copyFile(join(CORPUS, 'pdfs', 'bag110116_minutes.pdf'), join(corpus, bad.misdated));
const row = (file: string, date: string, kind: string) =>
  [file, date, kind, '', '', '', `https://sfbos.org/sites/default/files/${file.slice(5)}`, ''].join('\t');
await writeFile(
  join(corpus, 'MANIFEST.tsv'),
  (await readFile(join(corpus, 'MANIFEST.tsv'), 'utf8')) +
    [
      row(bad.truncated, '2018-01-09', 'agenda'),
      row(bad.encrypted, '2018-01-16', 'agenda'),
      row(bad.empty, '2018-01-23', 'agenda'),
      row(bad.misdated, '2018-01-30', 'minutes'),
    ].join('\n') +
    '\n',
);

const lake = await newLake();
const result = await buildRelease({
  corpus,
  lake,
  cacheDir: join(ROOT, '.cache', 'extract'),
  quiet: true,
  embed: false,
  history: false,
});
const dir = result.dir;
const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
const db = await (await DuckDBInstance.create(':memory:')).connect();
const n = async (sql: string) => Number((await db.runAndReadAll(sql)).getRows()[0][0]);
const table = (name: string) => `read_parquet('${dir}/${name}/*/*.parquet', hive_partitioning = true)`;

t.test('the 38 documents publish; the four are left out, each with its reason', async (t) => {
  t.ok(result.published);
  t.equal(result.documents, 38);
  t.equal(manifest.inputs.length, 38);
  t.equal(await n(`SELECT count(*) FROM ${table('documents')}`), 38);
  t.same(
    manifest.excluded.map((e: { file: string; kind: string }) => [e.file, e.kind]).sort(),
    [
      [bad.truncated, 'unreadable-pdf'],
      [bad.encrypted, 'unreadable-pdf'],
      [bad.empty, 'empty-document'],
      [bad.misdated, 'date-mismatch'],
    ].sort(),
  );
  const misdated = manifest.excluded.find((e: { kind: string }) => e.kind === 'date-mismatch');
  t.match(
    misdated.detail,
    /bag013018_minutes\.pdf: its cover prints the meeting of 2016-11-01, its manifest row says 2018-01-30/,
  );
  t.match(
    manifest.excluded.find((e: { file: string }) => e.file === bad.encrypted).detail,
    /password/i,
    'the reader says why',
  );
});

t.test('no vote is dated by the wrong meeting', async (t) => {
  t.equal(await n(`SELECT count(*) FROM ${table('roll_calls')} WHERE year = 2018`), 0, 'no 2018 roll call');
  t.equal(await n(`SELECT count(*) FROM ${table('positions')} WHERE meeting_date = DATE '2018-01-30'`), 0);
  t.ok(
    (await n(`SELECT count(*) FROM ${table('roll_calls')} WHERE meeting_date = DATE '2016-11-01'`)) > 0,
    'the real 2016-11-01 roll calls stay',
  );
});

t.test('each is a problem row at page 0, named by its document id', async (t) => {
  const rows = (
    await db.runAndReadAll(
      `SELECT document_id, page, kind FROM '${dir}/problems.parquet' WHERE page = 0 AND kind IN ('unreadable-pdf', 'empty-document', 'date-mismatch') ORDER BY document_id`,
    )
  ).getRowObjectsJson();
  t.same(rows, [
    { document_id: '2018-01-09-agenda', page: 0, kind: 'unreadable-pdf' },
    { document_id: '2018-01-16-agenda', page: 0, kind: 'unreadable-pdf' },
    { document_id: '2018-01-23-agenda', page: 0, kind: 'empty-document' },
    { document_id: '2018-01-30-minutes', page: 0, kind: 'date-mismatch' },
  ]);
});

t.test('health says degraded with the count; the quality report lists the four', async (t) => {
  const running = await start(testConfig({ lakeDir: lake }));
  t.teardown(() => running.close());
  const health = (await get(`${running.url}/api/health`)).json;
  t.equal(schemaErrors('health.json', health), '');
  t.equal(health.status, 'degraded');
  t.equal(health.excludedDocuments, 4);
  t.equal(health.documents, 38);
  const quality = (await get(`${running.url}/api/quality`)).json;
  t.equal(schemaErrors('quality-report.json', quality), '');
  t.same(quality.excluded, manifest.excluded);
  t.equal(quality.totals.documents, 38);
  t.equal(quality.totals.problems, quality.problems.total, 'the total counts the page-0 problems too');
  t.ok(
    quality.problems.rows.some(
      (p: { documentId: string; kind: string; pageUrl: string | null }) =>
        p.documentId === '2018-01-30-minutes' && p.kind === 'date-mismatch' && p.pageUrl === null,
    ),
  );
});

t.test(
  'the corpus reader leaves out what it can tell without reading: missing, bad rows, duplicates, checksums',
  async (t) => {
    const c = await makeCorpus(['bag110116_minutes.pdf', 'bag111516_agenda.pdf']);
    const manifestText = await readFile(join(c, 'MANIFEST.tsv'), 'utf8');
    const lines = manifestText.split('\n').filter(Boolean);
    const agenda = lines.find((l) => l.includes('bag111516_agenda'))!;
    await copyFile(join(c, 'pdfs', 'bag111516_agenda.pdf'), join(c, 'pdfs', 'copy.pdf'));
    await writeFile(join(c, 'pdfs', 'page.html'), '<html>a login page</html>');
    await writeFile(
      join(c, 'MANIFEST.tsv'),
      [
        ...lines,
        agenda.replace('pdfs/bag111516_agenda.pdf', 'pdfs/copy.pdf'), // the same meeting and kind again
        row('pdfs/gone.pdf', '2018-02-06', 'agenda'),
        row('pdfs/page.html', '2018-02-13', 'agenda'),
        row('pdfs/x.pdf', '2018-02-30', 'agenda'),
        row('pdfs/y.pdf', '2018-02-27', 'transcript'),
        lines[1].replace(/\t[0-9a-f]{64}\t/, `\t${'0'.repeat(64)}\t`).replace('2016-11-01', '2016-11-02'),
      ].join('\n') + '\n',
    );
    const { documents, excluded } = await readCorpus(c);
    t.same(
      documents.map((d) => d.id),
      ['2016-11-01-minutes', '2016-11-15-agenda'],
    );
    t.same(
      excluded.map((e) => [e.file, e.documentId, e.kind]),
      [
        ['pdfs/gone.pdf', '2018-02-06-agenda', 'missing-document'],
        ['pdfs/page.html', '2018-02-13-agenda', 'not-a-pdf'],
        ['pdfs/x.pdf', null, 'bad-manifest-row'],
        ['pdfs/y.pdf', null, 'bad-manifest-row'],
        ['pdfs/bag110116_minutes.pdf', '2016-11-02-minutes', 'checksum-mismatch'],
        ['pdfs/copy.pdf', '2016-11-15-agenda', 'duplicate-document'],
      ],
    );
  },
);

t.test('a corpus of nothing readable is refused, naming each reason', async (t) => {
  const c = await makeCorpus(['bag110116_minutes.pdf']);
  await writeFile(join(c, 'pdfs', 'bag110116_minutes.pdf'), '');
  await t.rejects(readCorpus(c), {
    name: 'SourceError',
    message: /CORPUS: no readable documents .*bag110116_minutes\.pdf: the file is empty/,
  });
});

t.test('a manifest URL that is not the Board’s is a problem, never a link', async (t) => {
  const c = await makeCorpus(['bag110116_minutes.pdf']);
  const [head, first] = (await readFile(join(c, 'MANIFEST.tsv'), 'utf8')).split('\n');
  const cols = head.split('\t');
  const values = first.split('\t');
  values[cols.indexOf('official_url')] = 'javascript:alert(document.domain)';
  values[cols.indexOf('archive_url')] = 'https://sfbos.org.evil.example/bag110116_minutes.pdf';
  await writeFile(join(c, 'MANIFEST.tsv'), `${head}\n${values.join('\t')}\n`);
  const { documents, problems } = await readCorpus(c);
  t.equal(
    documents[0].officialUrl,
    'https://sfbos.org/sites/default/files/bag110116_minutes.pdf',
    'the default official URL stands',
  );
  t.equal(documents[0].archiveUrl, null);
  t.same(
    problems.map((p) => [p.document_id, p.kind]),
    [
      ['2016-11-01-minutes', 'bad-url'],
      ['2016-11-01-minutes', 'bad-url'],
    ],
  );
  t.match(
    problems[0].detail,
    /official_url "javascript:alert\(document\.domain\)" is not an http\(s\) URL on the Board's hosts/,
  );
});
