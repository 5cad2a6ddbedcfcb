// adapter: the live loop. every interval, the simulated aircraft.json and feeder list for the
// clock's time are written atomically (temporary file + rename, as readsb does) and/or served on
// loopback. start-up returns a stop handle; the caller owns signals.
import { createServer, type Server } from 'node:http';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { aircraftJson, feederList, heardAt, liveFlights, type Sky } from './sky.ts';

export interface LiveOptions {
  /** aircraft.json path ('' = none) */
  out: string;
  /** feeder list path ('' = none) */
  feeders: string;
  /** serve /aircraft.json and /feeders.json on 127.0.0.1:port (0 = off) */
  http: number;
  intervalMs: number;
  /** ms added to the clock: the simulated time */
  offsetMs: number;
}

export function writeAtomic(path: string, body: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, body);
  renameSync(`${path}.tmp`, path);
}

export interface Live {
  /** aircraft in the last snapshot */
  readonly count: number;
  stop(): void;
}

export function startLive(sky: Sky, o: LiveOptions, clock: () => number = Date.now): Live {
  const flightOf = liveFlights(sky);
  let aircraft = '{}';
  let feeders = '{}';
  let count = 0;
  const tick = () => {
    const t = (clock() + o.offsetMs) / 1000;
    const doc = aircraftJson(sky, t, heardAt(sky, t, (af) => flightOf(af, t)));
    count = doc.aircraft.length;
    aircraft = JSON.stringify(doc);
    feeders = JSON.stringify(feederList(sky, t));
    if (o.out) writeAtomic(o.out, aircraft);
    if (o.feeders) writeAtomic(o.feeders, feeders);
  };
  tick();
  const timer = setInterval(tick, o.intervalMs);
  let server: Server | null = null;
  if (o.http) {
    server = createServer((req, res) => {
      const body = req.url === '/feeders.json' ? feeders : req.url === '/aircraft.json' || req.url === '/data/aircraft.json' ? aircraft : null;
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(body ?? '{"error":"not_found","detail":"try /aircraft.json or /feeders.json"}');
    }).listen(o.http, '127.0.0.1');
  }
  return {
    get count() {
      return count;
    },
    stop() {
      clearInterval(timer);
      server?.close();
    },
  };
}
