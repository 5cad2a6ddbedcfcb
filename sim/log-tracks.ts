// the fast log's tracks (sim/log.ts): each leg's path as the simulator flew it, sampled as readsb
// writes a trace (sim/history.ts sampleStep) and thinned by the live trace's rule
// (lib/trace-thin.ts), as the trace path's log step does (build/log/legs.ts), so a flights document
// built from the fast log has the track a trace-built one would have.
//
// the path, pure from the leg's row and its sector's true ends: 600 s of taxi to the take-off point
// (the airport's reference point, where the row puts dep_lat/dep_lon), a take-off roll, a climb at
// 2,000 ft/min and a descent at 1,500 ft/min to and from the row's max_alt_ft (steeper when the leg is
// too short for them), the sector's great circle at its mean ground speed, the landing at the
// destination's reference point and 300 s of roll-out and taxi. an end the row says went unheard
// (dep_ts or arr_ts null) is cut off below 6,000 ft, as coverage that never reached the ground
// would: the detector then finds no take-off there either (lib/detector.ts, 5,000 ft).
import type { DuckDBConnection } from '@duckdb/node-api';
import { BIGINT, BOOLEAN, DOUBLE, INTEGER, VARCHAR, DuckDBDataChunk, JSToDuckDBValueConverter } from '@duckdb/node-api';
import { bearingDeg, destinationPoint, distanceNm } from '../lib/geo.ts';
import { unit } from '../lib/random.ts';
import { thinIndexes } from '../lib/trace-thin.ts';
import type { TrackPoint } from '../lib/detector/points.ts';
import { POINT_COLUMNS, sqlString } from '../build/log/write.ts';
import { sampleStep } from './history.ts';

/** what a leg's track is made from */
export interface TrackLeg {
  hex: string;
  first_ts: number;
  last_ts: number;
  /** the true take-off and landing (the row's dep_ts/arr_ts, also when they went unheard) */
  off: number;
  on: number;
  depHeard: boolean;
  arrHeard: boolean;
  olat: number;
  olon: number;
  dlat: number;
  dlon: number;
  cruiseFt: number;
}

/** a points.parquet row's point: [t, lat, lon, alt_baro | 'ground', track] (build/log/write.ts) */
type FastPoint = [number, number, number, number | 'ground', number];

/** ft/min: a jet's mean climb and descent */
const CLIMB_FPM = 2000;
const DESCENT_FPM = 1500;
/** kt: taxi, and the speed at lift-off and touch-down */
const TAXI_KT = 14;
const LIFT_KT = 150;
/** s: the take-off roll before lift-off, the landing roll after touch-down */
const ROLL_S = 35;
/** ft: below this an unheard end is not in the track (the detector's take-off ceiling is 5,000 ft) */
const UNHEARD_BELOW_FT = 6000;

const r5 = (x: number) => Math.round(x * 1e5) / 1e5;
const r1 = (x: number) => Math.round(x * 10) / 10;

