// The query vocabulary: hyphenated numbers as one word, hyphenated compounds as a unit before their parts, and the
// municipal thesaurus row by row, in the analysis and in /api/search over the real corpus.
import { join } from 'node:path';

import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { sqlString } from '../core/sql.ts';
import { indexTerms, parseQuery, terms, WEIGHTS, words } from '../core/text/analysis.ts';
import { THESAURUS } from '../core/text/thesaurus.ts';
import { namedFiles } from '../src/queries/numbers.ts';
import type { Json } from './fixture.ts';
import { FIXTURE_LAKE, fixtureRelease, get, getValid, openFixtureRelease, startFixtureServer } from './fixture.ts';

t.test('enactment, resolution and motion numbers are one word; file numbers and amounts stay whole', async (t) => {
  t.same(terms('Ordinance No. 178-16'), ['ordin', '178-16']);
  t.same(terms('Resolution No.157-99,'), ['resolut', '157-99']);
  t.same(terms('Motion No. M16-152'), ['motion', 'm16-152']);
  t.same(terms('067-24'), ['67-24'], 'Legistar pads with zeros, the agendas do not');
  t.same(terms('File No. 170240; $2,237,020'), ['file', '170240', '2237020']);
  t.same(terms('FY2016-2017 pre-1979'), ['fy2016', '2017', 'pre', '1979'], 'a word and a number stay apart');
  t.same(
    terms('2017-2018 (415) 554-5184 2016-11-01 No. 104-28-069'),
    ['2017', '2018', '415', '554', '5184', '2016', '11', '01', '104', '28', '069'],
    'years, telephone numbers, dates and longer codes stay apart',
  );
  t.same(parseQuery('Ordinance No. 178-16').weighted, [], 'a number is no compound');
});

t.test(
  'accents, apostrophes and letters beyond ASCII: a text analyses the same whichever of them it holds',
  async (t) => {
    // Texts whose letters are all ASCII after accents are stripped take a faster path than texts with other letters.
    t.same(words("O’Brien's Café, Motion M16-152"), ['obriens', 'cafe', 'motion', 'm16-152']);
    t.same(words("O’Brien's Café, Motion M16-152 Straße"), ['obriens', 'cafe', 'motion', 'm16-152', 'straße']);
    t.same(words('ÉCOLE naïve ﬁle Ω99-123 ２０２４'), ['ecole', 'naive', 'file', 'ω99-123', '2024']);
    t.same(words('“File No. 240123” — 1,234,567 §5'), ['file', 'no', '240123', '1234567', '5']);
    t.same(words('Ω ﬁle No. 067-24'), ['ω', 'file', 'no', '67-24']);
    t.same(words('ﬁle No. 067-24'), ['file', 'no', '67-24']);
  },
);

