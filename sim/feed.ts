// the live feed as readsb writes it: an aircraft that falls silent stays listed with its last
// values for 60 s, `seen` and `seen_pos` counting up, then goes (readsb's TRACK_EXPIRE: track.c
// expires an aircraft's position 60 s after its last one, and json_out.c's includeAircraftJson
// lists an aircraft while it has a position or was heard within that time). the product's
// estimator needs exactly this: the last cruising record of an aircraft that then went quiet.
// pure: the snapshot at t does not depend on earlier ones (a silent aircraft's last second is
// found by looking back), so a reader may be shown any increasing sequence of times.
import { isCruising } from '../lib/estimate/cruise.ts';
import { observe, type Obs } from './observe.ts';
import { aircraftJson, type Seen, type Sky } from './sky.ts';
import type { Airframe } from './fleet.ts';
import type { Flight } from './schedule.ts';

/** s a silent aircraft stays in aircraft.json (readsb TRACK_EXPIRE) */
export const RETAIN_S = 60;

export type FlightOf = (af: Airframe, t: number) => Flight | null;

const heardState = (sky: Sky, f: Flight, t: number): Obs | null => observe(sky, f, t - f.offBlock);

/** the aircraft.json document at t: aircraft heard now, then aircraft in flight heard within the last 60 s */
export function feedAt(sky: Sky, t: number, flightOf: FlightOf): ReturnType<typeof aircraftJson> {
  const seen: Seen[] = [];
  const silent: { seen: Seen; at: number }[] = [];
  for (const af of sky.fleet) {
    const flight = flightOf(af, t);
    if (!flight) continue;
    const obs = heardState(sky, flight, t);
    if (obs) {
      seen.push({ af, flight, state: obs.state, obs });
      continue;
    }
    for (let u = Math.ceil(t) - 1; u > t - RETAIN_S && u >= flight.offBlock; u--) {
      const last = heardState(sky, flight, u);
      if (last) {
        silent.push({ seen: { af, flight, state: last.state, obs: last }, at: u });
        break;
      }
    }
  }
  return aircraftJson(sky, t, seen, silent);
}

/** scan step for finding the moments aircraft go quiet, s (well under RETAIN_S) */
const SCAN_S = 20;

/**
 * Times in [from, to] at which snapshots show every aircraft that went quiet while cruising in
 * that span, while readsb still lists it: the product's estimator then knows all of them. An
 * aircraft heard cruising at one scan and silent (still flying) at the next went quiet between
 * them; a snapshot at the scan after that (at most 40 s later) still lists it. A time serves every
 * aircraft gone quiet in the two scan intervals before it.
 */
export function quietTimes(sky: Sky, from: number, to: number, flightOf: FlightOf): number[] {
  const times: number[] = [];
  let cruising = new Set<string>();
  let covered = -Infinity;
  for (let s = from; s <= to; s += SCAN_S) {
    const now = new Set<string>();
    let quiet = false;
    for (const af of sky.fleet) {
      const flight = flightOf(af, s);
      if (!flight) continue;
      const state = heardState(sky, flight, s)?.state;
      if (state) {
        if (
          state.alt !== 'ground' &&
          isCruising({ lat: state.lat, lon: state.lon, alt_baro: state.alt, gs: state.gs, track: state.track, baro_rate: state.rate })
        )
          now.add(af.hex);
      } else if (cruising.has(af.hex)) quiet = true;
    }
    cruising = now;
    if (quiet && covered < s) {
      covered = Math.min(s + SCAN_S, to);
      times.push(covered);
    }
  }
  return times;
}
