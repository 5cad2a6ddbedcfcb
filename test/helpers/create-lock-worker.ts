// a thread for test/build/publish/create-lock.test.ts: holds the shared create lock `rounds` times,
// and inside it marks itself present in `inside`, waits a little, and records the most threads it
// ever saw inside at once in `most`.
import { parentPort, workerData } from 'node:worker_threads';
import { withCreateLock, type CreateLock } from '../../build/publish/create-lock.ts';

const { lock, shared, rounds } = workerData as { lock: CreateLock; shared: Int32Array; rounds: number };
const [INSIDE, MOST] = [0, 1];
const nap = new Int32Array(new SharedArrayBuffer(4));

for (let i = 0; i < rounds; i++) {
  withCreateLock(lock, () => {
    const now = Atomics.add(shared, INSIDE, 1) + 1;
    let most = Atomics.load(shared, MOST);
    while (now > most && Atomics.compareExchange(shared, MOST, most, now) !== most) most = Atomics.load(shared, MOST);
    Atomics.wait(nap, 0, 0, 1); // 1 ms inside: the other thread tries to enter meanwhile
    Atomics.sub(shared, INSIDE, 1);
  });
}
parentPort!.postMessage('done');
