// a serving worker's synchronous forwarding (server/serve/forward.ts): the request posted, the reply
// waited for inside the call, so the worker writes it before its uws handler returns. here this
// test's thread is the worker and a thread of its own plays the main thread (test/helpers/forward-answerer.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { tsWorker } from '../../../lib/ts-worker.ts';
import { forwardingPipeline, forwardSignal } from '../../../server/serve/forward.ts';
import type { Wire } from '../../../server/http/respond.ts';
import type { Incoming } from '../../../server/http/pipeline.ts';

let main: Worker;
let port: MessagePort;
let signal: SharedArrayBuffer;
before(async () => {
  const ch = new MessageChannel();
  signal = forwardSignal();
  port = ch.port1;
  main = tsWorker(new URL('../../helpers/forward-answerer.ts', import.meta.url), { workerData: { port: ch.port2, signal }, transferList: [ch.port2] });
  await new Promise((r) => main.once('message', r));
});
after(async () => {
  port.close();
  await main.terminate();
});

const req = (rawPath: string, method = 'GET'): Incoming => ({ method, rawPath, query: 'a=1', headers: { 'user-agent': 'probe' }, ip: () => '192.0.2.7' });

/** one forwarded request; the reply must be written before the call returns */
function ask(p: ReturnType<typeof forwardingPipeline>, r: Incoming): Wire {
  let got: Wire | null = null;
  p(
    r,
    (w) => (got = w),
    () => false,
  );
  assert.ok(got, `${r.rawPath}: answered within the call, never later`);
  return got;
}

test('each forwarded request is answered within the call with its own reply, in order, headers and body as the main thread wrote them', () => {
  const p = forwardingPipeline(port, signal, 5000);
  for (let i = 0; i < 200; i++) {
    const w = ask(p, req(`/v1/x${i}`, i % 3 ? 'GET' : 'HEAD'));
    assert.equal(w.status, '200 OK');
    assert.deepEqual(w.headers, [
      ['Content-Type', 'application/json'],
      ['X-Echo', `/v1/x${i}`],
    ]);
    assert.deepEqual(JSON.parse(w.body.toString()), { path: `/v1/x${i}`, query: 'a=1', ip: '192.0.2.7', method: i % 3 ? 'GET' : 'HEAD', ua: 'probe' });
    assert.equal(w.headLength, i % 3 ? undefined : 1234);
  }
});

test('a main thread that does not answer in time: 503 upstream_unavailable in the section-7 shape; its late reply is dropped and the next request gets its own', () => {
  const p = forwardingPipeline(port, signal, 1000);
  for (const path of ['/never', '/slow', '/never']) {
    const t0 = performance.now();
    const w = ask(p, req(path));
    assert.ok(performance.now() - t0 >= 990, 'waited the timeout');
    assert.equal(w.status.slice(0, 3), '503');
    assert.deepEqual(JSON.parse(w.body.toString()).error, 'upstream_unavailable');
    assert.deepEqual(Object.keys(JSON.parse(w.body.toString())).sort(), ['detail', 'error']);
    const h = Object.fromEntries(w.headers);
    assert.equal(h['Cache-Control'], 'no-store');
    assert.equal(h['Retry-After'], '1');
  }
  // /slow's reply arrived while the last /never waited: it was not taken for that one's, nor for this
  const w = ask(p, req('/v1/after'));
  assert.equal(JSON.parse(w.body.toString()).path, '/v1/after');
});
