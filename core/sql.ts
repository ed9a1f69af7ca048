// SQL text both sides write: a string literal, for paths and names from the lake (values from clients are always
// parameters, never literals).

/** A string as a SQL string literal. */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;
