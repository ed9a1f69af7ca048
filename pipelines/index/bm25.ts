// BM25 index tables for one text collection (pages, items or comments), computed in DuckDB from analysed terms.
// Each posting stores its precomputed impact (idf × saturated tf with length normalisation): all of it is static
// per release, so ranking at query time is a sum over the query terms' postings. Postings also keep the term's
// positions, so a quoted phrase is checked on the postings of its own words; stopwords have postings too, for
// phrases, with idf and impact 0 and outside the document length, so they change no score. A text store beside the
// tables lets the server read a few documents' text for snippets without decoding whole Parquet row groups.
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { DuckDBConnection } from '@duckdb/node-api';

import { encodeText } from '../../core/lake/codecs/text-store.ts';
import { type Collection, indexTable, textStoreFile } from '../../core/lake/format.ts';
import { ANALYSIS, indexTerms, isStopTerm, isStopTermSql } from '../../core/text/analysis.ts';
import { AppendFile, closeAll } from '../store/scratch.ts';
import { copyOut, loadNdjson } from '../store/tables.ts';
import { writePostingsStore } from './postings-store.ts';

/**
 * Postings per part file (`<name>_postings/part=N/`, a contiguous range of terms; `<name>_terms.part` says which):
 * DuckDB's cost per query grows with the row groups of the files it opens (~10 µs each, even when their statistics
 * rule them out), so the server opens only its terms' parts and a rare term costs the same at any corpus size.
 */
export const PART_POSTINGS = 524288;

export interface IndexDoc {
  doc_id: string;
  year: number;
  kind: string;
  text: string;
}

/** A document analysed for the index: its source row as JSON lacking only `text_offset`, and its raw-deflated text. */
export interface AnalysedDoc {
  head: string;
  text: Uint8Array;
}

const SOURCE_COLUMNS = {
  doc_id: 'VARCHAR',
  year: 'INTEGER',
  kind: 'VARCHAR',
  doclen: 'INTEGER',
  postings: 'STRUCT(t VARCHAR, p INTEGER[])[]',
  text_offset: 'BIGINT',
  text_bytes: 'INTEGER',
};

/**
 * A document's terms grouped here, one document at a time: each distinct term `t` with its positions `p` in the
 * document's words (every word counts, stopwords included, so tf = len(p)); `doclen` counts the words that score.
 * Grouping all documents' terms in DuckDB instead (GROUP BY doc_id, term with a list aggregate) held every group's
 * list in memory at once and ran out of memory beyond SCALE=1.
 */
export function analyse(d: IndexDoc): AnalysedDoc {
  const text = encodeText(d.text);
  const positions = new Map<string, number[]>();
  let doclen = 0;
  indexTerms(d.text).forEach((term, i) => {
    (positions.get(term) ?? positions.set(term, []).get(term)!).push(i);
    if (!isStopTerm(term)) doclen++;
  });
  const postings = [...positions].map(([t, p]) => ({ t, p }));
  const row = JSON.stringify({
    doc_id: d.doc_id,
    year: d.year,
    kind: d.kind,
    doclen,
    postings,
    text_bytes: text.length,
  });
  return { head: row.slice(0, -1), text };
}

/**
 * One collection's analysed documents as the build streams them (in any order): a row per document with its terms'
 * positions (see analyse) in `<scratch>/<name>_source.ndjson`, its deflated text appended to
 * `<scratch>/<name>_text.scratch` at `text_offset`.
 */
export class IndexSource {
  private constructor(
    readonly name: Collection,
    private readonly rows: AppendFile,
    private readonly text: AppendFile,
  ) {}

  static async create(scratch: string, name: Collection): Promise<IndexSource> {
    return new IndexSource(
      name,
      await AppendFile.create(join(scratch, `${name}_source.ndjson`)),
      await AppendFile.create(join(scratch, `${name}_text.scratch`)),
    );
  }

  async add(d: AnalysedDoc): Promise<void> {
    const offset = this.text.length;
    await this.text.append(d.text);
    await this.rows.append(`${d.head},"text_offset":${offset}}\n`);
  }

  close(): Promise<void> {
    return closeAll([this.rows, this.text]);
  }

  get rowsPath(): string {
    return this.rows.path;
  }
  get textPath(): string {
    return this.text.path;
  }
}

/**
 * Writes `<dir>/<name>_terms.parquet`, `_postings/part=N/` (see PART_POSTINGS), `_docs` (documents numbered `doc_no` in
 * doc_id order), `_stats`, `<name>_text.bin` (each document's text, raw-deflated, in doc_id order, at `text_offset` /
 * `text_bytes` in `_docs`) and `<name>_postings_store.bin` (postings-store.ts) from a closed IndexSource.
 */
