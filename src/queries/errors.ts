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
