// What a query refuses, in the query's own terms: which parameter broke which rule. The HTTP layer answers it as a 400
// problem document (http/errors.ts toProblem), MCP as an error result.

export interface ParamError {
  parameter: string;
  rule: string;
  message: string;
}

export class InvalidParameter extends Error {
  constructor(
    readonly errors: ParamError[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(errors.map((e) => e.message).join('; '));
  }
}

/** The rule `from-after-to`: a year range must not end before it starts (the values as the caller gave them). */
export function checkYearOrder(from: number | string, to: number | string): void {
  if (Number(from) > Number(to))
    throw new InvalidParameter([
      { parameter: 'from', rule: 'from-after-to', message: `from (${from}) must not be after to (${to})` },
    ]);
}

/**
 * A recorded position belongs to a supervisor: `position` needs the parameter naming the voter (`voter`, or
 * `supervisor` on the search), and is refused with `requires-<that name>` without it.
 */
export function checkPositionVoter(position: string | undefined, voter: string | undefined, name: string): void {
  if (position && !voter)
    throw new InvalidParameter([
      {
        parameter: 'position',
        rule: `requires-${name}`,
        message: `position requires ${name} (whose recorded position to filter on)`,
      },
    ]);
}
