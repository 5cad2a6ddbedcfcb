// the live input adapter: a decoder aircraft.json file, re-read when it changes (stat once a
// second; readsb replaces it by rename), or an http(s) URL polled once a second.
// bad input never throws out of here and never replaces a good snapshot: it is counted per kind
// and logged once per kind per outage; the recovery is logged once too.
import { stat } from 'node:fs/promises';
import { parseFeed, type ParseResult } from '../feed/parse.ts';
import type { IngestResult, IngestThread } from './ingest-thread.ts';
import { capAircraft } from '../feed/cap.ts';
import { errnoOf, overLimit, readFeedFile } from '../feed/read-file.ts';
import type { FeedCounters } from '../feed/normalize.ts';
import { aircraftCount, type Arrival } from './arrival.ts';
import { escapeControl } from '../../lib/log-text.ts';
import type { Log } from '../../lib/log.ts';
import { Longest } from '../loop-stall.ts';
import { FeedClock } from './feed-clock.ts';

export type SnapshotListener = (snap: Arrival) => void;

/** one poll's outcome: parsed here (records) or on the ingest thread (parts) */
type Polled = ParseResult | IngestResult['result'];

export interface FeedSourceOptions {
  /** a file path or an http(s) URL */
  feed: string;
  log: Log;
  /** poll period, ms (1000: readsb writes once a second) */
  intervalMs?: number;
  /** per-request timeout for a URL, ms */
  timeoutMs?: number;
  /** larger inputs are refused unread (bytes); a 12k-aircraft readsb file is ~6.5 MB */
  maxBytes?: number;
  /** s. a snapshot whose `now` is further ahead of this server's clock is refused: a clock in the
   * future would keep an outage from ever reading as stale (spec 1 rule 5) */
  maxAheadS?: number;
  /** s a snapshot may be old before it is stale: a clock that went back is taken as reset only when it agrees with this server's within it (feed-clock.ts) */
  maxAgeS?: number;
  /** aircraft kept per snapshot at most, the most recently heard first (a global readsb feed is ~15k) */
  maxAircraft?: number;
  /** this server's clock, unix ms */
  clock?: () => number;
  /** parse and prepare off the serving thread (an IngestThread); null parses in this thread (tests, tools) */
  thread?: IngestThread | null;
}

const isUrl = (feed: string) => /^https?:\/\//i.test(feed);

export class FeedSource {
  /** whole-file failures and dropped records, by kind, since start */
  readonly counters: FeedCounters = {};
  /** good snapshots taken */
  accepted = 0;
  private readonly opts: Required<FeedSourceOptions>;
  private readonly listeners: SnapshotListener[] = [];
  /** the longest hand-over of a snapshot to its listeners on this thread (the live state, the followers' first slice) since /metrics last read it */
  readonly arrivals = new Longest();
  private last: Arrival | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  // a stop() then start() while a poll is in flight must not leave two loops
  private generation = 0;
  private abort: AbortController | null = null;
  private fileKey = '';
  private failing = false;
  private readonly logged = new Set<string>();
  private readonly loggedDrops = new Set<string>();
  private readonly feedClock: FeedClock;

  constructor(opts: FeedSourceOptions) {
    this.opts = {
      intervalMs: 1000,
      timeoutMs: 2500,
      maxBytes: 64 * 1024 * 1024,
      maxAheadS: 5,
      maxAgeS: 60,
      maxAircraft: 50_000,
      clock: Date.now,
      thread: null,
      ...opts,
    };
    this.feedClock = new FeedClock({ maxAheadS: this.opts.maxAheadS, maxAgeS: this.opts.maxAgeS });
  }

  /** Subscribe to every good snapshot; returns the unsubscribe function. */
  onSnapshot(listener: SnapshotListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** The last good snapshot, or null. */
  current(): Arrival | null {
    return this.last;
  }

  /** Start polling (the first poll runs at once). */
  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop(++this.generation);
  }

