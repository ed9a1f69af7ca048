// Addresses and parties as entities in search: a query naming a street address (or a number within a range printed on
// one street) or a party ranks the items carrying it first, and page search the pages those items are printed on,
// where BM25 alone ranks a party's other mentions or the same street's other numbers as high.
import t from 'tap';

import { addressMentions, mentionsStreet, parseAddress, partyKey } from '../core/text/entities.ts';
import { get, openFixtureRelease, startFixtureServer } from './fixture.ts';
import type { Json } from './json.ts';

t.test('addresses as printed and as asked', async (t) => {
  t.same(parseAddress('162-164 Alhambra Street'), { street: ['alhambra'], low: 162, high: 164 });
  t.same(
    parseAddress('245-1st Street'),
    { street: ['1st'], low: 245, high: 245 },
    "the City's hyphenated numbered streets",
  );
  t.same(parseAddress('1515 South Van Ness Avenue'), { street: ['south', 'van', 'ness'], low: 1515, high: 1515 });
  t.same(parseAddress('1900-1910-18th Street'), { street: ['18th'], low: 1900, high: 1910 });
  t.same(parseAddress('3124-3128A Laguna Street'), { street: ['laguna'], low: 3124, high: 3128 });
  t.same(parseAddress('One Oak Street'), { street: ['oak'], low: 1, high: 1 }, 'a spelled One');
  t.same(parseAddress('Fillmore and Green Streets'), null, 'no number, no address');
  const asked = (q: string) => addressMentions(q).map((m) => `${m.low}-${m.high} ${m.street.join(' ')}`);
  t.same(asked('163 Alhambra St'), ['163-163 alhambra']);
  t.same(asked('427 14th Street and 174B Langton'), ['427-427 14th', '174-174 langton']);
  t.same(asked('what happened at 100 to 110 Steiner Street in 2017'), ['100-110 steiner']);
  t.same(asked('housing at 1515 South Van Ness'), ['1515-1515 south van ness']);
  t.same(
    asked('settlement of $2,500 under ordinance 178-16'),
    [],
    'amounts and enactment numbers are not street numbers',
  );
  t.same(asked('Settlement of Lawsuit - 501 Folsom Street, LLC'), [], 'a company named after its address');
  const range = parseAddress('162-164 Alhambra Street')!;
  t.ok(mentionsStreet(addressMentions('163 Alhambra Street')[0], range), 'a number inside the printed range');
  t.notOk(mentionsStreet(addressMentions('165 Alhambra Street')[0], range), 'a neighbour outside it');
  t.notOk(mentionsStreet(addressMentions('163 Alhambra Court Lane')[0], parseAddress('163 Court Street')!));
  t.equal(partyKey('The Beresford Corporation'), 'beresford');
  t.equal(partyKey('Municipal Executives’ Association'), 'municipal executives association');
});

const running = await startFixtureServer();
const release = await openFixtureRelease(t);
t.teardown(() => running.close());
const api = async (path: string, q: string) =>
  (await get(`${running.url}${path}${path.includes('?') ? '&' : '?'}q=${encodeURIComponent(q)}`)).json;

t.test('a number within a printed range ranks the items and pages of that address first', async (t) => {
  const items = await api('/api/items?groupBy=file&limit=10', '163 Alhambra Street');
  const files = items.results.slice(0, 4).map((r: Json) => r.fileNumber);
  t.same(files.sort(), ['161174', '161175', '161176', '161177'], 'the four files on 162-164 Alhambra Street');
  for (const r of items.results.slice(0, 4)) t.same(r.extracted.addresses, ['162-164 Alhambra Street']);
  const pages = await api('/api/search?limit=5', '163 Alhambra Street');
  t.match(
    pages.results[0].snippet.replaceAll('**', ''),
    /162-164 Alhambra Street/,
    'the first page prints the address',
  );
});

t.test('a company named after an address is the party, not the street', async (t) => {
  const items = await api('/api/items?limit=5', '501 Folsom Street LLC');
  t.equal(items.results[0].fileNumber, '161265');
  t.match(items.results[0].extracted.parties, [/501 Folsom Street/]);
});

t.test('a party named by part of its name, under filters', async (t) => {
  const items = await api('/api/items?groupBy=file', 'Beresford');
  t.equal(items.results[0].fileNumber, '161142');
  const dated = await api('/api/items?date=2016-12-06', 'Beresford');
  t.same(
    dated.results.map((r: Json) => [r.fileNumber, r.meetingDate]),
    [['161142', '2016-12-06']],
    'the pins keep to the meeting asked: its one item of the file',
  );
  const none = await api('/api/items?from=2020&to=2020', 'Beresford');
  t.equal(none.results.length, 0, 'nor do they bring a year not asked');
});

t.test('every address and party the lake extracted: an item carrying it ranks first when searched', async (t) => {
  const items = await release.pool.rows('SELECT file_number, addresses, parties FROM items');
  const carries = {
    // an address asked names every printed range holding its number on its street
    addresses: (asked: string, printed: string) => {
      const [mention] = addressMentions(asked);
      const address = parseAddress(printed);
      return mention !== undefined && address !== null && mentionsStreet(mention, address);
    },
    parties: (asked: string, printed: string) => partyKey(asked) === partyKey(printed),
  };
  for (const field of ['addresses', 'parties'] as const) {
    const printed = [...new Set(items.flatMap((i) => (i[field] ?? []) as string[]))];
    const filesOf = (asked: string) =>
      new Set(
        items
          .filter((i) => ((i[field] ?? []) as string[]).some((v) => carries[field](asked, v)))
          .map((i) => String(i.file_number)),
      );
    const missed: string[] = [];
    const unread: string[] = [];
    let asked = 0;
    for (const v of printed) {
      const files = filesOf(v);
      if (files.size === 0) unread.push(v); // an address the query side does not read as one
      if (files.size === 0 || files.size > 20) continue; // a name too common to pin
      asked++;
      const top = (await api('/api/items?limit=1', v)).results[0];
      if (!top || !files.has(top.fileNumber)) missed.push(`${v} -> ${top?.fileNumber}`);
    }
    t.ok(asked > 30, `${asked} ${field} asked`);
    t.same(unread, [], `${field}: every one printed is read from a query`);
    t.same(missed, [], `${field}: ${asked - missed.length} of ${asked} rank an item carrying them first`);
  }
});
