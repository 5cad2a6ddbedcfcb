// the main thread's side of the extra serving threads (--serve-threads): each worker
// (serve-worker.ts) listens on the same port (the kernel spreads connections across the threads,
// SO_REUSEPORT) and answers the live routes from its own copy of each snapshot, which the ingest
// thread sends it on a channel made here; what only the main
// thread holds (traces, estimates, history, stations, /metrics) it forwards here, and this thread
// answers through the same request pipeline as its own sockets.
import { createServer } from 'node:net';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { tsWorker } from '../../lib/ts-worker.ts';
import type { Log } from '../../lib/log.ts';
import type { ServerConfig } from '../config.ts';
import type { Pipeline } from '../http/pipeline.ts';
import type { SnapshotParts } from '../parts/prepare.ts';
import type { FromWorker, Observation, ServeWorkerData, ToWorker } from './protocol.ts';
import { answerForwards, forwardSignal } from './forward.ts';

export interface ServeThreadsOptions {
  config: ServerConfig;
  /** extra serving threads (the main thread is the first) */
  count: number;
  /** the one thread that listens (tests: ServerConfig.listenThread), or -1: all of them */
  listenThread: number;
  port: number;
  limits: SharedArrayBuffer | null;
  /** the stream budget's slots, one per serving thread */
  streamBudget: SharedArrayBuffer;
  /** answers a forwarded request (the main thread's own pipeline) */
  pipeline: Pipeline;
  /** hears every answer a worker gave (/metrics; the access log's entry when it is on) */
  observed: (o: Observation) => void;
  brotliWanted: (atMs: number) => void;
  /** hears a worker's event-loop stall window (/metrics) */
  stalled: (thread: number, s: { max: number; p99: number; arrival: number }) => void;
  log: Log;
}

export class ServeThreads {
  private readonly workers: Worker[] = [];
  private latest: Extract<ToWorker, { t: 'snapshot' }> | null = null;

  private constructor(private readonly o: ServeThreadsOptions) {}

  /** Start the workers; resolves once each listens (rejects with the reason one could not). */
  static async start(o: ServeThreadsOptions): Promise<ServeThreads> {
    const s = new ServeThreads(o);
    await Promise.all(Array.from({ length: o.count }, (_, i) => s.spawn(i + 1)));
    return s;
  }

  /**
   * A snapshot went live on the main thread: kept to start a worker with (posted, so copied
   * once, only then); `postNow` posts it to the running workers as well (the snapshot already
   * live when they started). Otherwise they get theirs from the ingest thread (channels).
   */
  push(parts: SnapshotParts, receivedS: number, postNow = false): void {
    // the workers serve HTTP only from the snapshot: the columns stay with the trace store here
    const { columns: _, ...served } = parts;
    this.latest = { t: 'snapshot', parts: served as SnapshotParts, receivedS };
    if (postNow) for (const w of this.workers) w.postMessage(this.latest);
  }

  /**
   * A new channel to each worker, for the ingest thread's copies (IngestThread.connect): one
   * port goes to the worker, the other is returned, in the order of the workers.
   */
  channels(): MessagePort[] {
    return this.workers.map((w) => {
      const { port1, port2 } = new MessageChannel();
      w.postMessage({ t: 'channel', port: port2 } satisfies ToWorker, [port2]);
      return port1;
    });
  }

  /** Close the workers' sockets; resolves when they have exited. */
  async stop(): Promise<void> {
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.postMessage({ t: 'stop' } satisfies ToWorker);
          }),
      ),
    );
    this.workers.length = 0;
  }

  private spawn(index: number): Promise<void> {
    const { o } = this;
    // the worker's requests for this thread come on a port of their own, answered at once (forward.ts)
    const { port1, port2 } = new MessageChannel();
    const signal = forwardSignal();
    answerForwards(port1, signal, o.pipeline);
    const listen = o.listenThread < 0 || o.listenThread === index;
    const data: ServeWorkerData = {
      config: o.config,
      port: o.port,
      limits: o.limits,
      index,
      forward: { port: port2, signal },
      listen,
      streamBudget: o.streamBudget,
    };
    const w = tsWorker(new URL('./serve-worker.ts', import.meta.url), { workerData: data, transferList: [port2] });
    return new Promise((resolve, reject) => {
      w.on('message', (m: FromWorker) => {
        switch (m.t) {
          case 'listening':
            this.workers.push(w);
            if (this.latest) w.postMessage(this.latest);
            return resolve();
          case 'failed':
            return reject(new Error(`serving thread ${index}: ${m.message}`));
          case 'observed':
            for (const ob of m.batch) o.observed(ob);
            return;
          case 'brotli':
            return o.brotliWanted(m.atMs);
          case 'stall':
            return o.stalled(index, m);
          case 'log':
            return o.log(m.line, m.level);
        }
      });
      w.once('error', (e) => {
        o.log(`serving thread ${index} failed: ${e.stack ?? e}`, 'error');
        reject(e);
      });
      w.once('exit', (code) => {
        port1.close();
        const at = this.workers.indexOf(w);
        if (at >= 0) this.workers.splice(at, 1);
        if (code !== 0) o.log(`serving thread ${index} exited (${code}); the other threads serve on`, 'error');
      });
    });
  }
}

/**
 * The port to listen on: `port`, or for 0 a free one picked now. uWS binds port 0 without
 * SO_REUSEPORT, so the other threads could not share an ephemeral port: the main thread listens
 * on a named one instead (another process could take it in between: then start-up fails, saying so).
 */
export function shareablePort(host: string, port: number): Promise<number> {
  if (port !== 0) return Promise.resolve(port);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const picked = (probe.address() as { port: number }).port;
      probe.close(() => resolve(picked));
    });
  });
}
