// The mixed load's paths, none asked twice: every class of the measured mix (page search by class, page records,
// items plain / by file / by voter, comments, both aggregates, /api/query), each drawn from combinations of the
// release's own words, phrases, file numbers, pages, voters and years, so that no answer, however it is cached, is
// reused within a run. Proportions follow the repeated mix: half page search, a sixth page records, the rest the
// other endpoints alike.
import type { Release } from '../src/lake/release.ts';
import { type QuerySet, SEARCH_CLASSES, searchPath, type SearchQuery } from './queries.ts';

type Paths = Iterator<string>;

/** Combinations of k items of xs, lazily, in a stable order. */
function* combinations<T>(xs: T[], k: number, start = 0, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === k) {
    yield prefix;
    return;
  }
  for (let i = start; i < xs.length; i++) yield* combinations(xs, k, i + 1, [...prefix, xs[i]]);
}

/** Every combination of the lists' values (the first varies slowest). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tuple of the lists' values, each caller destructures its own
function* product(...lists: unknown[][]): Generator<any[]> {
  if (lists.length === 0) {
    yield [];
    return;
  }
  for (const x of lists[0]) for (const rest of product(...lists.slice(1))) yield [x, ...rest];
}

const path = (route: string, params: Record<string, string | number | undefined>) =>
  `${route}?${new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  )}`;

function* map<T>(xs: Iterable<T>, f: (x: T) => string): Generator<string> {
  for (const x of xs) yield f(x);
}

/** Each source in turn, skipping exhausted ones, until all are. */
function* interleave(...sources: Iterable<string>[]): Generator<string> {
  const its = sources.map((s) => s[Symbol.iterator]());
  while (its.length) {
    for (let i = 0; i < its.length; i++) {
      const n = its[i].next();
      if (n.done) its.splice(i--, 1);
      else yield n.value;
    }
  }
}

/**
 * Up to `n` distinct paths in the mixed load's proportions. `set` is the bench's query set derived with a large
 * per-class count; `served` says which routes the server lists.
 */
export async function distinctMix(
  release: Release,
  set: QuerySet,
  served: (route: string) => boolean,
  n: number,
): Promise<string[]> {
  const pageIds = (
    await release.pool.rows(`SELECT page_id FROM pages WHERE indexed ORDER BY md5(page_id) LIMIT ${Math.ceil(n / 4)}`)
  ).map((r) => String(r.page_id));
  const files = (
    await release.pool.rows(
      `SELECT file_number FROM (SELECT DISTINCT file_number FROM items) ORDER BY md5(file_number) LIMIT ${Math.ceil(n / 8)}`,
    )
  ).map((r) => String(r.file_number));
  const common = set.search['common term'].map((s) => s.q);
  const rare = set.search['rare term'].map((s) => s.q);
  const phrases = set.search['quoted phrase'].map((s) => s.q);
  const kinds = [undefined, 'agenda', 'minutes'];
  const { years } = set;
  // Surnames that name one supervisor (a shared one, such as Mar, is a 400 asking for the full name).
  const unique = new Set(
    (await release.pool.rows(`SELECT surname FROM supervisors GROUP BY surname HAVING count(*) = 1`)).map((r) =>
      String(r.surname),
    ),
  );
  const voters = set.voters.filter((v) => unique.has(v));
  // The years each voter has recorded positions in: a year they did not serve is a 400 naming their term.
  const voterYears: [string, number][] = (
    await release.pool.rows(
      `SELECT DISTINCT s.surname, p.year::INTEGER AS year FROM positions p JOIN supervisors s USING (supervisor_id)`,
    )
  )
    .map((r): [string, number] => [String(r.surname), Number(r.year)])
    .filter(([v, y]) => voters.includes(v) && years.includes(y))
    .sort();
  // Triples of common words in a fixed shuffled order (the combinations' own order starts with the commonest word).
  const shuffled = shuffle([...map(combinations(common, 3), (ws) => ws.join(' '))]);
  const triples = () => shuffled[Symbol.iterator]();
  const byClass: Record<(typeof SEARCH_CLASSES)[number], Iterable<SearchQuery>> = {
    'rare term': interleaveQueries(
      rare.map((q) => ({ q })),
      [...combinations(rare, 2)].map((ws) => ({ q: ws.join(' ') })),
    ),
    'common term': [...product(common, kinds)].map(([q, kind]) => ({ q, kind }) as SearchQuery),
    'common multi-term': [...map(triples(), (q) => q)].map((q) => ({ q })),
    'quoted phrase': [...product(phrases, kinds)].map(([q, kind]) => ({ q, kind }) as SearchQuery),
    'file number': files.map((q) => ({ q })),
    'year+kind filtered': [...product([...triples()].slice(0, 400), years, ['agenda', 'minutes'])].map(
      ([q, year, kind]) => ({ q, year, kind }) as SearchQuery,
    ),
  };
  const search = interleave(...SEARCH_CLASSES.map((c) => map(byClass[c], searchPath)));
  const others: Iterable<string>[] = [];
  const add = (route: string, paths: Iterable<string>) => {
    if (served(route)) others.push(paths);
  };
  add(
    '/api/items',
    map(triples(), (q) => path('/api/items', { q })),
  );
  add(
    '/api/items',
    map([...triples()].reverse(), (q) => path('/api/items', { q, groupBy: 'file' })),
  );
  add(
    '/api/items',
    map(product(common, voters), ([q, voter]) =>
      path('/api/items', { q: q as string, voter: voter as string, final: 'true' }),
    ),
  );
  add(
    '/api/comments',
    map(interleave(common, triples()), (q) => path('/api/comments', { q })),
  );
  add(
    '/api/aggregates/votes',
    map(product(voterYears, ['', 'true'], ['roll-call', 'file']), ([[voter, year], final, groupBy]) =>
      path('/api/aggregates/votes', {
        voter: voter as string,
        from: year as number,
        to: year as number,
        final: (final as string) || undefined,
        groupBy: groupBy as string,
      }),
    ),
  );
  add(
    '/api/aggregates/housing',
    map(product(voterYears, years), ([[voter, from], to]) =>
      path('/api/aggregates/housing', { voter, from, to: Math.max(from, to as number) }),
    ),
  );
  add(
    '/api/query',
    map(voterYears, ([voter, year]) => path('/api/query', { q: `How did ${voter} vote on housing in ${year}?` })),
  );
  add(
    '/api/query',
    map(common, (w) => path('/api/query', { q: `What did the board decide about ${w}?` })),
  );
  const rest = interleave(...others);
  const records = map(pageIds, (id) => `/api/pages/${id}`)[Symbol.iterator]();
  // A round of the repeated mix: 30 searches, 10 page records, two of each other path.
  const out = new Set<string>();
  const take = (it: Paths, k: number) => {
    for (let i = 0; i < k; i++) {
      const x = it.next();
      if (!x.done) out.add(x.value);
    }
  };
  let size = -1;
  while (out.size < n && out.size !== size) {
    size = out.size;
    take(search, 30);
    take(records, 10);
    take(rest, 2 * others.length);
  }
  return [...out].slice(0, n);
}

function shuffle<T>(xs: T[]): T[] {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

function* interleaveQueries(...lists: SearchQuery[][]): Generator<SearchQuery> {
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) yield l[i];
}
