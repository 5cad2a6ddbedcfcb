// the whole service in this process for the map's browser tests and bench: every route of the real
// app on the real uWebSockets.js server, over a real published tree, fed snapshot by snapshot with the
// clock pinned. the default story, 150 s of feed around Zurich: 4b1814 (SWR100) takes off from LSZH,
// 4b1815 (SWR101) lands there, and 3c6444 (DLH4AB), cruising, is heard only in the first snapshot
// (so it is listed as an estimate 90 s later); the real readsb sample fills the rest of the sky.
// the tree has flights and movements: each day 4b1814 flies LSZH 16 -> EGLL 27R and 4b1815 EGLL
// 27L -> LSZH 14, both with a track (STORY_RUNWAYS).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../server/app.ts';
import { loadServerConfig } from '../../server/config.ts';
import { DAYS, legsFor, NOW_MS, publishTree, seeded } from './publish-fixture.ts';
import { LogWriter } from '../../build/log/write.ts';
import type { LegRow } from '../../build/log/legs.ts';

type Rec = Record<string, unknown> & { hex: string };

export const T_END = NOW_MS / 1000;
const T_START = T_END - 150;
const ZRH = { lat: 47.458, lon: 8.548 };
const LHR = { lat: 51.4706, lon: -0.461941 };
/** the story's legs' runways in the log (the map's tests read them back from the panels) */
export const STORY_RUNWAYS = { '4b1814': ['16', '27R'], '4b1815': ['27L', '14'] } as const;

const SAMPLE = JSON.parse(readFileSync(new URL('../fixtures/feed/readsb_sample.json', import.meta.url), 'utf8')) as { aircraft: Rec[] };

/** the story's own aircraft at time `t` (unix s), as readsb would list them */
export function storyAt(t: number): Rec[] {
  const dt = t - T_START;
  const out: Rec[] = [];
  // 4b1814: rolls at LSZH, lifts off at +40 s, climbs out northbound
  if (dt < 40)
    out.push({
      hex: '4b1814',
      flight: 'SWR100  ',
      t: 'A320',
      r: 'HB-JLT',
      lat: ZRH.lat + dt * 0.0001,
      lon: ZRH.lon,
      alt_baro: 'ground',
      gs: dt < 30 ? 12 : 140,
      track: 0,
      seen: 0,
      seen_pos: 0,
    });
  else {
    const i = (dt - 40) / 10;
    out.push({
      hex: '4b1814',
      flight: 'SWR100  ',
      t: 'A320',
      r: 'HB-JLT',
      lat: ZRH.lat + 0.01 + i * 0.012,
      lon: ZRH.lon,
      alt_baro: 500 + Math.round(i * 300),
      gs: 180,
      track: 0,
      baro_rate: 1800,
      seen: 0,
      seen_pos: 0,
    });
  }
  // 4b1815: descends from the south onto LSZH, touches down at +100 s and taxis
  if (dt < 100) {
    const left = (100 - dt) / 10;
    out.push({
      hex: '4b1815',
      flight: 'SWR101  ',
      t: 'A320',
      lat: ZRH.lat - left * 0.012,
      lon: ZRH.lon + 0.01,
      alt_baro: 1400 + Math.round(left * 250),
      gs: 150,
      track: 0,
      baro_rate: -800,
      seen: 0,
      seen_pos: 0,
    });
  } else
    out.push({
      hex: '4b1815',
      flight: 'SWR101  ',
      t: 'A320',
      lat: ZRH.lat + (dt - 100) * 0.00005,
      lon: ZRH.lon + 0.01,
      alt_baro: 'ground',
      gs: dt < 115 ? 60 : 15,
      track: 0,
      seen: 0,
      seen_pos: 0,
    });
  // 3c6444: cruising west of Zurich, heard once
  if (dt === 0)
    out.push({ hex: '3c6444', flight: 'DLH4AB  ', t: 'A321', lat: 47.2, lon: 7.2, alt_baro: 36000, gs: 450, track: 90, baro_rate: 0, seen: 0, seen_pos: 0 });
  return out;
}

