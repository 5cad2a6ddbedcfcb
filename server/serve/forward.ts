// a serving worker's requests for the main thread, answered synchronously: the worker posts the
// request on a port of its own and waits (Atomics.wait on a shared counter the main thread bumps
// after each reply) until the reply is on the port, then writes it inside the uws handler. an
// answer left pending in a uws handler loses the connection when the client has pipelined
// another request behind it (docs/perf-log/serving-threads.md), so the worker never leaves one:
// the cost is the worker's thread held for the round trip. a main thread that does not answer
// within the timeout gets a 503 upstream_unavailable written for it; its late reply is dropped.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { ApiError } from '../../lib/errors.ts';
import { asBuffer } from '../../lib/bytes.ts';
import { encodeError, type Wire } from '../http/respond.ts';
import type { Incoming, Pipeline } from '../http/pipeline.ts';

/** worker -> main: one request, as the pipeline saw it (the client's address resolved already) */
interface ForwardRequest {
  id: number;
  method: string;
  rawPath: string;
  query: string;
  headers: Record<string, string>;
  ip: string;
}

/** main -> worker: its answer, the body in a buffer of its own (transferred) */
interface ForwardReply {
  id: number;
  status: string;
  headers: [string, string][];
  body: Uint8Array;
  headLength?: number;
}

/** the two ends' shared state: a counter bumped after each reply is posted */
export const forwardSignal = (): SharedArrayBuffer => new SharedArrayBuffer(4);

/** The worker's side: a pipeline that answers each request with the main thread's reply, at once. */
export function forwardingPipeline(port: MessagePort, signal: SharedArrayBuffer, timeoutMs: number): Pipeline {
  const bumped = new Int32Array(signal);
  let nextId = 0;
  const pipeline = (r: Incoming, write: (w: Wire) => void) => {
    nextId = (nextId + 1) | 0;
    const id = nextId;
    const req: ForwardRequest = { id, method: r.method, rawPath: r.rawPath, query: r.query, headers: r.headers, ip: r.ip() };
    port.postMessage(req);
    const rep = replyFor(id, performance.now() + timeoutMs);
    write(rep ? wireOf(rep) : timedOut(timeoutMs));
  };
  /** the reply to `id` once it is on the port, or null at `deadline` */
  const replyFor = (id: number, deadline: number): ForwardReply | null => {
    for (;;) {
      // read the counter before the port: a reply posted after this read changes it, so the wait
      // below returns at once instead of sleeping through it
      const seen = Atomics.load(bumped, 0);
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const rep = m.message as ForwardReply;
        if (rep.id === id) return rep;
        // otherwise the late reply to a request already answered 503: dropped
      }
      const left = deadline - performance.now();
      if (left <= 0) return null;
      Atomics.wait(bumped, 0, seen, left);
    }
  };
  return pipeline;
}

/** The main thread's side: every request on `port` answered by `pipeline`, its reply posted, the worker woken. */
export function answerForwards(port: MessagePort, signal: SharedArrayBuffer, pipeline: Pipeline): void {
  const bumped = new Int32Array(signal);
  port.on('message', (m: ForwardRequest) => {
    const { ip, ...req } = m;
    pipeline(
      { ...req, ip: () => ip },
      (w) => {
        const rep = replyOf(m.id, w);
        port.postMessage(rep, [rep.body.buffer as ArrayBuffer]);
        Atomics.add(bumped, 0, 1);
        Atomics.notify(bumped, 0);
      },
      // the worker writes whatever it gets; a client gone meanwhile is its concern
      () => false,
    );
  });
}

/** A Wire as it crosses threads: the body copied to a buffer of its own (a view may share a big one). */
function replyOf(id: number, w: Wire): ForwardReply {
  const body = new Uint8Array(w.body.length);
  body.set(w.body);
  return { id, status: w.status, headers: w.headers, body, ...(w.headLength !== undefined && { headLength: w.headLength }) };
}

const wireOf = (m: ForwardReply): Wire => ({
  status: m.status,
  headers: m.headers,
  body: asBuffer(m.body),
  ...(m.headLength !== undefined && { headLength: m.headLength }),
});

function timedOut(timeoutMs: number): Wire {
  const detail = `the serving thread that holds this route did not answer within ${timeoutMs} ms; retry shortly`;
  return encodeError(new ApiError(503, 'upstream_unavailable', detail, { 'Retry-After': '1' }), []);
}
