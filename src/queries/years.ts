// The years this service covers, and the year range a search asks for.

export const MIN_YEAR = 2012;
export const MAX_YEAR = 2026;

export interface YearRange {
  from: number;
  to: number;
}

/** `year` pins both ends; `from`/`to` narrow further (the intersection of all that is given). */
export function yearRange(p: { year?: number; from?: number; to?: number }): YearRange {
  return {
    from: Math.max(p.year ?? MIN_YEAR, p.from ?? MIN_YEAR),
    to: Math.min(p.year ?? MAX_YEAR, p.to ?? MAX_YEAR),
  };
}
