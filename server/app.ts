// composition: the services the configuration asks for, the route table over them, and the server.
// every adapter (feed, feeder list, artifact tree, clock) is created here and nowhere else.
import { loadServerAirports, type NamedAirport } from '../lib/reference/fields.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAP_TILES_OFFLINE, type ServerConfig } from './config.ts';
import { FeedSource } from './ingest/source.ts';
import { IngestThread } from './ingest/ingest-thread.ts';
import { Followers } from './ingest/followers.ts';
import { snapshotOf } from './ingest/arrival.ts';
import { LiveState } from './live/state.ts';
import { TraceStore } from './trace/trace-store.ts';
import { HistoryStore } from './history/history-store.ts';
import { Tracker } from './estimate/tracker.ts';
import { destinationLookup, type Destination } from '../artifacts/meta.ts';
import { openStations } from './stations/open.ts';
import { startServer, type Running, type ServerOptions } from './http/uws.ts';
import { SharedLimits } from './http/shared-limits.ts';
import { ThreadLimits } from './http/thread-limits.ts';
import { ServeThreads, shareablePort } from './serve/serve-threads.ts';
import { WINDOW_S } from '../schemas/policy.ts';
import type { Route } from './http/types.ts';
import { nowRoutes } from './handlers/now.ts';
import { aircraftRoutes } from './handlers/aircraft.ts';
import { pointRoutes } from './handlers/point.ts';
import { searchRoutes } from './handlers/search.ts';
import { traceRoutes } from './handlers/trace.ts';
import { healthRoutes } from './handlers/health.ts';
import { Metrics } from './metrics.ts';
import { metricsRoutes } from './handlers/metrics.ts';
import { estimatedRoutes } from './handlers/estimated.ts';
import { stationRoutes } from './handlers/stations.ts';
import { historyRoutes } from './handlers/history.ts';
import { routesRoutes } from './handlers/routes.ts';
import { docsRoutes } from './handlers/docs.ts';
import { mapRoutes } from './handlers/map.ts';
import { bundleRoutes } from './handlers/bundles.ts';
import { streamRoutes } from './handlers/stream.ts';
import { attachStream, type Stream } from './stream/socket.ts';
import { StreamBudget } from './stream/budget.ts';
import { loadCredits } from './credits.ts';
import { loadCodeBlocks } from '../lib/reference/codeblocks.ts';
import { installed } from '../lib/install.ts';
import type { Log } from '../lib/log.ts';
import { accessEntry } from './access-log.ts';
import type { Services } from './services.ts';

export interface AppOptions {
  log: Log;
  /** one event with fields (the access log, lib/log.ts Logger.event); without it, a line of JSON through `log` */
  event?: (msg: string, fields: object) => void;
  /**
   * unix ms; tests pin it. the serving workers cannot read a clock that is a function on this
   * thread, so with a pinned clock the app serves on this thread alone (whatever --serve-threads
   * says) unless `workersOnSystemClock` accepts that the workers read the system clock
   */
  clock?: () => number;
  /** a bench whose pinned clock does not matter to the workers (bench/memory.ts) */
  workersOnSystemClock?: boolean;
  /** start the pollers (feed, feeder list, artifact tree); tests drive them by hand */
  poll?: boolean;
}

/** Where a callsign is going, from the published build (artifacts/meta.ts destinationLookup). */
export function destinationsFrom(history: HistoryStore): (callsign: string) => Destination | null {
  let of: { id: string; lookup: (cs: string) => Destination | null } | null = null;
  return (callsign) => {
    const l = history.current;
    if (!l) return null;
    if (of?.id !== l.version.id) of = { id: l.version.id, lookup: destinationLookup(l.routes, l.lookup) };
    return of.lookup(callsign);
  };
}

