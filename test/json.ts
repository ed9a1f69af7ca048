// The one untyped value of the tests.

/**
 * A JSON answer as a test reads it, field by field, with no declared shape: the tests check its shape against the
 * response schema (getValid) or compare values; typing every test's walk through it would add nothing they check.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the one untyped JSON value of the tests
export type Json = any;