/** The leg's thinned track, oldest first. `seed` sets the phase of the samples (readsb's are not on round seconds). */
export function fastTrack(leg: TrackLeg, seed: number): FastPoint[] {
  const nm = distanceNm(leg.olat, leg.olon, leg.dlat, leg.dlon);
  const air = Math.max(1, leg.on - leg.off);
  const gsAir = Math.max(LIFT_KT, (nm / air) * 3600);
  const hdg0 = bearingDeg(leg.olat, leg.olon, leg.dlat, leg.dlon);
  const hdg1 = (bearingDeg(leg.dlat, leg.dlon, leg.olat, leg.olon) + 180) % 360;
  // a leg too short for the climb and descent climbs and descends faster, still reaching its level
  const need = (leg.cruiseFt / CLIMB_FPM + leg.cruiseFt / DESCENT_FPM) * 60;
  const steep = Math.max(1, need / (0.8 * air));
  const climb = (CLIMB_FPM * steep) / 60;
  const descent = (DESCENT_FPM * steep) / 60;
  const altAt = (t: number) => Math.min(leg.cruiseFt, climb * (t - leg.off), descent * (leg.on - t));
  // the taxi starts behind the take-off point, on the runway's line, so it arrives there at the roll's end
  const taxiNm = (TAXI_KT * (leg.off - ROLL_S - leg.first_ts)) / 3600 + (LIFT_KT / 2) * (ROLL_S / 3600);
  const start = destinationPoint(leg.olat, leg.olon, (hdg0 + 180) % 360, Math.max(0, taxiNm));
  // (no object spreads here: `{ ...p }` cost ~16 us a point under tsx, 30x the rest)
  const state = (t: number): { lat: number; lon: number; alt: number | 'ground'; gs: number; track: number; rate: number } => {
    if (t <= leg.off) {
      // taxi, then the roll: distance from the start grows with the speed
      const roll = Math.max(0, t - (leg.off - ROLL_S));
      const d = (TAXI_KT * (Math.min(t, leg.off - ROLL_S) - leg.first_ts)) / 3600 + ((LIFT_KT * roll) / ROLL_S / 2) * (roll / 3600);
      const p = destinationPoint(start.lat, start.lon, hdg0, Math.max(0, d));
      return { lat: p.lat, lon: p.lon, alt: 'ground', gs: roll > 0 ? (LIFT_KT * roll) / ROLL_S : TAXI_KT, track: hdg0, rate: 0 };
    }
    if (t >= leg.on) {
      const s = t - leg.on;
      const roll = Math.min(s, ROLL_S);
      const gs = roll < ROLL_S ? LIFT_KT - ((LIFT_KT - TAXI_KT) * roll) / ROLL_S : TAXI_KT;
      const d = ((LIFT_KT + gs) / 2) * (roll / 3600) + (TAXI_KT * Math.max(0, s - ROLL_S)) / 3600;
      const p = destinationPoint(leg.dlat, leg.dlon, hdg1, d);
      return { lat: p.lat, lon: p.lon, alt: 'ground', gs, track: hdg1, rate: 0 };
    }
    const f = (t - leg.off) / air;
    const p = destinationPoint(leg.olat, leg.olon, hdg0, nm * f);
    const left = nm * (1 - f);
    const track = left > 1 ? bearingDeg(p.lat, p.lon, leg.dlat, leg.dlon) : hdg1;
    const alt = altAt(t);
    const rate = alt >= leg.cruiseFt ? 0 : t - leg.off < leg.on - t ? climb * 60 : -descent * 60;
    return { lat: p.lat, lon: p.lon, alt: Math.round(alt / 25) * 25, gs: gsAir, track, rate };
  };
  const samples: TrackPoint[] = [];
  // heard: the whole leg, or from (to) where an unheard end's climb passes (descent meets) the floor
  const from = leg.depHeard ? leg.first_ts : leg.off + UNHEARD_BELOW_FT / climb;
  const to = leg.arrHeard ? leg.last_ts : leg.on - UNHEARD_BELOW_FT / descent;
  if (!(from < to)) return [];
  let t = from + Math.floor(unit(seed, 'fast-track', leg.hex, leg.first_ts) * 8);
  while (t < to) {
    const s = state(t);
    samples.push({ t, lat: r5(s.lat), lon: r5(s.lon), alt: s.alt, gs: r1(s.gs), track: r1(s.track) });
    t += sampleStep(s.alt, s.rate);
  }
  const e = state(to);
  samples.push({ t: to, lat: r5(e.lat), lon: r5(e.lon), alt: e.alt, gs: r1(e.gs), track: r1(e.track) });
  return thinIndexes(samples, 0, samples.length - 1).map((i) => {
    const p = samples[i]!;
    return [p.t, p.lat, p.lon, p.alt as number | 'ground', p.track!];
  });
}

/** rows per appended chunk: DuckDB's vector size */
const CHUNK = 2048;
const TYPES = { VARCHAR, BIGINT, BOOLEAN, DOUBLE, INTEGER } as const;

/**
 * Writes the thinned tracks of the legs in `table` (columns of TrackLeg, sorted by hex and
 * first_ts) to `file` as points.parquet (build/log/write.ts POINT_COLUMNS, `fileOptions`), a
 * chunk at a time. Returns the points written.
 */
export async function writeFastPoints(c: DuckDBConnection, table: string, file: string, seed: number, fileOptions: string): Promise<number> {
  await c.run(`CREATE OR REPLACE TEMP TABLE fast_points (${POINT_COLUMNS.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
  const appender = await c.createAppender('fast_points');
  const types = POINT_COLUMNS.map(([, t]) => TYPES[t]);
  let cols: unknown[][] = POINT_COLUMNS.map(() => []);
  let points = 0;
  const flush = () => {
    if (cols[0]!.length === 0) return;
    const chunk = DuckDBDataChunk.create(types);
    chunk.setColumnsConverted(cols as never, JSToDuckDBValueConverter);
    appender.appendDataChunk(chunk);
    cols = POINT_COLUMNS.map(() => []);
  };
  const legs = await c.runAndReadAll(
    `SELECT hex, first_ts, last_ts, off, "on", dep_heard, arr_heard, olat, olon, dlat, dlon, cruise_ft FROM ${table}
     WHERE olat IS NOT NULL AND dlat IS NOT NULL ORDER BY hex, first_ts`,
  );
  for (const r of legs.getRows()) {
    const leg: TrackLeg = {
      hex: r[0] as string,
      first_ts: Number(r[1]),
      last_ts: Number(r[2]),
      off: Number(r[3]),
      on: Number(r[4]),
      depHeard: r[5] as boolean,
      arrHeard: r[6] as boolean,
      olat: r[7] as number,
      olon: r[8] as number,
      dlat: r[9] as number,
      dlon: r[10] as number,
      cruiseFt: Number(r[11]),
    };
    for (const p of fastTrack(leg, seed)) {
      const ground = p[3] === 'ground';
      const row = [leg.hex, leg.first_ts, p[0], p[1], p[2], ground ? null : p[3], ground, p[4]];
      for (let k = 0; k < row.length; k++) cols[k]!.push(row[k]);
      if (cols[0]!.length === CHUNK) flush();
      points++;
    }
  }
  flush();
  appender.closeSync();
  // appended in (hex, first_ts, t) order, which the table keeps
  await c.run(`COPY fast_points TO ${sqlString(file)} ${fileOptions}`);
  await c.run('DROP TABLE fast_points');
  return points;
}
