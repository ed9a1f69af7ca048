// The one error of reading an export: a file that is not a table this build reads, the reason naming what was found.
export class UnreadableExport extends Error {}
