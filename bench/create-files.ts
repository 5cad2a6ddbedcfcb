// benchmark (run by hand, never a test): what creating small files costs here, the write workers'
// floor. Each round, in this one process: N files of 300 bytes into a fresh folder by 1 thread, by
// 2 threads at once, and by 2 threads taking turns (build/publish/create-lock.ts, batches of 256);
// files/s and the CPU (user+system) per file of the threads that created them. With
// --remove-before, each round first removes a folder of N files it made (not measured): the
// creations then meet freshly freed inodes, which ext4 without a journal skips one by one
// (bench/remove-later.ts). Folders are removed when the process exits.
// usage: npx tsx bench/create-files.ts [--files 40000] [--rounds 3] [--remove-before] [--dir /tmp]
import './help.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { once } from 'node:events';
import { tsWorker } from '../lib/ts-worker.ts';
import { createLock, withCreateLock, type CreateLock } from '../build/publish/create-lock.ts';
import { flag, numberFlag } from './flags.ts';
import { removeLater } from './remove-later.ts';

const BATCH = 256;
interface Job {
  dir: string;
  from: number;
  to: number;
  lock: CreateLock | null;
}

if (!isMainThread) {
  const { dir, from, to, lock } = workerData as Job;
  const body = Buffer.alloc(300, 120);
  const c0 = process.cpuUsage();
  for (let i = from; i < to; i += BATCH) {
    const batch = () => {
      for (let j = i; j < Math.min(to, i + BATCH); j++) writeFileSync(join(dir, `f${j}.gz`), body);
    };
    if (lock) withCreateLock(lock, batch);
    else batch();
  }
  const c = process.cpuUsage(c0);
  parentPort!.postMessage((c.user + c.system) / 1000);
} else {
  const FILES = numberFlag('files', 40_000);
  const ROUNDS = numberFlag('rounds', 3);
  const REMOVE_BEFORE = process.argv.includes('--remove-before');
  const DIR = flag('dir', '/tmp');
  const fresh = () => {
    const d = mkdtempSync(join(DIR, 'contrail-bench-create-'));
    removeLater(d);
    return d;
  };
  /** create FILES files with `threads` workers; files/s and CPU µs per file */
  async function run(threads: number, lock: CreateLock | null): Promise<string> {
    const dir = fresh();
    const t0 = performance.now();
    const workers = Array.from({ length: threads }, (_, k) =>
      tsWorker(new URL(import.meta.url), {
        workerData: { dir, from: Math.floor((k * FILES) / threads), to: Math.floor(((k + 1) * FILES) / threads), lock } satisfies Job,
      }),
    );
    const cpuMs = (await Promise.all(workers.map(async (w) => (await once(w, 'message'))[0] as number))).reduce((a, b) => a + b, 0);
    const s = (performance.now() - t0) / 1000;
    return `${Math.round(FILES / s)} files/s, ${Math.round((cpuMs * 1000) / FILES)} µs CPU a file`;
  }
  console.log(
    `bench/create-files.ts: ${FILES} files a run, ${ROUNDS} rounds${REMOVE_BEFORE ? ', each after removing as many' : ''}, Node ${process.version}, ${new Date().toISOString()}`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, threads, lock] of [
      ['1 thread', 1, null],
      ['2 threads at once', 2, null],
      ['2 threads, taking turns', 2, createLock()],
    ] as const) {
      if (REMOVE_BEFORE) {
        const d = fresh();
        for (let i = 0; i < FILES; i++) writeFileSync(join(d, `r${i}`), '');
        rmSync(d, { recursive: true, force: true });
      }
      console.log(`round ${round}, ${name.padEnd(24)} ${await run(threads, lock)}`);
    }
  }
}
