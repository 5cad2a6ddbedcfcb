// the simulated network as one object: world + fleet + schedules + receivers, and what a
// readsb aircraft.json and the aggregator's feeder list would show at an instant. pure apart
// from loading the world (sim/world.ts).
import { Coverage, buildReceivers } from './coverage.ts';
import { buildFleet, indexFleet, type Airframe } from './fleet.ts';
import { stateAt, type State } from './fly.ts';
import { hash32, unit } from '../lib/random.ts';
import { Schedule, type Flight } from './schedule.ts';
import { loadWorld, type World } from './world.ts';

export interface SimOptions {
  ref: string;
  seed: number;
  /** airframes in the fleet */
  fleet: number;
  /** catalog rows read (0 = all) */
  routeRows: number;
}

/** airframes per aircraft heard at a busy hour: 1,040 airframes, 317 heard at 2025-06-02T14:00Z (seed 1, whole catalog; `snapshot`, whose --aircraft N is exact, grows the fleet to get N) */
export const FLEET_PER_AIRBORNE = 3.3;

export interface Sky {
  world: World;
  seed: number;
  fleet: Airframe[];
  schedule: Schedule;
  coverage: Coverage;
}

export function createSky(opts: SimOptions, world?: World): Sky {
  const w = world ?? loadWorld({ ref: opts.ref, routeRows: opts.routeRows });
  const fleet = buildFleet(w, indexFleet(w), opts.seed, opts.fleet);
  return { world: w, seed: opts.seed, fleet, schedule: new Schedule(opts.seed), coverage: new Coverage(buildReceivers(w, opts.seed)) };
}

/** a grown sky that reuses the loaded world (the fleet extends the smaller one) */
export function growSky(sky: Sky, fleet: number): Sky {
  return { ...sky, fleet: buildFleet(sky.world, indexFleet(sky.world), sky.seed, fleet) };
}

export interface Seen { af: Airframe; flight: Flight; state: State }

/** every airframe moving at t that some station hears, in fleet order */
export function heardAt(sky: Sky, t: number, flightOf: (af: Airframe) => Flight | null = (af) => sky.schedule.flightAt(af, t)): Seen[] {
  const out: Seen[] = [];
  for (const af of sky.fleet) {
    const flight = flightOf(af);
    if (!flight) continue;
    const state = stateAt(flight.plan, t - flight.offBlock);
    if (!state || !sky.coverage.heard(state.lat, state.lon, state.alt)) continue;
    out.push({ af, flight, state });
  }
  return out;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** one aircraft record as readsb writes it in aircraft.json */
function readsbRecord(seed: number, s: Seen, t: number): Record<string, unknown> {
  const { af, flight, state } = s;
  const h = hash32(seed, af.hex, Math.floor(t));
  const seen = round((h % 1000) / 400, 1);
  const emergency = flight.emergency && t >= flight.emergency.at ? flight.emergency : null;
  const ground = state.alt === 'ground';
  const rec: Record<string, unknown> = {
    hex: af.hex,
    type: 'adsb_icao',
    flight: flight.callsign.padEnd(8, ' '),
  };
  if (af.reg) rec.r = af.reg;
  rec.t = af.perf.type;
  rec.alt_baro = state.alt;
  if (!ground) rec.alt_geom = (state.alt as number) + 250;
  rec.gs = state.gs;
  if (!ground) rec.track = state.track;
  if (!ground) rec.baro_rate = state.rate;
  rec.squawk = emergency?.squawk ?? flight.squawk;
  rec.emergency = emergency?.kind ?? 'none';
  rec.category = af.perf.category;
  if (!ground) rec.nav_qnh = 1013.6;
  // about 3 % of transponders send no position (Mode S / no GNSS): readsb lists them without lat/lon
  const noPos = unit(seed, af.hex, 'nopos') < 0.03;
  if (!noPos) {
    rec.lat = round(state.lat, 6);
    rec.lon = round(state.lon, 6);
    rec.nic = 8;
    rec.rc = 186;
    rec.seen_pos = round(seen + 0.1, 3);
  }
  rec.version = 2;
  rec.nac_p = 9;
  rec.sil = 3;
  rec.sil_type = 'perhour';
  rec.mlat = [];
  rec.tisb = [];
  rec.messages = 100 + (h % 5000);
  rec.seen = seen;
  rec.rssi = round(-3 - ((h >>> 12) % 250) / 10, 1);
  return rec;
}

/** an aircraft last heard at `at`, still listed at t with its last values (sim/feed.ts) */
function silentRecord(seed: number, s: Seen, at: number, t: number): Record<string, unknown> {
  const rec = readsbRecord(seed, s, at);
  rec.seen = round((rec.seen as number) + t - at, 1);
  if (rec.seen_pos !== undefined) rec.seen_pos = round((rec.seen_pos as number) + t - at, 3);
  return rec;
}

/** the aircraft.json document at t: the aircraft heard now, then those gone silent that readsb still lists */
export function aircraftJson(sky: Sky, t: number, seen: Seen[] = heardAt(sky, t), silent: readonly { seen: Seen; at: number }[] = []): { now: number; messages: number; aircraft: Record<string, unknown>[] } {
  const aircraft = seen.map((s) => readsbRecord(sky.seed, s, t));
  for (const x of silent) aircraft.push(silentRecord(sky.seed, x.seen, x.at, t));
  return { now: round(t, 3), messages: Math.floor(t) % 100_000_000, aircraft };
}

/** the aggregator's connected-feeders list at t (server/stations/README.md) */
export function feederList(sky: Sky, t: number): object {
  const since = Math.floor(t) - 86400;
  return {
    generated_at: Math.floor(t),
    feeders: sky.coverage.receivers.map((r, i) => {
      const h = hash32(sky.seed, r.uuid);
      const up = Math.floor(t) - since;
      return {
        uuid: r.uuid, lat: r.lat, lon: r.lon, connected: r.connected, software: r.software,
        messages: up * (200 + (h % 800)), positions: up * (20 + (h % 80)), aircraft: 5 + ((h >>> 10) % 200) + (i % 3),
        connected_since: since,
      };
    }),
  };
}

/** per-airframe memo of the current or next flight, so a 1 Hz live loop does not rebuild schedules */
export function liveFlights(sky: Sky): (af: Airframe, t: number) => Flight | null {
  const memo = new Map<number, { flight: Flight | null; from: number; until: number }>();
  return (af, t) => {
    let m = memo.get(af.index);
    if (!m || t >= m.until || t < m.from) {
      const next = sky.schedule.flightsIn(af, t, t + 6 * 3600).find((f) => f.offBlock + f.plan.duration >= t) ?? null;
      m = next ? { flight: next, from: t, until: next.offBlock + next.plan.duration + 1 } : { flight: null, from: t, until: t + 3600 };
      memo.set(af.index, m);
    }
    const f = m.flight;
    return f && t >= f.offBlock && t <= f.offBlock + f.plan.duration ? f : null;
  };
}