  /** Stop polling: clears the timer and aborts a request in flight. */
  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort?.abort();
    this.opts.thread?.stop();
  }

  private async loop(gen: number): Promise<void> {
    await this.pollOnce();
    // a chain of timeouts, not an interval: a slow read never overlaps the next one
    if (this.running && gen === this.generation) this.timer = setTimeout(() => void this.loop(gen), this.opts.intervalMs);
  }

  /** One poll: fetch or stat+read, parse, publish. Never throws. */
  async pollOnce(): Promise<void> {
    try {
      if (isUrl(this.opts.feed)) {
        const bytes = await this.fetchUrl();
        if (bytes) this.take(await this.parse(bytes));
        return;
      }
      const key = await this.changedKey();
      if (key === null) return;
      const r = await this.readAndParse();
      // a file that could not be read is tried again at the next poll
      if (r.ok || r.reason !== 'read_error') this.fileKey = key;
      this.take(r);
    } catch (e) {
      this.fail('internal', (e as Error)?.message ?? String(e));
    }
  }

  /** The feed file's identity when it changed since the last read and may be read; null otherwise. */
  private async changedKey(): Promise<string | null> {
    let st;
    try {
      st = await stat(this.opts.feed);
    } catch (e) {
      this.fail('read_error', `cannot stat ${this.opts.feed}: ${errnoOf(e)}`);
      return null;
    }
    // a rename gives a new inode; an in-place write changes mtime or size
    const key = `${st.ino}:${st.mtimeMs}:${st.size}`;
    if (key === this.fileKey) return null;
    if (st.size > this.opts.maxBytes) {
      this.fileKey = key;
      this.fail('too_large', overLimit(this.opts.feed, st.size, this.opts.maxBytes));
      return null;
    }
    return key;
  }

  /** Read the file and parse it: on the ingest thread when there is one (the bytes never come here). */
  private async readAndParse(): Promise<Polled> {
    const { thread, feed, maxBytes, maxAircraft } = this.opts;
    if (thread) return this.counted(await thread.read(feed, maxBytes, maxAircraft));
    const bytes = readFeedFile(feed, maxBytes);
    return typeof bytes === 'string' ? { ok: false, reason: 'read_error', detail: bytes } : parseFeed(bytes, this.counters);
  }

  private async fetchUrl(): Promise<Buffer | null> {
    const ctl = new AbortController();
    this.abort = ctl;
    const timeout = setTimeout(() => ctl.abort(new Error('timeout')), this.opts.timeoutMs);
    try {
      const res = await fetch(this.opts.feed, { signal: ctl.signal, headers: { accept: 'application/json' } });
      if (!res.ok) {
        await res.body?.cancel();
        this.fail('http_status', `${this.opts.feed} answered HTTP ${res.status}`);
        return null;
      }
      const length = Number(res.headers.get('content-length') ?? 0);
      if (length > this.opts.maxBytes) {
        await res.body?.cancel();
        this.fail('too_large', `${this.opts.feed} sends ${length} bytes, over the ${this.opts.maxBytes} limit`);
        return null;
      }
      // the cap holds while reading: a chunked body without Content-Length is cut off, never buffered whole
      const chunks: Uint8Array[] = [];
      let total = 0;
      const reader = res.body?.getReader();
      for (;;) {
        const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
        if (chunk.done) break;
        total += chunk.value.length;
        if (total > this.opts.maxBytes) {
          await reader!.cancel();
          this.fail('too_large', `${this.opts.feed} sent over ${this.opts.maxBytes} bytes; stopped reading`);
          return null;
        }
        chunks.push(chunk.value);
      }
      return Buffer.concat(chunks, total);
    } catch (e) {
      if (!this.running && ctl.signal.aborted && ctl.signal.reason?.message !== 'timeout') return null;
      const timedOut = ctl.signal.aborted;
      this.fail(
        timedOut ? 'timeout' : 'fetch_failed',
        timedOut ? `${this.opts.feed} did not answer within ${this.opts.timeoutMs} ms` : `${this.opts.feed}: ${causeOf(e)}`,
      );
      return null;
    } finally {
      clearTimeout(timeout);
      if (this.abort === ctl) this.abort = null;
    }
  }

  private async parse(bytes: Buffer): Promise<Polled> {
    if (!this.opts.thread) return parseFeed(bytes, this.counters);
    return this.counted(await this.opts.thread.parse(bytes, this.opts.maxAircraft));
  }

  /** the ingest thread's counts added to this source's */
  private counted({ result, counters }: IngestResult): IngestResult['result'] {
    for (const [k, n] of Object.entries(counters)) this.counters[k] = (this.counters[k] ?? 0) + n;
    return result;
  }

  private take(r: Polled): void {
    if (!r.ok) {
      // a read failure names the file itself
      this.fail(r.reason, r.reason === 'read_error' ? r.detail : `${this.opts.feed}: ${r.detail}; keeping the previous snapshot`);
      return;
    }
    let snap = r.snapshot;
    const clock = this.feedClock.check(snap.now, this.opts.clock() / 1000);
    if (!clock.ok) {
      this.fail(clock.kind, `${this.opts.feed}: ${clock.detail}`);
      return;
    }
    if (clock.reset)
      this.opts.log(
        `feed: the decoder's clock went back ${Math.round(clock.reset.backS)} s and agrees with this server's: taken as reset (${this.opts.feed})`,
        'warn',
      );
    const count = aircraftCount(snap);
    const over = (r.capped ?? 0) + Math.max(0, count - this.opts.maxAircraft);
    if (over > 0) {
      this.countDrop(
        'too_many_aircraft',
        over,
        `${this.opts.maxAircraft + over} aircraft, over the ${this.opts.maxAircraft} limit: keeping the ${this.opts.maxAircraft} heard most recently`,
      );
      // the ingest thread applies the cap itself: only a snapshot parsed here still needs it
      if (count > this.opts.maxAircraft && !('parts' in snap)) snap = capAircraft(snap, this.opts.maxAircraft);
    }
    for (const [kind, n] of Object.entries(r.dropped)) {
      if (this.loggedDrops.has(kind)) continue;
      this.loggedDrops.add(kind);
      this.opts.log(`feed: dropping ${kind} (${n} in this snapshot; logged once, counted in stats)`, 'warn');
    }
    if (this.failing || this.accepted === 0) {
      this.opts.log(`feed: ${this.accepted === 0 ? 'first' : 'recovered, new'} snapshot with ${aircraftCount(snap)} aircraft from ${this.opts.feed}`);
    }
    this.failing = false;
    this.logged.clear();
    this.accepted++;
    this.last = snap;
    const t0 = performance.now();
    for (const l of this.listeners) {
      try {
        l(snap);
      } catch (e) {
        this.fail('listener_error', `a snapshot listener threw: ${(e as Error)?.stack ?? String(e)}`);
      }
    }
    this.arrivals.note(performance.now() - t0);
  }

  /** Count records dropped for a reason; log the reason once. */
  private countDrop(kind: string, n: number, detail: string): void {
    this.counters[kind] = (this.counters[kind] ?? 0) + n;
    if (this.loggedDrops.has(kind)) return;
    this.loggedDrops.add(kind);
    this.opts.log(`feed: ${kind}: ${escapeControl(detail)} (logged once, counted in stats)`, 'warn');
  }

  /** Count a failure; log its kind once until the next recovery. */
  private fail(kind: string, detail: string): void {
    this.counters[kind] = (this.counters[kind] ?? 0) + 1;
    if (kind !== 'listener_error') this.failing = true;
    // a throwing listener is a bug, not an outage: logged once for good
    const once = kind === 'listener_error' ? this.loggedDrops : this.logged;
    if (once.has(kind)) return;
    once.add(kind);
    this.opts.log(`feed: ${kind}: ${escapeControl(detail)} (logged once until the feed recovers)`, kind === 'listener_error' ? 'error' : 'warn');
  }
}

function causeOf(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  return err.cause?.code ?? err.cause?.message ?? err.message ?? String(e);
}
