// Records as CSV (RFC 4180): a header row, CRLF line ends, every field that could be misread quoted with its quotes
// doubled, UTF-8. What pandas' read_csv, R's read.csv and a spreadsheet's import read with their defaults.
//
// A cell holds one value: text as it is (always quoted, so an id such as a file number stays text for a reader that
// keeps quoted fields as text), numbers and booleans bare, null an empty field, and a list or object its JSON text.
// Text that a spreadsheet would run as a formula (starting with = + - @, tab or return) gets a leading apostrophe, as
// OWASP advises: text from a document is data, never a formula.

const FORMULA = /^[=+\-@\t\r]/;

/** One field as RFC 4180 writes it. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  const text = typeof v === 'string' ? (FORMULA.test(v) ? `'${v}` : v) : JSON.stringify(v);
  return `"${text.replace(/"/g, '""')}"`;
}

/** `records` as CSV text: `columns` in order as the header row, then one row per record; every line ends in CRLF. */
export function csvTable(columns: string[], records: Record<string, unknown>[]): string {
  const head = columns.join(','); // the record schema's property names: letters and underscores
  const rows = records.map((r) => columns.map((c) => csvField(r[c])).join(','));
  return [head, ...rows].map((line) => `${line}\r\n`).join('');
}
