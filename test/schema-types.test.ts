// src/schema-types.ts is generated from schemas/ (`make schema-types`): it must be what the generator writes now.
import { readFileSync } from 'node:fs';

import t from 'tap';

import { generate, TYPES_FILE } from '../scripts/schema-types.ts';

t.test('src/schema-types.ts is up to date with schemas/', async (t) => {
  t.equal(
    readFileSync(TYPES_FILE, 'utf8'),
    await generate(),
    'stale: run `make schema-types` and commit src/schema-types.ts',
  );
});
