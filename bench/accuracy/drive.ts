// one pass of the live replay through the real server: the server's App (feed poller, estimator,
// trace store, HTTP routes) on a published artifact tree, its clock pinned to the replayed time,
// fed the replay's aircraft.json every 10 s; every minute /v1/estimated is asked over HTTP and
// each listed estimate is compared with where the aircraft really was. on the way it checks the
// third target of issue 12 and counts what breaks it: an estimate listed for an aircraft heard in
// the last 90 s, an estimated aircraft in /v1/aircraft, /v2/point or its trace, or a record there
// the feed never gave; and any answer that fails its schema.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../server/app.ts';
import { loadServerConfig } from '../../server/config.ts';
import { problems } from '../../schemas/index.ts';
import { distanceKm } from '../../lib/geo.ts';
import type { Accuracy, ObservedTrack } from '../../lib/estimate/accuracy.ts';
import { FeedPlayer, type FeedRecord, type Gap } from './gaps.ts';
import { straightLine, truthAt, type LiveSample } from './score.ts';

export interface PassOptions {
  /** the published artifact tree the server loads */
  artifacts: string;
  /** a scratch folder (the feed file, the server's state) */
  scratch: string;
  /** every aircraft of the feed; the gaps name the scored ones */
  tracks: readonly ObservedTrack[];
  gaps: ReadonlyMap<string, Gap>;
  /** aircraft.json is written this often; seconds */
  stepS: number;
  /** /v1/estimated is asked this often; seconds */
  askEveryS: number;
  progress: (line: string) => void;
}

/** What breaks issue 12's third target (and the schemas), counted. */
export interface Violations {
  listedWithin90s: number;
  inAircraft: number;
  inPoint: number;
  inTrace: number;
  notFed: number;
  schema: number;
}

export interface PassResult {
  samples: LiveSample[];
  violations: Violations;
  /** listed estimates asked about, and of them those with a last_seen that is not the feed's last point */
  listed: number;
  lastSeenMismatch: number;
  /** listed estimates of aircraft not in a hidden gap (they left the data) or with no truth at that time */
  unscored: number;
  /** the `accuracy` /v1/estimated served */
  served: Accuracy | null;
  requests: number;
}

interface Estimate {
  hex: string;
  lat: number;
  lon: number;
  last_seen: { at: number; lat: number; lon: number };
}

const APPEAR_S = 90;
/** a served position this close to the fed one is the fed one (the server may store it in single precision); degrees, about 10 m */
const SAME_DEG = 1e-4;

