// the simulated network as one object: world + fleet + schedules + receivers, and what a
// readsb aircraft.json and the aggregator's feeder list would show at an instant. pure apart
// from loading the world (sim/world.ts).
import { Coverage, buildReceivers } from './coverage.ts';
import { buildFleet, indexFleet, type Airframe } from './fleet.ts';
import type { State } from './fly.ts';
import { hash32, unit } from '../lib/random.ts';
import { NO_FAULTS, airframeTraits, type AirframeTraits, type FaultConfig } from './faults.ts';
import { observe, type Ears, type Obs } from './observe.ts';
import { HELI } from './perf.ts';
import { Schedule, type Flight } from './schedule.ts';
import { loadWorld, type World } from './world.ts';

export interface SimOptions {
  ref: string;
  seed: number;
  /** airframes in the fleet */
  fleet: number;
  /** catalog rows read (0 = all) */
  routeRows: number;
  /** receiver faults and GA flying (sim/faults.ts); none when absent */
  faults?: FaultConfig;
}

/** airframes per aircraft heard at a busy hour: 1,040 airframes, 317 heard at 2025-06-02T14:00Z (seed 1, whole catalog; `snapshot`, whose --aircraft N is exact, grows the fleet to get N) */
export const FLEET_PER_AIRBORNE = 3.3;

export interface Sky extends Ears {
  world: World;
  seed: number;
  fleet: Airframe[];
  schedule: Schedule;
  coverage: Coverage;
  faults: FaultConfig;
  traits: AirframeTraits[];
}

export function createSky(opts: SimOptions, world?: World): Sky {
  const w = world ?? loadWorld({ ref: opts.ref, routeRows: opts.routeRows });
  const faults = opts.faults ?? NO_FAULTS;
  const sky = {
    world: w,
    seed: opts.seed,
    fleet: [],
    schedule: new Schedule(opts.seed, faults),
    coverage: new Coverage(buildReceivers(w, opts.seed)),
    faults,
    faultsOn: Object.values(faults).some((v) => v !== 0),
    traits: [],
  };
  return growSky(sky, opts.fleet);
}

/** a grown sky that reuses the loaded world (the fleet extends the smaller one) */
export function growSky(sky: Sky, size: number): Sky {
  const fleet = buildFleet(sky.world, indexFleet(sky.world), sky.seed, size).map((af) => withHeli(sky.seed, af, sky.faults));
  return { ...sky, fleet, traits: fleet.map((af) => airframeTraits(sky.seed, af, fleet, sky.faults)) };
}

/** a GA airframe that is a helicopter (sim/faults.ts heliShare): same hex and registration, a helicopter type */
function withHeli(seed: number, af: Airframe, faults: FaultConfig): Airframe {
  if (af.kind !== 'ga' || unit(seed, af.hex, 'fault', 'heli') >= faults.heliShare) return af;
  return { ...af, perf: HELI[hash32(seed, af.hex, 'heli-type') % HELI.length]! };
}

export interface Seen {
  af: Airframe;
  flight: Flight;
  state: State;
  obs: Obs;
}

/** every airframe moving at t that some station hears, in fleet order */
export function heardAt(sky: Sky, t: number, flightOf: (af: Airframe) => Flight | null = (af) => sky.schedule.flightAt(af, t)): Seen[] {
  const out: Seen[] = [];
  for (const af of sky.fleet) {
    const flight = flightOf(af);
    if (!flight) continue;
    const obs = observe(sky, flight, t - flight.offBlock);
    if (obs) out.push({ af, flight, state: obs.state, obs });
  }
  return out;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** one aircraft record as readsb writes it in aircraft.json */
function readsbRecord(seed: number, s: Seen, t: number): Record<string, unknown> {
  const { af, flight, obs } = s;
  const h = hash32(seed, af.hex, Math.floor(t));
  const seen = round((h % 1000) / 400, 1);
  const emergency = flight.emergency && t >= flight.emergency.at ? flight.emergency : null;
  const ground = obs.alt === 'ground';
  const rec: Record<string, unknown> = {
    hex: obs.hex,
    type: obs.source,
    flight: obs.callsign.padEnd(8, ' '),
  };
  // a TIS-B track has no registry entry behind it
  if (af.reg && obs.source !== 'tisb_trackfile') rec.r = af.reg;
  if (obs.source !== 'tisb_trackfile') rec.t = af.perf.type;
  if (obs.alt !== null) rec.alt_baro = obs.alt;
  if (typeof obs.alt === 'number') rec.alt_geom = (obs.state.alt === 'ground' ? obs.alt : obs.state.alt) + 250;
  rec.gs = obs.gs;
  if (!ground) rec.track = obs.track;
  if (!ground) rec.baro_rate = obs.rate;
  rec.squawk = emergency?.squawk ?? flight.squawk;
  rec.emergency = emergency?.kind ?? 'none';
  rec.category = af.perf.category;
  if (!ground) rec.nav_qnh = 1013.6;
  // about 3 % of transponders send no position (Mode S / no GNSS): readsb lists them without lat/lon
  const noPos = unit(seed, af.hex, 'nopos') < 0.03;
  if (!noPos) {
    rec.lat = round(obs.lat, 6);
    rec.lon = round(obs.lon, 6);
    rec.nic = 8;
    rec.rc = 186;
    rec.seen_pos = round(seen + 0.1, 3);
  }
  rec.version = 2;
  rec.nac_p = 9;
  rec.sil = 3;
  rec.sil_type = 'perhour';
  // readsb names the fields it took from MLAT or TIS-B
  rec.mlat = obs.source === 'mlat' ? ['lat', 'lon', 'gs', 'track'] : [];
  rec.tisb = obs.source === 'tisb_trackfile' ? ['lat', 'lon', 'altitude', 'gs', 'track'] : [];
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
export function aircraftJson(
  sky: Sky,
  t: number,
  seen: Seen[] = heardAt(sky, t),
  silent: readonly { seen: Seen; at: number }[] = [],
): { now: number; messages: number; aircraft: Record<string, unknown>[] } {
  const aircraft = seen.map((s) => readsbRecord(sky.seed, s, t));
  for (const x of silent) aircraft.push(silentRecord(sky.seed, x.seen, x.at, t));
  if (sky.faultsOn) return { now: round(t, 3), messages: Math.floor(t) % 100_000_000, aircraft: oneRecordPerHex(sky.seed, aircraft, t) };
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
        uuid: r.uuid,
        lat: r.lat,
        lon: r.lon,
        connected: r.connected,
        software: r.software,
        messages: up * (200 + (h % 800)),
        positions: up * (20 + (h % 80)),
        aircraft: 5 + ((h >>> 10) % 200) + (i % 3),
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

/** two airframes sending one address (sim/faults.ts dupHexShare) are one aircraft to readsb: each second
 * it shows whichever it heard last, here one of them by a hash of the second */
function oneRecordPerHex(seed: number, aircraft: Record<string, unknown>[], t: number): Record<string, unknown>[] {
  const by = new Map<string, Record<string, unknown>[]>();
  for (const a of aircraft) by.set(a.hex as string, [...(by.get(a.hex as string) ?? []), a]);
  return aircraft.filter((a) => {
    const all = by.get(a.hex as string)!;
    return all.length === 1 || all[hash32(seed, a.hex as string, Math.floor(t)) % all.length] === a;
  });
}
