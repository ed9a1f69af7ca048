// The municipal thesaurus: rows of names people use for the same thing (acronyms, everyday words, the Board's terms).
// A query naming one name of a row also searches for the others, at a lower weight (analysis.ts, WEIGHTS.expansion),
// each only where its words are printed in order. A row is a table entry, with a test (test/thesaurus.test.ts): keep
// names specific (a name inside another name of its row, or a common word, would expand every query that uses it).
export const THESAURUS: readonly (readonly string[])[] = [
  // Agencies and utilities
  ['BART', 'Bay Area Rapid Transit'],
  ['PG&E', 'Pacific Gas and Electric'],
  ['SFMTA', 'Muni', 'Municipal Transportation Agency'],
  ['SFPUC', 'Public Utilities Commission'],
  ['DPH', 'Department of Public Health'],
  ['DBI', 'Department of Building Inspection'],
  ['SFPD', 'Police Department'],
  ['SFFD', 'Fire Department'],
  ['MOHCD', 'Mayor’s Office of Housing and Community Development'],
  ['OEWD', 'Office of Economic and Workforce Development'],
  ['SFUSD', 'San Francisco Unified School District'],
  ['TIDA', 'Treasure Island Development Authority'],
  ['Caltrain', 'Peninsula Corridor Joint Powers Board'],
  ['LAFCo', 'Local Agency Formation Commission'],
  // Laws and instruments
  ['CEQA', 'California Environmental Quality Act'],
  ['MOU', 'memorandum of understanding'],
  ['RFP', 'request for proposals'],
  // Housing and land use
  ['ADU', 'accessory dwelling unit', 'in-law unit', 'granny flat'],
  ['short-term rental', 'Airbnb', 'vacation rental', 'hosting platform'],
  ['SRO', 'single room occupancy'],
  ['BMR', 'below market rate'],
  ['unhoused', 'homeless'],
  // Everyday words
  ['lactation', 'breastfeeding', 'breast-feeding'],
  ['marijuana', 'cannabis'],
  ['bike', 'bicycle'],
  ['gun', 'firearm'],
  ['vaping', 'electronic cigarette', 'e-cigarette'],
  ['soda', 'sugar-sweetened beverage'],
  ['EV', 'electric vehicle', 'zero emission vehicle'],
];
