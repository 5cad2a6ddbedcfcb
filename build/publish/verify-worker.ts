// checks a published version's files against its manifest (verify.ts) on a worker thread
import { parentPort, workerData } from 'node:worker_threads';
import { verifyFolder, type VerifyJob, type VerifyReply } from './verify.ts';

const { dir, full } = workerData as VerifyJob;
let reply: VerifyReply;
try {
  reply = { ok: true, verified: verifyFolder(dir, full) };
} catch (e) {
  reply = { ok: false, message: (e as Error).message };
}
parentPort!.postMessage(reply);