function createServices(c: ServerConfig, o: AppOptions): Services {
  const clock = o.clock ?? Date.now;
  const live = new LiveState({ maxAgeS: c.maxAgeS });
  // airfield heights let the trace's take-off and landing be found where transponders send no ground flag
  const airports = loadServerAirports(installed('data/ref'));
  const traces = new TraceStore({ minutes: c.traceMinutes, fields: airports.fields });
  const history = new HistoryStore(c.artifacts, o.log);
  const tracker = new Tracker({
    destinationOf: destinationsFrom(history),
    // a build that loads (or replaces the one served) re-plans estimates its routes send elsewhere
    routesVersion: () => history.current?.version.id ?? null,
    learnedOf: () => ({ flow: history.current?.flow ?? null, paths: history.current?.paths ?? null }),
  });
  const stations = openStations({ state: c.state, location: c.stations, format: c.stationsFormat, clock, log: o.log });
  // parsing, preparing and compressing run on the ingest thread: taking a snapshot here is
  // wrapping its parts, and the trace store and estimator take its records in ~2 ms slices
  const ingest = new IngestThread();
  ingest.brotli = () => live.wantsBrotli(clock());
  const feed = c.feed
    ? new FeedSource({
        feed: c.feed,
        log: o.log,
        clock,
        intervalMs: c.feedInterval * 1000,
        maxAheadS: c.feedMaxAheadS,
        maxAgeS: c.maxAgeS,
        maxAircraft: c.feedMaxAircraft,
        thread: ingest,
      })
    : null;
  const followers = new Followers([traces, tracker], { log: o.log });
  feed?.onSnapshot((arrival) => {
    const snap = snapshotOf(arrival);
    void live.acceptWhenReady(snap, clock() / 1000).catch((e) => o.log(`live: a snapshot could not be prepared: ${(e as Error).stack ?? e}`, 'error'));
    followers.push(snap);
  });
  const blocks = loadCodeBlocks();
  const services: Omit<Services, 'metrics'> = {
    live,
    traces,
    tracker,
    history,
    stations,
    feed,
    ingest: c.feed ? ingest : null,
    followers,
    isKnownHex: (h) => blocks.isKnownHex(h),
    isMilitaryHex: (h) => blocks.isMilitaryHex(h),
    airportNames: airports.named,
    clock,
  };
  return { ...services, metrics: new Metrics(services) };
}

export function routesOf(s: Services, c: ServerConfig): Route[] {
  const accuracy = () => s.history.current?.accuracy ?? null;
  return [
    ...nowRoutes({ live: s.live, stationCount: () => s.stations.roster.stationCount(s.clock()), archiveThrough: () => s.history.archiveThrough() }),
    ...aircraftRoutes(s.live),
    ...streamRoutes(),
    ...pointRoutes(s.live),
    ...searchRoutes({ live: s.live, isMilitaryHex: s.isMilitaryHex }),
    ...traceRoutes({ traces: s.traces, isKnownHex: s.isKnownHex, assertFresh: (ms) => void s.live.current(ms) }),
    ...estimatedRoutes({ tracker: s.tracker, accuracy, assertFresh: (ms) => void s.live.current(ms) }),
    ...stationRoutes(s.stations),
    ...routesRoutes({ history: s.history }),
    ...historyRoutes({ history: s.history, isKnownHex: s.isKnownHex }),
    ...healthRoutes({ live: s.live, history: s.history, configured: { live: c.feed !== '', history: c.artifacts !== '' } }),
    ...metricsRoutes(() => s.metrics.rendered),
    ...docsRoutes({ baseUrl: () => c.baseUrl, credits: loadCredits(c), rateLimits: c.rateLimits }),
    ...bundleRoutes(c.bundles),
    ...mapRoutes({
      history: s.history,
      live: s.live,
      airportNames: s.airportNames,
      tiles: MAP_TILES_OFFLINE.includes(c.mapTiles) ? null : { name: c.mapTilesName, url: c.mapTiles, attribution: c.mapTilesAttribution },
    }),
  ];
}

/** /metrics hears every answer; the access log too when --access-log asks for it */
function observerOf(c: ServerConfig, o: AppOptions, metrics: Metrics): ServerOptions['observe'] {
  if (!c.accessLog) return (route, bucket, status, ms) => metrics.observe(route, bucket, status, ms);
  const event = eventOf(o);
  return (route, bucket, status, ms, req) => {
    metrics.observe(route, bucket, status, ms);
    event('request', accessEntry(route, bucket, status, ms, req, c.logIps));
  };
}

/** where the access log's events go */
const eventOf = (o: AppOptions) => o.event ?? ((msg: string, fields: object) => o.log(`${msg} ${JSON.stringify(fields)}`));

export interface App {
  port: number;
  services: Services;
  running: Running;
  /** /metrics; tests call render() to see the newest figures */
  metrics: Metrics;
  /** the push stream (/v1/stream) */
  stream: Stream;
  /** the route table the main thread serves (a worker serves a part of it and forwards the rest): tests generate cases from it */
  routes: readonly Route[];
  /** threads answering requests: 1, or --serve-threads when the workers started */
  threads: number;
  /** resolves once the serving threads have closed their sockets and exited */
  stop(): Promise<void>;
}

