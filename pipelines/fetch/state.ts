// `.fetch-state.json` in the corpus folder: per document, what was fetched from where, with the validators
// (ETag, Last-Modified) that make the next request conditional. Written atomically after every new or changed file,
// so a run killed at any point resumes without downloading again what it already has.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { writeFileAtomic } from './atomic.ts';

export interface StateEntry {
  file: string;
  meeting_date: string;
  kind: string;
  pages: number;
  bytes: number;
  sha256: string;
  official_url: string;
  archive_url: string;
  source: string;
  source_url: string;
  etag: string | null;
  last_modified: string | null;
  fetched_at: string;
}

export interface FetchState {
  version: 1;
  documents: Record<string, StateEntry>;
}

export const STATE_FILE = '.fetch-state.json';

export async function loadState(dir: string): Promise<FetchState> {
  let text: string;
  try {
    text = await readFile(join(dir, STATE_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, documents: {} };
    throw err;
  }
  const state = JSON.parse(text) as FetchState;
  if (state.version !== 1 || typeof state.documents !== 'object') throw new Error(`${STATE_FILE}: unknown format`);
  return state;
}

export function saveState(dir: string, state: FetchState): Promise<void> {
  return writeFileAtomic(join(dir, STATE_FILE), JSON.stringify(state, null, 1) + '\n');
}
