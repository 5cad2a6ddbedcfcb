// one lock the write workers share around creating files. ext4 creates the files of one folder one
// at a time (the folder's lock): two threads creating files in one folder at once can cost several
// times the CPU of one (bench/docs.ts, 40,000 routes: 803 against 145 µs a route; bench/create-files.ts
// shows how far it moves between runs here). With this lock a worker gzips its batch while the other
// creates its files, and the one that waits sleeps (Atomics.wait).
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
