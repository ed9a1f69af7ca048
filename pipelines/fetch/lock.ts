// One fetch per corpus folder at a time (a slow nightly run must not race the next one). A lock left by a
// process that no longer exists (a crash) is taken over.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function acquireLock(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, '.fetch.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: 'wx' });
      return () => rm(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (pid && pid !== process.pid && alive(pid)) throw new Error(`${dir} is being fetched by process ${pid} (${path})`);
      await rm(path, { force: true });
    }
  }
  throw new Error(`could not lock ${path}`);
}
