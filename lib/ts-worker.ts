// a worker thread whose entry is a TypeScript file. Node 20 applies no --import loader to a
// worker's own entry, so a two-line entry registers tsx, then loads the file. tsx is resolved
// from here (the install), not from the working directory, so a command run from anywhere works.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function tsWorker(entry: URL, opts: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); });`, { ...opts, eval: true });
}