export async function runPass(o: PassOptions): Promise<PassResult> {
  const dir = mkdtempSync(join(o.scratch, 'pass-'));
  const feedFile = join(dir, 'aircraft.json');
  const starts = o.tracks.map((t) => t.points[0]!.t);
  const t0 = Math.floor(Math.min(...starts) / o.stepS) * o.stepS;
  const t1 = Math.max(...o.tracks.map((t) => t.points[t.points.length - 1]!.t));
  let nowMs = t0 * 1000;
  const write = (now: number, aircraft: FeedRecord[], messages: number) => {
    const tmp = `${feedFile}.tmp`;
    writeFileSync(tmp, JSON.stringify({ now, messages, aircraft }));
    renameSync(tmp, feedFile);
  };
  write(t0, [], 0);
  const { config } = loadServerConfig(
    ['--port', '0', '--host', '127.0.0.1', '--feed', feedFile, '--artifacts', o.artifacts, '--state', join(dir, 'state'), '--no-rate-limits'],
    {},
  );
  const app = await createApp(config, { log: () => {}, clock: () => nowMs, poll: false });
  const base = `http://127.0.0.1:${app.port}`;
  const player = new FeedPlayer(o.tracks, o.gaps);
  const byHex = new Map(o.tracks.map((t) => [t.hex, t]));
  const v: Violations = { listedWithin90s: 0, inAircraft: 0, inPoint: 0, inTrace: 0, notFed: 0, schema: 0 };
  const res: PassResult = { samples: [], violations: v, listed: 0, lastSeenMismatch: 0, unscored: 0, served: null, requests: 0 };
  const get = async (path: string, schema: string): Promise<{ status: number; json: any }> => {
    res.requests++;
    const r = await fetch(base + path);
    const json = await r.json();
    if (r.status === 200 && problems(schema, json).length) v.schema++;
    return { status: r.status, json };
  };
  try {
    let messages = 0;
    const steps = Math.ceil((t1 - t0) / o.stepS);
    for (let k = 0; k <= steps; k++) {
      const now = t0 + k * o.stepS;
      const records = player.at(now);
      messages += records.length;
      write(now, records, messages);
      nowMs = now * 1000;
      await app.services.feed!.pollOnce();
      // the snapshot is taken in slices and prepared off the thread: wait until it is the current one everywhere
      for (let i = 0; app.services.tracker.lastSnapshotS !== now || app.services.live.latest()?.snap.now !== now; i++) {
        if (i > 5000) throw new Error(`the server did not take the snapshot of ${now}`);
        await new Promise((r) => setTimeout(r, 1));
      }
      if ((now - t0) % o.askEveryS === 0) await ask(now, records);
      if (k % Math.ceil(steps / 10) === 0)
        o.progress(
          `  ${Math.round((100 * k) / steps)} %: ${new Date(now * 1000).toISOString().slice(11, 16)} UTC, ${records.length} aircraft in the feed, ${res.samples.length} samples`,
        );
    }
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return res;

  async function ask(now: number, records: FeedRecord[]): Promise<void> {
    const est = await get('/v1/estimated', 'estimated');
    if (est.status !== 200) throw new Error(`/v1/estimated answered ${est.status}: ${JSON.stringify(est.json)}`);
    res.served = est.json.accuracy;
    const listed = est.json.aircraft as Estimate[];
    if (!listed.length) return;
    const fed = new Map(records.map((r) => [r.hex, r]));
    const estimated = new Set(listed.map((e) => e.hex));
    // the live list holds only what the feed gave, never an estimate
    const checkLive = (ac: { hex: string; lat?: number; lon?: number; estimated?: unknown }[], count: () => void) => {
      for (const a of ac) {
        if (estimated.has(a.hex) || a.estimated !== undefined) count();
        const f = fed.get(a.hex);
        if (!f || (a.lat !== undefined && (Math.abs(a.lat - f.lat) > SAME_DEG || Math.abs(a.lon! - f.lon) > SAME_DEG))) v.notFed++;
      }
    };
    checkLive((await get('/v1/aircraft', 'aircraft-list')).json.aircraft, () => v.inAircraft++);
    for (const e of listed) {
      res.listed++;
      const heard = player.lastHeard(e.hex);
      if (heard && now - heard.t < APPEAR_S) v.listedWithin90s++;
      if (!heard || Math.abs(heard.t - e.last_seen.at) > 0.5) res.lastSeenMismatch++;
      const point = await get(`/v2/point/${e.lat}/${e.lon}/50`, 'point');
      checkLive(point.json.ac ?? [], () => v.inPoint++);
      const trace = await get(`/v1/trace/${e.hex}`, 'trace');
      if (trace.status === 200 && heard && (trace.json.points as number[][]).some((p) => p[0]! > heard.t + 0.5)) v.inTrace++;
      const gap = o.gaps.get(e.hex);
      const truth = gap && heard && Math.abs(gap.from - e.last_seen.at) <= 0.5 && now < gap.to ? truthAt(byHex.get(e.hex)!.points, now) : null;
      if (!truth || !heard) {
        res.unscored++;
        continue;
      }
      const line = straightLine({ t: heard.t, lat: heard.lat, lon: heard.lon, track: heard.track!, gs: heard.gs! }, now);
      res.samples.push({
        ageMin: (now - e.last_seen.at) / 60,
        methodKm: distanceKm(e.lat, e.lon, truth.lat, truth.lon),
        straightKm: distanceKm(line.lat, line.lon, truth.lat, truth.lon),
        weight: gap!.among,
      });
    }
  }
}
