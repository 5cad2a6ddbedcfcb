// a thread that hammers a ThreadLimits table (test/server/http/thread-limits.test.ts): told the
// table, a key and how many hits, it answers how many were allowed and how many streams it opened
import { parentPort } from 'node:worker_threads';
import { ThreadLimits } from '../../server/http/thread-limits.ts';

interface Job {
  memory: SharedArrayBuffer;
  windowS: number;
  nowMs: number;
  clients: string[];
  hits: number;
  limit: number;
  opens: number;
  maxOpen: number;
}

parentPort!.once('message', (j: Job) => {
  const t = new ThreadLimits(j.memory, j.windowS);
  let allowed = 0;
  let opened = 0;
  for (let k = 0; k < j.hits; k++) if (t.hit('point', j.clients[k % j.clients.length]!, j.limit, j.nowMs).allowed) allowed++;
  for (let k = 0; k < j.opens; k++) if (t.open('203.0.113.9', j.maxOpen)) opened++;
  parentPort!.postMessage({ allowed, opened });
});
