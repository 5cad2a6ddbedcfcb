// daily schedules, pure and stateless per (seed, airframe, day): an airline airframe flies its
// sector out and back from the same local time every day (jitter of a few minutes, some round
// trips cancelled), each rotation under its own catalog flight numbers. a long-haul leg leaves in
// the bank its direction calls for (see longHaulDeparture); a rotation that does not fit a day
// repeats every P days. general aviation makes 0-3 local flights a day from its home field (out
// to a point and back).
import { utcOffsetMinutes } from '../lib/localtime.ts';
import { destinationPoint } from '../lib/geo.ts';
import { hash32, rng, unit } from '../lib/random.ts';
import { planFlight, type Plan } from './fly.ts';
import { circuitPlan, type LapEnd } from './circuits.ts';
import { NO_FAULTS, type FaultConfig } from './faults.ts';
import type { Airframe } from './fleet.ts';
import type { SimAirport } from './world.ts';

export interface Flight {
  af: Airframe;
  /** as broadcast, without padding */
  callsign: string;
  org: SimAirport;
  dst: SimAirport;
  /** unix seconds the aircraft starts to taxi */
  offBlock: number;
  plan: Plan;
  squawk: string;
  /** an emergency code set from `at` (unix s) to the end of the flight */
  emergency: { squawk: string; kind: string; at: number } | null;
}

/** probability that a round trip is cancelled on a given day */
const CANCEL_P = 0.03;
/** +- jitter of an off-block time, s */
const JITTER_S = 6 * 60;
const DAY = 86400;
/** an airline day's rotations end by this long after the first off-block */
const DUTY_S = 16 * 3600;

/** unix seconds of local midnight at the airport on UTC day index c (close enough around DST) */
function localMidnight(ap: SimAirport, c: number): number {
  return c * DAY - utcOffsetMinutes(ap.tz, c * DAY + DAY / 2) * 60;
}

/** the first instant at or after t when the airport's local clock reads `minute` */
function nextLocal(ap: SimAirport, t: number, minute: number): number {
  for (let d = Math.floor(t / DAY) - 1; ; d++) {
    const x = localMidnight(ap, d) + minute * 60;
    if (x >= t) return x;
  }
}

/** a leg with at least this block time is long-haul: it leaves in a bank (longHaulDeparture) */
export const LONG_HAUL_S = 6 * 3600;
type Window = readonly [number, number];
/** local minutes: the evening and late-morning departure banks, the hours a long-haul leg may arrive, and any departure at all */
const EVENING: Window = [18 * 60, 23 * 60];
const MORNING: Window = [9 * 60, 14 * 60];
export const ARRIVAL_WINDOW: Window = [6 * 60 + 15, 22 * 60 + 45];
const ANY: Window = [6 * 60, 23 * 60 + 30];
/** the local clock advance from off-block to on-block at or above which a long-haul leg flies overnight, minutes */
const OVERNIGHT_ADVANCE_MIN = 9 * 60;

/**
 * The local minute (at org) a long-haul leg leaves. Its local clock advance is the block time plus
 * the change of local time from org to dst (taken within -12..+12 h). An advance of 9 h or more
 * (eastbound, e.g. JFK-LHR or FRA-SIN, and long north-south legs, e.g. FRA-JNB) flies overnight:
 * an evening bank, 18:00-23:00, arriving next morning or midday. Less (westbound, e.g. LHR-JFK,
 * FRA-LAX, HNL-NRT) flies by day: a late-morning bank, 09:00-14:00, arriving the same afternoon.
 * The bank is narrowed so the arrival falls within 06:15-22:45 local (night curfews, and room for
 * the daily jitter); when no minute of it can, the other bank, then any minute 06:00-23:30 (there
 * always is one). `u` in [0, 1) picks within what is left; `t` dates the zones' offsets.
 */
export function longHaulDeparture(org: SimAirport, dst: SimAirport, blockS: number, t: number, u: number): number {
  const dz = ((((utcOffsetMinutes(dst.tz, t) - utcOffsetMinutes(org.tz, t) + 720) % 1440) + 1440) % 1440) - 720;
  const advance = blockS / 60 + dz;
  const banks = advance >= OVERNIGHT_ADVANCE_MIN ? [EVENING, MORNING, ANY] : [MORNING, EVENING, ANY];
  for (const [lo, hi] of banks) {
    const ok: number[] = [];
    for (let m = lo; m <= hi; m += 5) {
      const arr = (((m + advance) % 1440) + 1440) % 1440;
      if (arr >= ARRIVAL_WINDOW[0] && arr <= ARRIVAL_WINDOW[1]) ok.push(m);
    }
    if (ok.length) return ok[Math.floor(u * ok.length)]!;
  }
  return MORNING[0];
}

