// Worker threads running TypeScript modules of this project: threads do not inherit tsx's loader hooks, so each one
// registers them and then loads its module.
import { Worker } from 'node:worker_threads';

/** A thread running `module` (a .ts file's URL), with `workerData` as node:worker_threads hands it over. */
export function tsWorker(module: URL, workerData?: unknown): Worker {
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
