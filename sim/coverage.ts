// the receiver network: stations at every large airport, half the medium ones and some small
// fields, each with its own range. an aircraft is heard when a station is within the smaller of
// that range and the radio horizon for its altitude; on the ground only from a station at the
// field. so aircraft drop out over oceans and remote land and reappear near the next station.
import { distanceNm } from '../lib/geo.ts';
import { hash32, unit } from '../lib/random.ts';
import type { World } from './world.ts';

export interface Receiver {
  uuid: string;
  lat: number;
  lon: number;
  /** nm, the station's best range at altitude */
  rangeNm: number;
  /** connected to the aggregator (a few are not) */
  connected: boolean;
  software: string;
}

/** nm within which a station hears an aircraft on the ground (it sits at the field) */
const GROUND_NM = 6;
const CELL = 2;

export class Coverage {
  private readonly grid = new Map<number, Receiver[]>();
  constructor(readonly receivers: readonly Receiver[]) {
    for (const r of receivers) {
      if (!r.connected) continue;
      const k = key(Math.floor(r.lat / CELL), Math.floor(r.lon / CELL));
      let l = this.grid.get(k);
      if (!l) this.grid.set(k, (l = []));
      l.push(r);
    }
  }

  /** whether some connected station hears an aircraft here (alt in ft MSL, or 'ground') */
  heard(lat: number, lon: number, alt: number | 'ground'): boolean {
    const ground = alt === 'ground';
    // radio horizon (nm) of an antenna ~30 ft up and the aircraft
    const horizon = ground ? GROUND_NM : 1.23 * (Math.sqrt(Math.max(0, alt)) + 5.5);
    const reach = Math.min(horizon, 250);
    const dLat = Math.ceil(reach / 60 / CELL);
    const dLon = Math.ceil(reach / 60 / Math.max(0.1, Math.cos((Math.min(85, Math.abs(lat)) * Math.PI) / 180)) / CELL);
    const la = Math.floor(lat / CELL);
    const lo = Math.floor(lon / CELL);
    const wrap = 180 / CELL;
    // nearest cells first: most aircraft are heard by a station close by
    const rings = Math.max(dLat, dLon);
    for (let k = 0; k <= rings; k++) {
      for (let i = la - Math.min(k, dLat); i <= la + Math.min(k, dLat); i++) {
        for (let j = lo - Math.min(k, dLon); j <= lo + Math.min(k, dLon); j++) {
          if (Math.max(Math.abs(i - la), Math.abs(j - lo)) !== k) continue;
          const jj = ((((j + wrap) % (2 * wrap)) + 2 * wrap) % (2 * wrap)) - wrap;
          for (const r of this.grid.get(key(i, jj)) ?? []) {
            const d = distanceNm(lat, lon, r.lat, r.lon);
            if (d <= (ground ? GROUND_NM : Math.min(horizon, r.rangeNm))) return true;
          }
        }
      }
    }
    return false;
  }
}

const key = (i: number, j: number) => (i + 500) * 2000 + (j + 1000);

const SOFTWARE = ['readsb 3.14', 'readsb 3.14.1', 'dump1090-fa 9.0', 'readsb 3.13'];

/** the stations for a seed: deterministic from the world and the seed */
export function buildReceivers(world: World, seed: number): Receiver[] {
  const out: Receiver[] = [];
  for (const a of world.airports) {
    const p = a.kind === 'large_airport' ? 1 : a.kind === 'medium_airport' ? 0.5 : 0.04;
    if (unit(seed, 'rx', a.ident) >= p) continue;
    const h = hash32(seed, 'rxid', a.ident);
    out.push({
      uuid: uuid(seed, a.ident),
      // a station sits at the field, a few hundred metres off the reference point
      lat: Math.round((a.lat + ((h & 255) - 128) / 40000) * 1e5) / 1e5,
      lon: Math.round((a.lon + (((h >>> 8) & 255) - 128) / 40000) * 1e5) / 1e5,
      rangeNm: 120 + ((h >>> 16) % 130),
      connected: unit(seed, 'rxup', a.ident) >= 0.03,
      software: SOFTWARE[(h >>> 24) % SOFTWARE.length]!,
    });
  }
  return out;
}

/** a version-4 UUID from the seed (never a real feeder's) */
function uuid(seed: number, ident: string): string {
  const hex = [0, 1, 2, 3].map((i) => hash32(seed, 'uuid', ident, i).toString(16).padStart(8, '0')).join('');
  const v = `${hex.slice(0, 12)}4${hex.slice(13, 16)}${'89ab'[parseInt(hex[16]!, 16) & 3]}${hex.slice(17, 32)}`;
  return `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20)}`;
}