/** a day whose zone offsets date the long-haul periods (2025-01-15, no DST change near it) */
const REF_DAY = 20103;

export class Schedule {
  private readonly plans = new Map<string, Plan>();
  constructor(
    readonly seed: number,
    readonly faults: FaultConfig = NO_FAULTS,
  ) {}

  private plan(key: string, make: () => Plan): Plan {
    let p = this.plans.get(key);
    if (!p) this.plans.set(key, (p = make()));
    return p;
  }

  /** Flights of one airframe that overlap [t0, t1), oldest first. */
  flightsIn(af: Airframe, t0: number, t1: number): Flight[] {
    const out: Flight[] = [];
    // a long-haul rotation spans up to three days
    for (let c = Math.floor(t0 / DAY) - 3; c <= Math.floor(t1 / DAY) + 1; c++) {
      for (const f of af.kind === 'ga' ? this.gaDay(af, c) : this.airlineDay(af, c)) {
        if (f.offBlock < t1 && f.offBlock + f.plan.duration > t0) out.push(f);
      }
    }
    return out.sort((a, b) => a.offBlock - b.offBlock);
  }

  /** the flight of the airframe at instant t, if any */
  flightAt(af: Airframe, t: number): Flight | null {
    return this.flightsIn(af, t, t + 1).find((f) => t >= f.offBlock && t <= f.offBlock + f.plan.duration) ?? null;
  }

  airlineDay(af: Airframe, c: number): Flight[] {
    const out = af.outs[0]!;
    const back = af.backs[0]!;
    const pOut = this.plan(`${af.index}|out`, () => planFlight(out.org, out.dst, af.perf));
    const pBack = this.plan(`${af.index}|back`, () => planFlight(back.org, back.dst, af.perf));
    const turn = af.perf.turnMin * 60;
    if (pOut.duration >= LONG_HAUL_S || pBack.duration >= LONG_HAUL_S) return this.longHaulDay(af, c, pOut, pBack);
    const roundTrip = pOut.duration + turn + pBack.duration + turn;
    // each rotation flies its own flight numbers: no more rotations than the catalog has numbers
    const trips = Math.max(1, Math.min(af.outs.length, af.backs.length, Math.floor(DUTY_S / roundTrip)));
    const period = Math.max(1, Math.ceil((af.firstMin * 60 + trips * roundTrip) / DAY));
    if ((c + af.index) % period !== 0) return [];
    let nominal = localMidnight(out.org, c) + af.firstMin * 60;
    const flights: Flight[] = [];
    for (let k = 0; k < trips * 2; k++) {
      const leg = k % 2 === 0 ? af.outs[k >> 1]! : af.backs[k >> 1]!;
      const plan = k % 2 === 0 ? pOut : pBack;
      if (!this.cancelled(af, c, k >> 1)) flights.push(this.flight(af, leg.callsign, leg.org, leg.dst, this.jitter(af, c, k, nominal), plan));
      nominal += plan.duration + turn;
    }
    return flights;
  }

  /** the nominal off-blocks of a long-haul rotation starting on day c: out in its bank, back in its own after the turn */
  private longHaulTimes(af: Airframe, c: number, pOut: Plan, pBack: Plan): [number, number] {
    const out = af.outs[0]!;
    const back = af.backs[0]!;
    const t = c * DAY + DAY / 2;
    const off1 = localMidnight(out.org, c) + longHaulDeparture(out.org, out.dst, pOut.duration, t, unit(this.seed, af.hex, 'bank-out')) * 60;
    const earliest = off1 + pOut.duration + af.perf.turnMin * 60;
    const off2 = nextLocal(back.org, earliest, longHaulDeparture(back.org, back.dst, pBack.duration, t, unit(this.seed, af.hex, 'bank-back')));
    return [off1, off2];
  }

