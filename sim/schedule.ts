// daily schedules, pure and stateless per (seed, airframe, day): an airline airframe flies its
// sector out and back from the same local time every day (jitter of a few minutes, some round
// trips cancelled); a long-haul rotation that does not fit a day repeats every P days. general
// aviation makes 0-3 local flights a day from its home field (out to a point and back).
import { utcOffsetMinutes } from '../lib/localtime.ts';
import { destinationPoint } from '../lib/geo.ts';
import { hash32, rng, unit } from '../lib/random.ts';
import { planFlight, type Plan } from './fly.ts';
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

export class Schedule {
  private readonly plans = new Map<string, Plan>();
  constructor(readonly seed: number) {}

  private plan(key: string, make: () => Plan): Plan {
    let p = this.plans.get(key);
    if (!p) this.plans.set(key, (p = make()));
    return p;
  }

  /** Flights of one airframe that overlap [t0, t1), oldest first. */
  flightsIn(af: Airframe, t0: number, t1: number): Flight[] {
    const out: Flight[] = [];
    for (let c = Math.floor(t0 / DAY) - 2; c <= Math.floor(t1 / DAY) + 1; c++) {
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
    const out = af.out!;
    const back = af.back ?? { ...out, callsign: out.callsign, org: out.dst, dst: out.org };
    const pOut = this.plan(`${af.index}|out`, () => planFlight(out.org, out.dst, af.perf));
    const pBack = this.plan(`${af.index}|back`, () => planFlight(back.org, back.dst, af.perf));
    const turn = af.perf.turnMin * 60;
    const roundTrip = pOut.duration + turn + pBack.duration + turn;
    const trips = Math.max(1, Math.min(4, Math.floor(DUTY_S / roundTrip)));
    const period = Math.max(1, Math.ceil((af.firstMin * 60 + trips * roundTrip) / DAY));
    if ((c + af.index) % period !== 0) return [];
    let nominal = localMidnight(out.org, c) + af.firstMin * 60;
    const flights: Flight[] = [];
    for (let k = 0; k < trips * 2; k++) {
      const leg = k % 2 === 0 ? out : back;
      const plan = k % 2 === 0 ? pOut : pBack;
      const cancelled = unit(this.seed, af.hex, c, k >> 1, 'cancel') < CANCEL_P;
      if (!cancelled) {
        const off = Math.round(nominal + (unit(this.seed, af.hex, c, k, 'jitter') - 0.5) * 2 * JITTER_S);
        flights.push(this.flight(af, leg.callsign, leg.org, leg.dst, off, plan));
      }
      nominal += plan.duration + turn;
    }
    return flights;
  }

  gaDay(af: Airframe, c: number): Flight[] {
    const home = af.home!;
    const r = rng(this.seed, af.hex, c, 'ga');
    const n = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3][r.int(10)]!;
    const flights: Flight[] = [];
    let at = localMidnight(home, c) + af.firstMin * 60 + r.int(3600);
    for (let k = 0; k < n; k++) {
      const p = destinationPoint(home.lat, home.lon, r.range(0, 360), r.range(10, 35));
      const plan = planFlight(home, home, af.perf, [p]);
      flights.push(this.flight(af, af.reg?.replace('-', '') ?? af.hex.toUpperCase(), home, home, at, plan));
      at += plan.duration + 1800 + r.int(3600);
    }
    return flights;
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
