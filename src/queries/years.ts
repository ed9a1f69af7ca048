// The years this service covers, and the year range a search asks for.

export const MIN_YEAR = 2012;
export const MAX_YEAR = 2026;

export interface YearRange {
  from: number;
  to: number;
}

/**
 * `year` pins both ends; `from`/`to` narrow further, and so does a meeting `date` (`YYYY-MM-DD`): the intersection of
 * all that is given.
 */
export function yearRange(p: { year?: number; from?: number; to?: number }, date?: string): YearRange {
  const dateYear = date ? Number(date.slice(0, 4)) : undefined;
  return {
    from: Math.max(p.year ?? MIN_YEAR, p.from ?? MIN_YEAR, dateYear ?? MIN_YEAR),
    to: Math.min(p.year ?? MAX_YEAR, p.to ?? MAX_YEAR, dateYear ?? MAX_YEAR),
  };
}
