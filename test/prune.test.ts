// Pruning old releases: killed at any moment (kill -9 mid-delete), it leaves under releases/ only whole releases; the
// half-deleted one it was removing is out of sight and the next prune clears it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import t from 'tap';

import { pointCurrent, prune } from '../pipelines/publish/release.ts';
import { ROOT } from './fixture.ts';

const FILES = 4000;

/** A lake of two releases: `old` (FILES files and a manifest, older) and `new` (current). */
async function lakeOfTwo(): Promise<string> {
  const lake = await mkdtemp(join(tmpdir(), 'prune-'));
  for (const id of ['old', 'new']) await mkdir(join(lake, 'releases', id, 'data'), { recursive: true });
  await writeFile(join(lake, 'releases', 'new', 'manifest.json'), '{}');
  await writeFile(join(lake, 'releases', 'old', 'manifest.json'), '{}');
  for (let i = 0; i < FILES; i++) await writeFile(join(lake, 'releases', 'old', 'data', `f${i}`), 'x');
  const past = new Date(Date.now() - 3600_000);
  await utimes(join(lake, 'releases', 'old'), past, past);
  await pointCurrent(lake, 'new');
  return lake;
}

t.test('a prune killed mid-delete leaves no half release under releases/', async (t) => {
  const lake = await lakeOfTwo();
  const oldData = join(lake, 'releases', 'old', 'data');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('./pipelines/publish/release.ts').then((m) => m.prune(${JSON.stringify(lake)}, 1))`,
    ],
    { cwd: ROOT, stdio: 'ignore' },
  );
  // Kill it the moment the old release starts to go: fewer files, or gone from releases/.
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      const n = existsSync(oldData) ? readdirSync(oldData).length : -1;
      if (n < FILES) {
        child.kill('SIGKILL');
        clearInterval(poll);
        resolve();
      }
    }, 1);
    child.on('exit', () => {
      clearInterval(poll);
      resolve();
    });
  });
  await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.on('exit', r)));
  const left = existsSync(oldData) ? readdirSync(oldData).length : 0;
  t.ok(left === 0 || left === FILES, `releases/old is whole or gone (${left} of ${FILES} files there)`);
  t.same((await readdir(join(lake, 'releases'))).sort(), existsSync(oldData) ? ['new', 'old'] : ['new']);
  await prune(lake, 1);
  t.same(await readdir(join(lake, 'releases')), ['new'], 'the next prune removes the old release');
  t.same(
    (await readdir(lake)).filter((e) => e.startsWith('.')),
    [],
    'and what the killed one left out of sight',
  );
});
