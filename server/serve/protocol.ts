// what the main thread and the serving workers (serve-worker.ts) say to each other. each worker's
// snapshot parts are its own copy, made on the ingest thread and sent from there on a port of
// its own once the main thread has published the snapshot (parts/prepare.ts servingCopy says why not
// shared memory; ingest/ingest-worker.ts why not through the main thread).
import type { MessagePort } from 'node:worker_threads';
import type { SnapshotParts } from '../parts/prepare.ts';
import type { ServerConfig } from '../config.ts';
import type { LogLevel } from '../../lib/log.ts';

/** what a serving worker starts with (workerData) */
export interface ServeWorkerData {
  config: ServerConfig;
  /** the port the main thread listens on: the worker listens on it too (SO_REUSEPORT) */
  port: number;
  /** ThreadLimits' table, when the limits are counted in this process */
  limits: SharedArrayBuffer | null;
  /** the stream budget's slots, one per serving thread (server/stream/budget.ts) */
  streamBudget: SharedArrayBuffer;
  /** this worker's number (1, 2, ...; the main thread is 0): its log lines and /metrics name it */
  index: number;
  /** the port its requests for the main thread go on, answered synchronously (forward.ts), and the counter that wakes it */
  forward: { port: MessagePort; signal: SharedArrayBuffer };
  /** false: this worker does not listen (a test pins connections to the main thread; ServerConfig.listenThreads) */
  listen: boolean;
}

/** main -> worker */
export type ToWorker =
  /** a snapshot went live: `receivedS` is the main thread's clock on its arrival (the stale rule counts from it).
   * sent by the main thread only for the snapshot already live when a worker starts; the next ones come on the channel */
  | { t: 'snapshot'; parts: SnapshotParts; receivedS: number }
  /** the port on which the ingest thread sends each next snapshot's copy (ingest-worker.ts CopyMessage), replacing any before */
  | { t: 'channel'; port: MessagePort }
  | { t: 'stop' };

/** one answer a worker gave, for /metrics and the access log (`entry`: the access log's fields, when it is on) */
export interface Observation {
  /** the serving thread that answered */
  thread: number;
  route: string;
  bucket: string;
  status: number;
  ms: number;
  entry?: object;
}

/** worker -> main */
export type FromWorker =
  | { t: 'listening' }
  | { t: 'failed'; message: string }
  | { t: 'observed'; batch: Observation[] }
  /** the worker's event loop over its latest window (server/loop-stall.ts), and its longest taking of a snapshot; seconds */
  | { t: 'stall'; max: number; p99: number; arrival: number }
  /** a client asked for the whole body in brotli lately */
  | { t: 'brotli'; atMs: number }
  | { t: 'log'; line: string; level?: LogLevel };
