// the main thread's side of server/serve/forward.ts in a thread of its own, for its test: answers
// each forwarded request with its path echoed, after a pause for /slow, never for /never
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { answerForwards } from '../../server/serve/forward.ts';

const { port, signal } = workerData as { port: MessagePort; signal: SharedArrayBuffer };
const pause = new Int32Array(new SharedArrayBuffer(4));
answerForwards(port, signal, (r, write) => {
  if (r.rawPath === '/never') return;
  if (r.rawPath === '/slow') Atomics.wait(pause, 0, 0, 1500);
  const body = Buffer.from(JSON.stringify({ path: r.rawPath, query: r.query, ip: r.ip(), method: r.method, ua: r.headers['user-agent'] ?? null }));
  write({
    status: '200 OK',
    headers: [
      ['Content-Type', 'application/json'],
      ['X-Echo', r.rawPath],
    ],
    body,
    ...(r.method === 'HEAD' && { headLength: 1234 }),
  });
});
parentPort!.postMessage('ready');