  private longHaulDay(af: Airframe, c: number, pOut: Plan, pBack: Plan): Flight[] {
    const [r1, r2] = this.longHaulTimes(af, REF_DAY, pOut, pBack);
    // the rotation repeats every P days: its span, turn included, with an hour to spare for DST
    const period = Math.max(1, Math.ceil((r2 + pBack.duration + af.perf.turnMin * 60 + 3600 - r1) / DAY));
    if ((c + af.index) % period !== 0 || this.cancelled(af, c, 0)) return [];
    const [off1, off2] = this.longHaulTimes(af, c, pOut, pBack);
    const out = af.outs[0]!;
    const back = af.backs[0]!;
    return [
      this.flight(af, out.callsign, out.org, out.dst, this.jitter(af, c, 0, off1), pOut),
      this.flight(af, back.callsign, back.org, back.dst, this.jitter(af, c, 1, off2), pBack),
    ];
  }

  private cancelled(af: Airframe, c: number, trip: number): boolean {
    return unit(this.seed, af.hex, c, trip, 'cancel') < CANCEL_P;
  }

  private jitter(af: Airframe, c: number, k: number, nominal: number): number {
    return Math.round(nominal + (unit(this.seed, af.hex, c, k, 'jitter') - 0.5) * 2 * JITTER_S);
  }

  gaDay(af: Airframe, c: number): Flight[] {
    const home = af.home!;
    const r = rng(this.seed, af.hex, c, 'ga');
    const n = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3][r.int(10)]!;
    const flights: Flight[] = [];
    let at = localMidnight(home, c) + af.firstMin * 60 + r.int(3600);
    for (let k = 0; k < n; k++) {
      const p = destinationPoint(home.lat, home.lon, r.range(0, 360), r.range(10, 35));
      const plan = this.circuitSession(af, c, k) ?? planFlight(home, home, af.perf, [p], af.perf.cls === 'heli');
      flights.push(this.flight(af, af.reg?.replace('-', '') ?? af.hex.toUpperCase(), home, home, at, plan));
      at += plan.duration + 1800 + r.int(3600);
    }
    return flights;
  }

  /** a circuit session instead of flight k of day c, for the share sim/faults.ts circuitShare asks (not for helicopters) */
  private circuitSession(af: Airframe, c: number, k: number): Plan | null {
    const f = this.faults;
    const u = (...key: (string | number)[]) => unit(this.seed, af.hex, c, k, 'circuit', ...key);
    if (af.perf.cls !== 'light' || u() >= f.circuitShare) return null;
    const laps: LapEnd[] = [];
    for (let i = 0, n = 2 + Math.floor(u('laps') * 5); i < n; i++) {
      const x = u('lap', i);
      if (x < f.goAroundRate) laps.push({ kind: 'go-around', floorFt: 100 + 200 * u('floor', i) });
      else if (x < f.goAroundRate + f.lowPassRate) laps.push({ kind: 'low-pass', floorFt: 20 + 130 * u('floor', i) });
      else laps.push({ kind: 'touch-and-go', rollS: 15 + 25 * u('roll', i) });
    }
    return circuitPlan(af.home!, af.perf, laps, u('runway'));
  }

  private flight(af: Airframe, callsign: string, org: SimAirport, dst: SimAirport, offBlock: number, plan: Plan): Flight {
    const h = hash32(this.seed, af.hex, offBlock, 'squawk');
    const vfr = org.iso_country === 'US' ? '1200' : '7000';
    let squawk = af.kind === 'ga' ? vfr : octal(h);
    if (/^7[567]00$/.test(squawk)) squawk = '2000';
    const u = unit(this.seed, af.hex, offBlock, 'emergency');
    const at = offBlock + plan.offAt + 0.4 * (plan.onAt - plan.offAt);
    const emergency = u < 0.002 ? { squawk: '7700', kind: 'general', at } : u < 0.003 ? { squawk: '7600', kind: 'nordo', at } : null;
    // a callsign is at most 8 characters (ICAO Doc 4444)
    return { af, callsign: callsign.slice(0, 8), org, dst, offBlock, plan, squawk, emergency };
  }
}

/** four octal digits from a hash, first digit 1..6 (airline discrete codes) */
function octal(h: number): string {
  return `${1 + (h % 6)}${(h >>> 3) & 7}${(h >>> 6) & 7}${(h >>> 9) & 7}`;
}
