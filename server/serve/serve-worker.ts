// a serving thread (--serve-threads): its own uWS app on the main thread's port, answering the
// live routes that need only the snapshot (/v1/aircraft, /v2/point, the /v2 searches, /v1/stream)
// from its own copy of each snapshot's parts; every other request is forwarded to the main
// thread and answered there by the same pipeline. the rate limits and the open-stream counts are
// the process's one shared table (ThreadLimits), or Redis when the limits are shared by replicas.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { loadCodeBlocks } from '../../lib/reference/codeblocks.ts';
import { WINDOW_S } from '../../schemas/policy.ts';
import { accessEntry } from '../access-log.ts';
import { aircraftRoutes } from '../handlers/aircraft.ts';
import { pointRoutes } from '../handlers/point.ts';
import { searchRoutes } from '../handlers/search.ts';
import { streamRoutes } from '../handlers/stream.ts';
import { SharedLimits } from '../http/shared-limits.ts';
import { ThreadLimits } from '../http/thread-limits.ts';
import { startServer, type ServerOptions } from '../http/uws.ts';
import { LiveState } from '../live/state.ts';
import { attachStream, type Stream } from '../stream/socket.ts';
import { StreamBudget } from '../stream/budget.ts';
import type { Log } from '../../lib/log.ts';
import { Longest, LoopStall, STALL_WINDOW_MS } from '../loop-stall.ts';
import type { FromWorker, Observation, ServeWorkerData, ToWorker } from './protocol.ts';
import { forwardingPipeline } from './forward.ts';

const FLUSH_MS = 100;
const port = parentPort!;
const data = workerData as ServeWorkerData;
const c = data.config;
const post = (m: FromWorker) => port.postMessage(m);
const log: Log = (line, level) => post({ t: 'log', line: `serving thread ${data.index}: ${line}`, ...(level && { level }) });

const live = new LiveState({ maxAgeS: c.maxAgeS, eagerGzip: false });
const blocks = loadCodeBlocks();
const routes = [...aircraftRoutes(live), ...pointRoutes(live), ...searchRoutes({ live, isMilitaryHex: (h) => blocks.isMilitaryHex(h) }), ...streamRoutes()];
const table = data.limits ? new ThreadLimits(data.limits, WINDOW_S) : null;
const shared = c.rateLimits && c.rateLimitRedis ? new SharedLimits({ url: c.rateLimitRedis, windowS: WINDOW_S, log }) : null;

// answers this thread gave, handed to the main thread's /metrics (and access log) in batches
let batch: Observation[] = [];
const observe: ServerOptions['observe'] = (route, bucket, status, ms, req) => {
  batch.push({ thread: data.index, route, bucket, status, ms, ...(c.accessLog && { entry: accessEntry(route, bucket, status, ms, req, c.logIps) }) });
};

// what no route here matches goes to the main thread (the pipeline has decoded and routed it once)
// and is answered inside the uws handler, never left pending (forward.ts)
const forward = forwardingPipeline(data.forward.port, data.forward.signal, c.forwardTimeoutMs);

let stream: Stream | null = null;
let timers: NodeJS.Timeout[] = [];
// where the ingest thread sends each snapshot's copy
let channel: MessagePort | null = null;
const stall = new LoopStall();
const arrivals = new Longest();
const accept = (m: Extract<ToWorker, { t: 'snapshot' }>) => {
  const t0 = performance.now();
  live.accept(m.parts, m.receivedS);
  arrivals.note(performance.now() - t0);
};

async function main(): Promise<void> {
  await shared?.ready();
  const running = await startServer(routes, {
    host: c.host,
    port: data.port,
    listen: data.listen,
    trustProxy: c.trustProxy,
    rateLimits: c.rateLimits,
    gzipOffLoop: c.gzipOffLoop,
    shedCompressionAt: c.shedCompressionAt / 100,
    ...(table && { limiter: table }),
    ...(shared && { shared }),
    log,
    observe,
    unrouted: forward,
    sockets: (app, edge) => {
      const budget = new StreamBudget(data.streamBudget, data.index, c.streamMaxUnsent);
      stream = attachStream(app, edge, { live, perIp: c.streamPerIp, maxBufferBytes: c.streamMaxBuffer, budget, ...(table && { opens: table }) });
    },
  });
  timers = [
    setInterval(() => {
      if (batch.length === 0) return;
      post({ t: 'observed', batch });
      batch = [];
    }, FLUSH_MS),
    // this thread's stalls, for /metrics beside the main thread's own
    setInterval(() => {
      const s = stall.take();
      if (s) post({ t: 'stall', ...s, arrival: arrivals.take() });
    }, STALL_WINDOW_MS),
    // the main thread's ingest makes the whole body's brotli while clients ask for it
    setInterval(() => {
      const now = Date.now();
      if (live.wantsBrotli(now)) post({ t: 'brotli', atMs: now });
    }, 1000),
  ];
  port.on('message', (m: ToWorker) => {
    if (m.t === 'snapshot') {
      accept(m);
    } else if (m.t === 'channel') {
      channel?.close();
      channel = m.port;
      channel.on('message', accept);
    } else if (m.t === 'stop') {
      for (const t of timers) clearInterval(t);
      stall.stop();
      stream?.stop();
      shared?.close();
      running.closeAll();
      channel?.close();
      data.forward.port.close();
      port.close();
    }
  });
  post({ t: 'listening' });
}

main().catch((e: Error) => post({ t: 'failed', message: e.message }));
