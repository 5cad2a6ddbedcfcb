// /metrics in the Prometheus text format (prom-client): the live snapshot's age and size, feed
// errors by kind (the counters the feed log promises "in stats"), requests and latency by route
// and status, 429s by bucket, the history build served and its age. the text is rendered every
// few seconds off the request path (handlers answer synchronously: server/http/types.ts).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LoopStall, STALL_WINDOW_MS, type Stall } from './loop-stall.ts';
import type { LiveState } from './live/state.ts';
import type { HistoryStore } from './history/history-store.ts';
import type { FeedSource } from './ingest/source.ts';
import type { IngestThread } from './ingest/ingest-thread.ts';
import type { Followers } from './ingest/followers.ts';

/** the services /metrics reads (a part of Services, services.ts, named here so that file can name Metrics) */
interface Measured {
  live: LiveState;
  history: HistoryStore;
  feed: FeedSource | null;
  ingest: IngestThread | null;
  followers: Followers;
  clock: () => number;
}

export class Metrics {
  readonly registry = new Registry();
  private text = '';
  private timer: NodeJS.Timeout | null = null;
  private readonly requests = new Counter({
    name: 'contrail_http_requests_total',
    help: 'Answers by route pattern and status',
    labelNames: ['route', 'status'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'contrail_http_request_seconds',
    help: 'Time to answer, by route pattern',
    labelNames: ['route'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  // each serving thread's longest stall per window (prom-client's own lag gauges never reset their
  // maximum): the main thread's own (thread 0), taken at each rendering, and each worker's latest report
  private readonly loopDelay = new LoopStall();
  private readonly stalls = new Map<number, Stall & { arrival: number }>();
  private readonly byThread = new Counter({
    name: 'contrail_http_answers_by_thread_total',
    help: 'Answers by serving thread (0: the main thread; --serve-threads)',
    labelNames: ['thread'],
    registers: [this.registry],
  });
  private readonly limited = new Counter({
    name: 'contrail_rate_limited_total',
    help: '429 answers by bucket',
    labelNames: ['bucket'],
    registers: [this.registry],
  });

  constructor(s: Measured) {
    collectDefaultMetrics({ register: this.registry, prefix: 'contrail_process_' });
    const { loopDelay, stalls } = this;
    const feed = s.feed;
    const followers = s.followers;
    new Gauge({
      name: 'contrail_event_loop_stall_seconds',
      help: "Each serving thread's longest event-loop delay, and its 99th percentile, over its latest 5 s window (thread 0: the main thread; --serve-threads)",
      labelNames: ['thread', 'stat'],
      registers: [this.registry],
      collect() {
        const own = loopDelay.take();
        if (own) stalls.set(0, { ...own, arrival: 0 });
        for (const [thread, st] of stalls) {
          this.set({ thread: String(thread), stat: 'max' }, st.max);
          this.set({ thread: String(thread), stat: 'p99' }, st.p99);
        }
      },
    });
    new Gauge({
      name: 'contrail_snapshot_blocking_seconds',
      help: "The longest time a serving thread's own work on a snapshot held its event loop over the latest 5 s window: taking it on arrival (the main thread: the live state, and the followers' first slice), and each later slice of the trace store and estimator (main thread)",
      labelNames: ['thread', 'step'],
      registers: [this.registry],
      collect() {
        if (feed) this.set({ thread: '0', step: 'arrival' }, feed.arrivals.take());
        this.set({ thread: '0', step: 'follower_slice' }, followers.slices.take());
        for (const [thread, st] of stalls) if (thread > 0) this.set({ thread: String(thread), step: 'arrival' }, st.arrival);
      },
    });
    const gauge = (name: string, help: string, value: () => number | null) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const v = value();
          if (v !== null) this.set(v);
        },
      });
    gauge('contrail_snapshot_age_seconds', 'Age of the live snapshot as trusted (the stale rule counts from it)', () => s.live.ageS(s.clock()));
    gauge('contrail_snapshot_aircraft', 'Aircraft in the current snapshot', () => s.live.latestTotal());
    gauge('contrail_history_build_age_seconds', 'Age of the published history build served', () => {
      const built = s.history.current?.version.header.built_at;
      return built ? (s.clock() - Date.parse(built)) / 1000 : null;
    });
    new Gauge({
      name: 'contrail_history_build_info',
      help: 'The history build served (value 1)',
      labelNames: ['build'],
      registers: [this.registry],
      collect() {
        this.reset();
        const id = s.history.current?.version.id;
        if (id) this.set({ build: id }, 1);
      },
    });
    new Gauge({
      name: 'contrail_feed_events',
      help: 'Feed failures and dropped records by kind, since start',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        for (const [kind, n] of Object.entries(s.feed?.counters ?? {})) this.set({ kind }, n);
      },
    });
    new Gauge({
      name: 'contrail_ingest_seconds',
      help: "The newest snapshot's time on the ingest thread, by step (parse, prepare, compress)",
      labelNames: ['step'],
      registers: [this.registry],
      collect() {
        const t = s.ingest?.last;
        if (t) for (const [step, ms] of Object.entries(t)) this.set({ step }, ms / 1000);
      },
    });
    gauge('contrail_feed_snapshots_accepted', 'Good snapshots taken from the feed since start', () => s.feed?.accepted ?? null);
  }

  /** the uws boundary's observer (ServerOptions.observe); `thread`: the serving thread that answered */
  readonly observe = (route: string, bucket: string, status: number, ms: number, thread = 0): void => {
    this.requests.inc({ route, status: String(status) });
    this.byThread.inc({ thread: String(thread) });
    this.latency.observe({ route }, ms / 1000);
    if (status === 429) this.limited.inc({ bucket });
  };

  /** a serving worker's window of event-loop delay (its own LoopStall, reported every STALL_WINDOW_MS) */
  stalled(thread: number, s: Stall & { arrival: number }): void {
    this.stalls.set(thread, s);
  }

  /** render now and every `everyMs` */
  async start(everyMs = STALL_WINDOW_MS): Promise<void> {
    await this.render();
    this.timer = setInterval(() => void this.render(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.loopDelay.stop();
  }

  async render(): Promise<void> {
    this.text = await this.registry.metrics();
  }

  /** the newest rendering, and its content type */
  get rendered(): { text: string; contentType: string } {
    return { text: this.text, contentType: this.registry.contentType };
  }
}
