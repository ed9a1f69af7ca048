// The housing signal table, row by row: each signal matches what it names and not its near misses, case-insensitive,
// alike in JavaScript (a file's `housingSignals`) and in DuckDB (which files count), and the rule text names it.
import { DuckDBInstance } from '@duckdb/node-api';
import t from 'tap';

import { HOUSING_RULE, HOUSING_SIGNALS } from '../src/queries/aggregates/housing.ts';

const EXAMPLES: Record<string, { matches: string[]; misses: string[] }> = {
  housing: {
    matches: ['Affordable Housing Bond', 'housing revenue bonds', 'HOUSING'],
    misses: ['Warehousing facility', 'housings', 'rehousing program'],
  },
  dwelling: { matches: ['350 dwelling units', 'two Dwellings'], misses: ['dwell time', 'dwellers'] },
  residential: {
    matches: ['Residential Rent Stabilization', 'non-residential uses'],
    misses: ['residents of the district', 'residentially zoned'],
  },
  multifamily: {
    matches: ['multifamily buildings', 'Multi-Family housing'],
    misses: ['multi family', 'multifamilies'],
  },
  apartments: { matches: ['an apartment building', 'APARTMENTS'], misses: ['apartheid', 'apartmentalized'] },
  inclusionary: { matches: ['Inclusionary Affordable Housing Program'], misses: ['inclusion', 'inclusionaryism'] },
  'below market rate': {
    matches: ['below market rate units', 'Below-Market-Rate'],
    misses: ['below the market rate', 'below marketrate'],
  },
  'single room occupancy': {
    matches: ['single room occupancy hotels', 'Single-Room-Occupancy'],
    misses: ['single-occupancy room', 'single rooms occupancy'],
  },
};

const db = await (await DuckDBInstance.create(':memory:')).connect();
const duckdbMatches = async (text: string, pattern: string) =>
  (await db.runAndReadAll("SELECT regexp_matches($1, $2, 'i')", [text, pattern])).getRows()[0][0] === true;

t.same(
  HOUSING_SIGNALS.map((s) => s.label).sort(),
  Object.keys(EXAMPLES).sort(),
  'every row has examples, and every example a row',
);

for (const signal of HOUSING_SIGNALS) {
  t.test(`signal "${signal.label}"`, async (t) => {
    const re = new RegExp(signal.pattern, 'i');
    const { matches, misses } = EXAMPLES[signal.label] ?? { matches: [], misses: [] };
    for (const text of matches) {
      t.ok(re.test(text), `matches "${text}"`);
      t.ok(await duckdbMatches(text, signal.pattern), `DuckDB matches "${text}"`);
    }
    for (const text of misses) {
      t.notOk(re.test(text), `does not match "${text}"`);
      t.notOk(await duckdbMatches(text, signal.pattern), `DuckDB does not match "${text}"`);
    }
    t.ok(HOUSING_RULE.includes(`"${signal.label}"`), 'the housing rule names it');
  });
}

t.teardown(() => db.closeSync());