/** the fixture's seeded legs plus the story's own two flights on each day, so LSZH has both boards */
async function publishFixture(dir: string): Promise<string> {
  const log = join(dir, 'log');
  const root = join(dir, 'artifacts');
  const rand = seeded(4);
  const w = await LogWriter.open(log, 1);
  try {
    for (const d of DAYS) {
      const day = Date.parse(`${d}T00:00:00Z`) / 1000;
      const leg = (hex: '4b1814' | '4b1815', callsign: string, dep: number, org: string, dst: string): LegRow => {
        const [a, b] = org === 'LSZH' ? [ZRH, LHR] : [LHR, ZRH];
        const mid = { lat: (a.lat + b.lat) / 2, lon: (a.lon + b.lon) / 2 };
        return {
          hex,
          callsign,
          reg: null,
          type: 'A320',
          first_ts: dep - 600,
          last_ts: dep + 6000,
          dep_ts: dep,
          arr_ts: dep + 5400,
          org,
          dst,
          open: false,
          dep_runway: STORY_RUNWAYS[hex][0],
          arr_runway: STORY_RUNWAYS[hex][1],
          dep_lat: a.lat,
          dep_lon: a.lon,
          arr_lat: b.lat,
          arr_lon: b.lon,
          distance_km: 780,
          max_alt_ft: 37000,
          circuit: false,
          track: [
            [dep - 600, a.lat, a.lon, 'ground', 0],
            [dep + 900, a.lat + (mid.lat - a.lat) / 3, a.lon + (mid.lon - a.lon) / 3, 20000, 300],
            [dep + 2700, mid.lat, mid.lon, 37000, 300],
            [dep + 5400, b.lat, b.lon, 'ground', 270],
          ],
        };
      };
      const own = [leg('4b1814', 'SWR100', day + 6 * 3600 + 600, 'LSZH', 'EGLL'), leg('4b1815', 'SWR101', day + 9 * 3600, 'EGLL', 'LSZH')];
      await w.writeDay(
        d,
        [...legsFor(d, 6, rand), ...own].sort((a, b) => a.hex.localeCompare(b.hex) || a.first_ts - b.first_ts),
      );
    }
  } finally {
    w.close();
  }
  await publishTree(log, root, 'b1', { flights: true });
  return root;
}

export interface MapSky {
  app: App;
  base: string;
  /** the clock the server reads (unix ms); tests move it */
  clock: { ms: number };
  /** writes a feed file with these aircraft at `nowS` and makes the server take it */
  feed(nowS: number, aircraft: Rec[]): Promise<void>;
  stop(): void;
}

/** Start the app on a fresh fixture; `aircraft` (default: the story plus the sample) decides each snapshot. */
export async function startMapSky(o: { aircraft?: (t: number) => Rec[]; rateLimits?: boolean } = {}): Promise<MapSky> {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-map-'));
  const artifacts = await publishFixture(dir);
  const file = join(dir, 'aircraft.json');
  const clock = { ms: T_START * 1000 };
  const of = o.aircraft ?? ((t: number) => [...SAMPLE.aircraft, ...storyAt(t)]);
  writeFileSync(file, JSON.stringify({ now: T_START, aircraft: of(T_START) }));
  const { config } = loadServerConfig(
    [
      '--port',
      '0',
      '--feed',
      file,
      '--artifacts',
      artifacts,
      '--state',
      join(dir, 'state'),
      '--map-tiles',
      'offline',
      ...(o.rateLimits ? [] : ['--no-rate-limits']),
    ],
    {},
  );
  const app = await createApp(config, { log: () => {}, clock: () => clock.ms, poll: false });
  const feed = async (nowS: number, aircraft: Rec[]) => {
    writeFileSync(file, JSON.stringify({ now: nowS, aircraft }));
    const before = app.services.live.ageS(clock.ms);
    await app.services.feed!.pollOnce();
    // the snapshot goes live once its gzip is made (off the event loop)
    for (let i = 0; i < 300; i++) {
      const age = app.services.live.ageS(clock.ms);
      if (age !== null && age !== before) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  for (let t = T_START; t <= T_END; t += 10) {
    clock.ms = t * 1000;
    await feed(t, of(t));
  }
  return { app, base: `http://127.0.0.1:${app.port}`, clock, feed, stop: () => app.stop() };
}
