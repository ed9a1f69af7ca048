// Date, money and list formatting as the Clerk's documents print them.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const parts = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return { y, m, d, dow: new Date(Date.UTC(y, m - 1, d)).getUTCDay() };
};

/** `November 1, 2016` */
export const longDate = (iso: string) => {
  const p = parts(iso);
  return `${MONTHS[p.m - 1]} ${p.d}, ${p.y}`;
};
/** `Tuesday, November 1, 2016` */
export const weekdayDate = (iso: string) => `${DAYS[parts(iso).dow]}, ${longDate(iso)}`;
export const weekday = (iso: string) => DAYS[parts(iso).dow];
/** `11/1/2016` */
export const slashDate = (iso: string) => {
  const p = parts(iso);
  return `${p.m}/${p.d}/${p.y}`;
};
/** `11/01/2016` */
export const paddedDate = (iso: string) => {
  const p = parts(iso);
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${p.y}`;
};
/** `11/01/16` */
export const shortDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(2, 4)}`;
/** `11/2/16` */
export const printedDate = (iso: string) => {
  const p = parts(iso);
  return `${p.m}/${p.d}/${String(p.y).slice(2)}`;
};
/** `bagMMDDYY` */
export const bagStem = (iso: string) => `bag${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(2, 4)}`;

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** `$1,192,320` */
export const money = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;

/** `A, B and C` (the Clerk's co-sponsor style: no serial comma). */
export function andList(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Moves 4-digit years 2015..2030 in a 2023 text by `delta` years (titles reused in other years). */
export function shiftYears(text: string, delta: number): string {
  if (delta === 0) return text;
  return text.replace(/(?<!\d)(20(?:1[5-9]|2\d|30))(?!\d)/g, (y) => String(Number(y) + delta));
}