/** words() as written before its ASCII path, with Unicode patterns only: the reference the fast path must equal. */
function unicodeWords(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/(\p{L})['’](\p{L})/gu, '$1$2');
  const word =
    /(?<![\p{L}\p{N}-])(?:\p{N}{1,3}-\p{N}{2}|\p{L}\p{N}{2}-\p{N}{3,4})(?![\p{L}\p{N}]|-\p{N})|[\p{L}\p{N}]+/gu;
  return (folded.match(word) ?? []).map((w) => (w.includes('-') ? w.replace(/^(\p{L}?)0+(?=\p{N})/u, '$1') : w));
}

t.test(
  'every page and item title of the real corpus gives the same words on the ASCII path as on the Unicode one',
  async (t) => {
    const dir = join(FIXTURE_LAKE, 'releases', await fixtureRelease());
    const instance = await DuckDBInstance.create(':memory:');
    const db = await instance.connect();
    const texts = (
      await db.runAndReadAll(`
    SELECT text FROM read_parquet(${sqlString(join(dir, 'pages/**/*.parquet'))})
    UNION ALL SELECT title FROM read_parquet(${sqlString(join(dir, 'items/**/*.parquet'))})`)
    )
      .getRows()
      .map(([text]) => String(text ?? ''));
    db.closeSync();
    instance.closeSync();
    t.ok(texts.length > 2500, `${texts.length} pages and item titles`);
    let differing = 0;
    let count = 0;
    for (const text of texts) {
      const expected = unicodeWords(text);
      count += expected.length;
      // The same text with a letter beyond ASCII after it takes the Unicode path inside words().
      if (
        JSON.stringify(words(text)) !== JSON.stringify(expected) ||
        JSON.stringify(words(`${text} Ω`)) !== JSON.stringify([...expected, 'ω'])
      )
        differing++;
    }
    t.equal(differing, 0, `no text differs; ${count} words`);
  },
);

t.test('a hyphenated compound is a weighted phrase of its parts', async (t) => {
  t.same(indexTerms('short-term rentals'), ['short', 'term', 'rental'], 'the index keeps the parts');
  t.same(parseQuery('short-term').weighted, [
    { terms: ['short', 'term'], weight: 1, partWeight: WEIGHTS.compoundPart, expansion: false },
  ]);
  t.same(
    parseQuery('in-law').weighted,
    [{ terms: ['IN', 'law'], weight: 1, partWeight: WEIGHTS.compoundPart, expansion: false }],
    'stopwords keep their place',
  );
  t.same(parseQuery('"short-term" permits').weighted, [], 'a quoted compound is a phrase already');
  t.same(parseQuery('tax rate 2017-2018').weighted, [], 'digits alone are no compound: each year counts');
});

t.test('the thesaurus, row by row: each name expands to the others, at the expansion weight', async (t) => {
  for (const row of THESAURUS) {
    t.test(row[0], async (t) => {
      t.ok(row.length > 1, 'a row names at least two things');
      for (const name of row) {
        const expanded = parseQuery(name).weighted.filter((w) => w.expansion);
        const others = row.filter(
          (other) => other !== name && indexTerms(other).join(' ') !== indexTerms(name).join(' '),
        );
        t.same(
          expanded.map((w) => w.terms),
          others.map(indexTerms),
          `${name} → ${others.join(', ')}`,
        );
        t.ok(
          expanded.every((w) => w.weight > 0 && w.weight <= WEIGHTS.expansion && w.partWeight === 0),
          'lower weight, only where printed in order',
        );
        t.same(
          parseQuery(`${name} ordinance`)
            .weighted.filter((w) => w.expansion)
            .map((w) => w.terms),
          others.map(indexTerms),
          'inside a longer query too',
        );
      }
    });
  }
  const words = THESAURUS.flat().map((name) => indexTerms(name).join(' '));
  t.same(
    words.filter((w, i) => words.indexOf(w) !== i),
    [],
    'no name is in two rows',
  );
  t.same(parseQuery('bartender').weighted, [], 'a name matches whole words only');
  t.same(parseQuery('"BART" station').weighted, [], 'a quoted name is meant as printed: no expansion');
  t.same(parseQuery('BART station').weighted[0].instead, ['bart'], 'an expansion knows the name the query used');
  t.same(
    parseQuery('Airbnb').weighted.map((w) => [w.terms.join(' '), w.weight]),
    [
      ['short term rental', WEIGHTS.expansion / 3],
      ['vacat rental', WEIGHTS.expansion / 2],
      ['host platform', WEIGHTS.expansion / 2],
    ],
    'a longer name at less',
  );
});

const running = await startFixtureServer();
t.teardown(() => running.close());
const search = (q: string, limit = 20) =>
  getValid(t, `${running.url}/api/search?q=${encodeURIComponent(q)}&limit=${limit}`, 'search-response.json');
const release = await openFixtureRelease(t);
const textOf = async (id: string) =>
  (await get(`${running.url}/api/pages/${id}`)).json.text.replace(/\s+/g, ' ') as string;

/** The pages where a file's item is printed, meeting by meeting (legislative_files.meetings, start to end page). */
async function itemPages(file: string): Promise<string[]> {
  const [row] = await release.pool.rows(`SELECT meetings FROM legislative_files WHERE file_number = '${file}'`);
  return (row.meetings as Json[]).flatMap((m) =>
    Array.from({ length: m.end_page - m.start_page + 1 }, (_, i) => `${m.document_id}-p${m.start_page + i}`),
  );
}

t.test(
  'a file number ranks the pages printing its item first, meeting by meeting, then pages that cite it',
  async (t) => {
    const pages = await itemPages('161171');
    t.same(pages, ['2016-11-01-agenda-p17', '2016-11-01-minutes-p16'], 'file 161171: its agenda and minutes pages');
    const body = await search('161171');
    t.same(
      body.results
        .slice(0, 2)
        .map((r: Json) => r.id)
        .sort(),
      pages.sort(),
    );
    t.equal(body.results[2]?.id, '2016-11-29-agenda-p17', 'then the hearing that cites it');
    t.match(await textOf('2016-11-29-agenda-p17'), /File No\. 161171/);
    for (const file of ['170240', '160222', '161146', '170834']) {
      const ids = (await search(file)).results.map((r: Json) => r.id);
      const own = await itemPages(file);
      t.same(ids.slice(0, own.length).sort(), [...own].sort(), `file ${file}: its ${own.length} item pages first`);
      const meetings = ids.slice(0, own.length).map((id: string) => id.slice(0, 10));
      t.ok(
        meetings.every((d: string, i: number) => i === 0 || d === meetings[i - 1] || !meetings.slice(0, i).includes(d)),
        `file ${file}: grouped by meeting`,
      );
    }
  },
);

t.test('an enactment or motion number resolves to its file, from the minutes or from Legistar', async (t) => {
  t.same(await namedFiles(release, 'Motion No. M16-155'), ['161171'], 'printed in the 2016-11-01 minutes');
  t.same(await namedFiles(release, 'Ordinance No. 067-24'), ['231274'], 'from the Legistar export');
  t.same(await namedFiles(release, '67-24'), ['231274'], 'as the agendas print it, without the zero');
  t.same(await namedFiles(release, '999999 178 123-45'), [], 'a number the lake does not know names nothing');
  t.same(await namedFiles(release, 'M17-082'), ['170575'], 'cited with its file: Motion No. M17-082 (File No. 170575)');
  t.same(
    await namedFiles(release, 'Ordinance No. 140-17'),
    ['170441'],
    'cited across a line break: (File No.\\n170441)',
  );
  t.same(await namedFiles(release, '170240, 161171.'), ['170240', '161171'], 'in the order the query names them');
  t.same(
    await namedFiles(release, '$170240 or 1702400 or 170240.5 or 1,170240'),
    [],
    'an amount or a longer number names no file',
  );
  const body = await search('Motion No. M16-155');
  t.same(
    body.results.slice(0, 2).map((r: Json) => r.id),
    ['2016-11-01-minutes-p16', '2016-11-01-agenda-p17'],
    "the file's own pages first, the one printing the number first",
  );
  const cited = body.results.findIndex((r: Json) => r.id === '2016-11-29-agenda-p17');
  t.ok(cited >= 2, `the page citing it twice comes after (${cited})`);
  const ordinance = await search('Ordinance No. 178-16');
  for (const r of ordinance.results.slice(0, 2)) t.match(await textOf(r.id), /178-16/, `${r.id} prints 178-16`);
  t.ok(
    ordinance.results.slice(2).every((r: Json) => r.score < ordinance.results[1].score / 2),
    'pages that only say Ordinance rank far below',
  );
});

t.test(
  'short-term matches as a unit before its parts: no page with only "terms" ranks above one printing it',
  async (t) => {
    const body = await search('short-term', 50);
    const printed = await Promise.all(body.results.map(async (r: Json) => /short[- ]term/i.test(await textOf(r.id))));
    const firstWithout = printed.indexOf(false);
    t.ok(firstWithout > 3, `the pages printing short-term come first (${firstWithout})`);
    t.equal(printed.slice(firstWithout).indexOf(true), -1, 'and every one of them before any page without it');
    t.match(body.results[0].snippet, /\*\*short\*\* \*\*term\*\*|\*\*short-term\*\*/i, 'the snippet marks it');
  },
);

t.test('the thesaurus finds what people call it, below what the page itself says', async (t) => {
  const lactation = await search('lactation');
  const breastfeeding = await search('breastfeeding');
  t.same(
    breastfeeding.results.map((r: Json) => r.id).sort(),
    lactation.results.map((r: Json) => r.id).sort(),
    'breastfeeding finds the lactation pages',
  );
  t.ok(breastfeeding.results[0].score < lactation.results[0].score, 'at a lower weight');
  t.same(breastfeeding.interpretedQueries, ['breastfeed', '~lactat', '~"breast feed"'], 'the expansions are stated');
  t.match(breastfeeding.results[0].snippet, /\*\*lactation\*\*/i);
  const adu = await search('in-law unit');
  t.match(await textOf(adu.results[0].id), /Accessory Dwelling Units?/i, 'in-law unit: accessory dwelling units');
  const airbnb = await search('Airbnb');
  t.ok(
    airbnb.results.some((r: Json) => r.id === '2016-11-15-agenda-p18'),
    'Airbnb: the short-term rental ordinance that never names it',
  );
});
