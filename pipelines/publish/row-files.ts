// Every table's rows and every index collection's documents, streamed to scratch files as the build reads documents
// one at a time; only counts stay in memory.
import { join } from 'node:path';
import { IndexSource, type IndexDoc } from '../index/bm25.ts';
import type { Problem } from '../records.ts';
import { COLUMNS, problemRow, type Table } from './rows.ts';
import { closeAll, NdjsonWriter } from './scratch.ts';

export const COLLECTIONS = ['page', 'item', 'comment'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export class RowFiles {
  /** Problems by kind, for the manifest. */
  readonly problemKinds = new Map<string, number>();

  private constructor(readonly tables: Record<Table, NdjsonWriter>, readonly indexes: Record<Collection, IndexSource>) {}

  static async create(scratch: string): Promise<RowFiles> {
    const tables = {} as Record<Table, NdjsonWriter>;
    for (const table of Object.keys(COLUMNS) as Table[]) tables[table] = await NdjsonWriter.create(join(scratch, `${table}.ndjson`));
    const indexes = {} as Record<Collection, IndexSource>;
    for (const name of COLLECTIONS) indexes[name] = await IndexSource.create(scratch, name);
    return new RowFiles(tables, indexes);
  }

  write(table: Table, row: object): Promise<void> {
    return this.tables[table].write(row);
  }

  index(collection: Collection, doc: IndexDoc): Promise<void> {
    return this.indexes[collection].add(doc);
  }

  problem(p: Problem): Promise<void> {
    this.problemKinds.set(p.kind, (this.problemKinds.get(p.kind) ?? 0) + 1);
    return this.write('problems', problemRow(p));
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
