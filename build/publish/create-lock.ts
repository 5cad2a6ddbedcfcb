// one lock the write workers share around creating files. ext4 creates the files of one folder one
// at a time (the folder's lock), and two threads that create files in the same folder at once spin
// on it in the kernel: 2 workers writing 40,000 routes into v1/route/ cost 803 µs of CPU a route
// against 145 µs with 1 (bench/docs.ts). With this lock a worker gzips its batch while the other
// writes its own, and the one that waits sleeps (Atomics.wait) instead of spinning.
/** a lock in shared memory: 0 free, 1 held */
export type CreateLock = Int32Array;

export function createLock(): CreateLock {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Run `fn` holding the lock (blocks the calling worker while another holds it). */
export function withCreateLock<T>(lock: CreateLock, fn: () => T): T {
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 1);
  try {
    return fn();
  } finally {
    Atomics.store(lock, 0, 0);
    Atomics.notify(lock, 0, 1);
  }
}
