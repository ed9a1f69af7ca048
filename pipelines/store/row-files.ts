// Every table's rows and every index collection's documents, streamed to scratch files as the build reads documents
// one at a time; only counts stay in memory.
import { join } from 'node:path';

import { type Collection, COLLECTIONS, COLUMNS, type Table } from '../../core/lake/format.ts';
import { IndexSource } from '../index/bm25.ts';

/** A row of the `problems` table. */
export interface ProblemRow {
  document_id: string;
  page: number;
  kind: string;
  detail: string;
}
import type { DocumentRows } from '../document/rows.ts';
import { closeAll, NdjsonWriter } from './scratch.ts';

export class RowFiles {
  /** Problems by kind, for the manifest. */
  readonly problemKinds = new Map<string, number>();

  private constructor(
    readonly tables: Record<Table, NdjsonWriter>,
    readonly indexes: Record<Collection, IndexSource>,
  ) {}

  static async create(scratch: string): Promise<RowFiles> {
    const tables = {} as Record<Table, NdjsonWriter>;
    for (const table of Object.keys(COLUMNS) as Table[])
      tables[table] = await NdjsonWriter.create(join(scratch, `${table}.ndjson`));
    const indexes = {} as Record<Collection, IndexSource>;
    for (const name of COLLECTIONS) indexes[name] = await IndexSource.create(scratch, name);
    return new RowFiles(tables, indexes);
  }

  write(table: Table, row: object): Promise<void> {
    return this.tables[table].write(row);
  }

  /** A problem row of a whole source (page 0: a Legistar export, a document left out), counted by kind. */
  async problem(row: ProblemRow): Promise<void> {
    await this.tables.problems.write(row);
    this.problemKinds.set(row.kind, (this.problemKinds.get(row.kind) ?? 0) + 1);
  }

  async append(doc: DocumentRows): Promise<void> {
    for (const [table, { ndjson, rows }] of Object.entries(doc.tables) as [Table, DocumentRows['tables'][Table]][]) {
      if (rows) await this.tables[table].writeLines(ndjson, rows);
    }
    for (const name of COLLECTIONS) for (const d of doc.indexes[name]) await this.indexes[name].add(d);
    for (const [kind, n] of Object.entries(doc.problemKinds))
      this.problemKinds.set(kind, (this.problemKinds.get(kind) ?? 0) + n);
  }

  count(table: Table): number {
    return this.tables[table].rows;
  }

  path(table: Table): string {
    return this.tables[table].path;
  }

  close(): Promise<void> {
    return closeAll([...Object.values(this.tables), ...Object.values(this.indexes)]);
  }
}