export async function writeBm25(
  db: DuckDBConnection,
  source: IndexSource,
  dir: string,
  partPostings = PART_POSTINGS,
): Promise<void> {
  const name = source.name;
  const [postingsTable, termsTable, docsTable, statsTable] = (['postings', 'terms', 'docs', 'stats'] as const).map(
    (t) => indexTable(name, t),
  );
  const table = `${name}_source`;
  await loadNdjson(db, table, SOURCE_COLUMNS, source.rowsPath);
  // Texts arrived in stream order (`text_offset` in the scratch store); the release keeps them in doc_id order.
  const docOrder = 'ORDER BY doc_id, text_offset';
  await writeTextStore(
    db,
    `SELECT text_offset, text_bytes FROM ${table} ${docOrder}`,
    source.textPath,
    join(dir, textStoreFile(name)),
  );

  const { k1, b } = ANALYSIS.bm25;
  await db.run(`
    CREATE OR REPLACE TABLE ${statsTable} AS
      SELECT count(*)::BIGINT AS num_docs, coalesce(avg(doclen), 0)::DOUBLE AS avgdl, ${k1}::DOUBLE AS k1, ${b}::DOUBLE AS b
      FROM ${table};
    CREATE OR REPLACE TABLE ${name}_tf AS
      SELECT doc_id, year, kind, p.t AS term, len(p.p)::INTEGER AS tf, p.p AS positions
      FROM (SELECT doc_id, year, kind, unnest(postings) AS p FROM ${table});
    CREATE OR REPLACE TABLE ${termsTable} AS
      SELECT term, df, idf, (coalesce(sum(df) OVER (ORDER BY term ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) // ${partPostings})::INTEGER AS part
      FROM (SELECT term, count(*)::INTEGER AS df,
                   CASE WHEN ${isStopTermSql('term')} THEN 0
                        ELSE log((((SELECT num_docs FROM ${statsTable}) - count(*) + 0.5) / (count(*) + 0.5)) + 1) END::DOUBLE AS idf
            FROM ${name}_tf GROUP BY term);
    CREATE OR REPLACE TABLE ${docsTable} AS
      SELECT (row_number() OVER (${docOrder}) - 1)::INTEGER AS doc_no, doc_id, year, kind, doclen,
             coalesce(sum(text_bytes) OVER (${docOrder} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::BIGINT AS text_offset, text_bytes
      FROM ${table};
  `);
  const postings = `
    SELECT p.term, p.doc_id, p.year, p.kind, p.tf, d.doclen,
           (t.idf * p.tf * (s.k1 + 1) / (p.tf + s.k1 * (1 - s.b + s.b * d.doclen / s.avgdl)))::DOUBLE AS impact, p.positions, t.part
    FROM ${name}_tf p JOIN ${termsTable} t USING (term) JOIN ${docsTable} d USING (doc_id), ${statsTable} s`;
  await copyOut(db, postings, `${dir}/${postingsTable}`, {
    orderBy: 'term, doc_id',
    partitionBy: 'part',
    rowGroupSize: 16384,
  });
  await copyOut(db, `SELECT * FROM ${termsTable}`, `${dir}/${termsTable}`, { orderBy: 'term' });
  await copyOut(db, `SELECT * FROM ${docsTable}`, `${dir}/${docsTable}`, { orderBy: 'doc_id' });
  await copyOut(db, `SELECT * FROM ${statsTable}`, `${dir}/${statsTable}`, { orderBy: 'num_docs' });
  const parts = (await db.runAndReadAll(`SELECT DISTINCT part FROM ${termsTable} ORDER BY part`))
    .getRowsJS()
    .map((r) => Number(r[0]));
  await writePostingsStore(db, name, dir, dirname(source.rowsPath), {
    docs: docsTable,
    postings: postingsTable,
    parts,
  });
  await db.run(
    `DROP TABLE ${name}_tf; DROP TABLE ${table}; DROP TABLE ${termsTable}; DROP TABLE ${docsTable}; DROP TABLE ${statsTable};`,
  );
}

/** Copies the scratch store's texts to `target` in the query's order (rows of offset, bytes); adjacent ones in one read. */
async function writeTextStore(db: DuckDBConnection, query: string, scratch: string, target: string): Promise<void> {
  const from = await open(scratch, 'r');
  const out = await AppendFile.create(target);
  const copy = async (start: number, end: number) => {
    for (let at = start; at < end;) {
      const piece = Buffer.allocUnsafe(Math.min(1 << 20, end - at));
      const { bytesRead } = await from.read(piece, 0, piece.length, at);
      if (bytesRead === 0) throw new Error(`${scratch}: ends at ${at}, expected ${end} bytes`);
      await out.append(piece.subarray(0, bytesRead));
      at += bytesRead;
    }
  };
  try {
    let start = 0;
    let end = 0;
    for await (const rows of (await db.stream(query)).yieldRows()) {
      for (const [offset, bytes] of rows) {
        const at = Number(offset);
        if (at !== end) {
          await copy(start, end);
          start = at;
        }
        end = at + Number(bytes);
      }
    }
    await copy(start, end);
  } finally {
    await out.close();
    await from.close();
  }
}
