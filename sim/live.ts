// adapter: the live loop. every interval, the simulated aircraft.json and feeder list for the
// clock's time are written atomically (temporary file + rename, as readsb does) and/or served on
// loopback. start-up returns a stop handle; the caller owns signals.
//
// catch-up (HTTP only): with `catchUpS`, the feed first shows a reader the past `catchUpS`
// seconds, one snapshot per GET of /aircraft.json, then runs in real time. a server reading it
// then holds what it would have held had it been running all along: estimates for every aircraft
// that went quiet while cruising in that time (over an ocean or a coverage gap), and traces of the
// last minutes. the snapshots shown are those of sim/feed.ts quietTimes (one while each aircraft
// that went quiet is still listed) and one every 55 s over the last TRACE_TAIL_S.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { feederList, liveFlights, type Sky } from './sky.ts';
import { feedAt, quietTimes, RETAIN_S } from './feed.ts';

export interface LiveOptions {
  /** aircraft.json path ('' = none) */
  out: string;
  /** feeder list path ('' = none) */
  feeders: string;
  /** serve /aircraft.json and /feeders.json on 127.0.0.1:port (0 = off, 'any' = a free port) */
  http: number | 'any';
  intervalMs: number;
  /** ms added to the clock: the simulated time */
  offsetMs: number;
  /** simulated seconds shown to an HTTP reader before the present (0 = none; needs http) */
  catchUpS?: number;
}

/** the last this many seconds of a catch-up are shown every 55 s, so traces start filled */
const TRACE_TAIL_S = 900;
const TAIL_STEP_S = RETAIN_S - 5;

export function writeAtomic(path: string, body: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, body);
  renameSync(`${path}.tmp`, path);
}

export interface Live {
  /** aircraft in the last snapshot */
  readonly count: number;
  /** whether the feed runs in real time (at once without catch-up) */
  readonly caughtUp: boolean;
  /** snapshots of the catch-up, all told */
  readonly catchUpSnapshots: number;
  /** catch-up snapshots a reader has been shown so far (catchUpSnapshots once caught up) */
  readonly catchUpShown: number;
  /** the HTTP port once listening; null without HTTP */
  readonly port: Promise<number | null>;
  stop(): void;
}

/** the times a catch-up shows, oldest first: the quiet moments of the whole span, then the tail every 55 s */
export function catchUpTimes(sky: Sky, to: number, catchUpS: number): number[] {
  const from = to - catchUpS;
  const tailFrom = Math.max(from, to - TRACE_TAIL_S);
  const times = new Set(quietTimes(sky, from, to, liveFlights(sky)));
  for (let t = tailFrom; t < to; t += TAIL_STEP_S) times.add(t);
  return [...times].sort((a, b) => a - b);
}

export function startLive(sky: Sky, o: LiveOptions, clock: () => number = Date.now): Live {
  if (o.catchUpS && o.http === 0) throw new Error('sim: a catch-up is paced by an HTTP reader: it needs http');
  const flightOf = liveFlights(sky);
  const real = () => (clock() + o.offsetMs) / 1000;
  let queue: number[] | null = o.catchUpS ? catchUpTimes(sky, real(), o.catchUpS) : null;
  const catchUpSnapshots = queue?.length ?? 0;
  let aircraft = '{}';
  let feeders = '{}';
  let count = 0;
  const tick = (t: number) => {
    const doc = feedAt(sky, t, flightOf);
    count = doc.aircraft.length;
    aircraft = JSON.stringify(doc);
    feeders = JSON.stringify(feederList(sky, t));
    if (o.out) writeAtomic(o.out, aircraft);
    if (o.feeders) writeAtomic(o.feeders, feeders);
  };
  tick(queue?.[0] ?? real());
  const timer = setInterval(() => {
    if (queue === null) tick(real());
  }, o.intervalMs);
  let server: Server | null = null;
  let port: Promise<number | null> = Promise.resolve(null);
  if (o.http !== 0) {
    server = createServer((req, res) => {
      const isFeed = req.url === '/aircraft.json' || req.url === '/data/aircraft.json';
      // during a catch-up each read is the next snapshot
      if (isFeed && queue !== null) {
        const t = queue.shift();
        if (t === undefined) queue = null;
        tick(t ?? real());
      }
      const body = req.url === '/feeders.json' ? feeders : isFeed ? aircraft : null;
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(body ?? '{"error":"not_found","detail":"try /aircraft.json or /feeders.json"}');
    });
    const s = server;
    port = new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(o.http === 'any' ? 0 : o.http, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
    });
  }
  return {
    get count() {
      return count;
    },
    get caughtUp() {
      return queue === null;
    },
    catchUpSnapshots,
    get catchUpShown() {
      return queue === null ? catchUpSnapshots : catchUpSnapshots - queue.length;
    },
    port,
    stop() {
      clearInterval(timer);
      server?.close();
    },
  };
}