export async function createApp(c: ServerConfig, o: AppOptions): Promise<App> {
  const services = createServices(c, o);
  let watch: NodeJS.Timeout | null = null;
  if (o.poll !== false) {
    services.history.start();
    services.feed?.start();
    services.stations.source?.start();
    // logs the moment the live routes turn stale and the moment they recover
    watch = setInterval(() => services.live.watch(services.clock(), o.log), 1000);
    watch.unref();
  } else {
    services.history.refresh();
  }
  const metrics = services.metrics;
  await (o.poll !== false ? metrics.start() : metrics.render());
  let stream: Stream | null = null;
  const shared = c.rateLimits && c.rateLimitRedis ? new SharedLimits({ url: c.rateLimitRedis, windowS: WINDOW_S, log: o.log }) : null;
  await shared?.ready();
  // more than one serving thread: one table of limits and open streams for all of them, and a
  // copy of each snapshot's parts per worker, made by the ingest thread
  const threads = c.serveThreads > 1 && (!o.clock || o.workersOnSystemClock === true);
  if (threads && c.listenThread >= c.serveThreads)
    throw new Error(`--listen-thread ${c.listenThread} names no serving thread: there are ${c.serveThreads} (0..${c.serveThreads - 1})`);
  const limitsMemory = threads ? ThreadLimits.allocate(services.clock()) : null;
  const table = limitsMemory ? new ThreadLimits(limitsMemory, WINDOW_S) : null;
  // the unsent stream bytes of every serving thread, one slot each (this thread's is 0)
  const budgetMemory = StreamBudget.allocate(threads ? c.serveThreads : 1);
  if (services.ingest) services.ingest.copies = threads ? c.serveThreads - 1 : 0;
  const observe = observerOf(c, o, metrics);
  const routes = routesOf(services, c);
  const running = await startServer(routes, {
    host: c.host,
    port: threads ? await shareablePort(c.host, c.port) : c.port,
    listen: !threads || c.listenThread <= 0,
    trustProxy: c.trustProxy,
    rateLimits: c.rateLimits,
    gzipOffLoop: c.gzipOffLoop,
    shedCompressionAt: c.shedCompressionAt / 100,
    ...(shared ? { shared } : {}),
    ...(table ? { limiter: table } : {}),
    clock: services.clock,
    log: o.log,
    observe,
    sockets: (app, edge) => {
      const budget = new StreamBudget(budgetMemory, 0, c.streamMaxUnsent);
      stream = attachStream(app, edge, {
        live: services.live,
        perIp: c.streamPerIp,
        maxBufferBytes: c.streamMaxBuffer,
        budget,
        ...(table ? { opens: table } : {}),
      });
    },
  });
  const serving = threads
    ? await ServeThreads.start({
        config: c,
        count: c.serveThreads - 1,
        listenThread: c.listenThread,
        port: running.port,
        limits: limitsMemory,
        streamBudget: budgetMemory,
        pipeline: running.pipeline,
        observed: (ob) => {
          metrics.observe(ob.route, ob.bucket, ob.status, ob.ms, ob.thread);
          if (ob.entry) eventOf(o)('request', ob.entry);
        },
        brotliWanted: (atMs) => services.live.noteBrotliWanted(atMs),
        stalled: (thread, st) => metrics.stalled(thread, { max: st.max, p99: st.p99, arrival: st.arrival }),
        log: o.log,
      })
    : null;
  if (serving) {
    // the snapshot already live goes to each worker as it starts (copied once, here); every next
    // one is published here and its copies go from the ingest thread to the workers directly
    const now = services.live.latest();
    if (now) serving.push(now.snap.parts, now.trustedS, true);
    const ingest = services.ingest;
    ingest?.connect(() => serving.channels());
    services.feed?.onSnapshot((arrival) => {
      if (!('parts' in arrival)) return;
      const receivedS = services.clock() / 1000;
      serving.push(arrival.parts, receivedS);
      ingest?.publish(arrival.ingestId, receivedS);
    });
  }
  return {
    port: running.port,
    services,
    running,
    metrics,
    stream: stream!,
    routes,
    threads: serving ? c.serveThreads : 1,
    async stop() {
      if (watch) clearInterval(watch);
      stream?.stop();
      metrics.stop();
      services.feed?.stop();
      services.stations.source?.stop();
      services.history.stop();
      shared?.close();
      running.close();
      await serving?.stop();
    },
  };
}
