// What the engine reads of a release: its directory (the index stores), a memo for what it loads once per release,
// the manifest and settings of its embeddings, and SQL for the tables it reads whole (store offsets, vectors).
import type { Release } from '../lake/release.ts';

export type EngineRelease = Pick<Release, 'dir' | 'memo' | 'pool' | 'manifest' | 'settings' | 'has'>;
