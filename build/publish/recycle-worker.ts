// takes over an old version (recycle.ts) on a worker thread, so the build's first steps go on beside it
import { parentPort, workerData } from 'node:worker_threads';
import { NotRecyclable, recycleVersion, type RecycleJob, type RecycleReply } from './recycle.ts';

const { dir, from } = workerData as RecycleJob;
let reply: RecycleReply;
try {
  const { dirty, stats } = recycleVersion(dir, from);
  reply = { ok: true, keys: [...dirty.keys()], has: Uint8Array.from(dirty.values(), (h) => (h ? 1 : 0)), stats };
} catch (e) {
  reply = { ok: false, notRecyclable: e instanceof NotRecyclable, message: (e as Error).message };
}
parentPort!.postMessage(reply);
