// which airport a ground point (a heard take-off or landing) is clearly at.
//
// rule (documented in lib/reference/README.md):
// - an airport matches when the point is within RUNWAY_KM of one of its open runways' centreline
//   segments (runway ends from runways.csv), or within its reference-point radius (by kind, for
//   airports without located runways, pads and points on the apron);
// - of the matches the nearest wins; airports within TIE_KM of the nearest are tied, and a tie
//   goes to scheduled service, then the bigger kind, then the nearer;
// - closed airports are never assigned (an aircraft heard on the ground there is at a nearby open
//   field or is a data artefact; OurAirports keeps closed fields next to their successors).
import type { Airport } from './airports.ts';
import { kindRank } from './airports.ts';
import type { Runway } from './runways.ts';

export const RUNWAY_KM = 2.0;
/** km from a runway centreline (or the reference point of a field without located runways) within
 * which a point is "at the field" for the detector's height-above-field rules: wide enough for a
 * circuit's final and climb-out, narrow enough that a neighbouring field is rarely nearer */
const FIELD_KM = 4.0;
export const TIE_KM = 0.2;
/** reference-point radius by kind, km; large fields without runway positions are big */
export const REF_RADIUS_KM: Record<string, number> = {
  large_airport: 3.0,
  medium_airport: 2.0,
  small_airport: 1.0,
  seaplane_base: 1.0,
  balloonport: 0.5,
  heliport: 0.3,
};

const KM_PER_DEG = 111.195;
// grid cell, degrees; each airport is filed in every cell its match area touches, so a query
// reads one cell
const CELL_DEG = 0.1;
const LON_CELLS = Math.round(360 / CELL_DEG);

interface Entry {
  airport: Airport;
  refRadiusKm: number;
  /** runway segments, flat: lat1, lon1, lat2, lon2, ... */
  segs: number[];
}

export interface Around {
  airport: Airport;
  km: number;
  matchKm: number | null;
}

export interface AirportLocator {
  /** the airport where this ground point clearly is, or null */
  locate(lat: number, lon: number): Airport | null;
  /** the nearest open airport within FIELD_KM of its runways (or reference point), with the distance; null when none */
  nearest(lat: number, lon: number): { airport: Airport; km: number } | null;
  /** the open airports within FIELD_KM of the point (runway centreline or reference point), nearest
   * first; `matchKm` is the distance `locate` ranks it by, null when the point is outside its match area */
  around(lat: number, lon: number): Around[];
  /** airports that can be assigned (not closed) */
  readonly size: number;
}

const NO_SEGS: number[] = [];
const SEQ_SPAN = 2 ** 29;

/**
 * cells as sorted keys, each with its run of entry numbers (filing order kept within a cell): cell
 * c's entries are list[start[c]] .. list[start[c + 1] - 1]
 */
function flatGrid(filed: Float64Array, entryOf: readonly number[]): { find(k: number): number; start: Int32Array; list: Int32Array } {
  const order = filed.slice().sort();
  const keys: number[] = [];
  const start: number[] = [];
  const list = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const k = Math.floor(order[i]! / SEQ_SPAN);
    if (keys.length === 0 || keys[keys.length - 1] !== k) {
      keys.push(k);
      start.push(i);
    }
    list[i] = entryOf[order[i]! - k * SEQ_SPAN]!;
  }
  start.push(order.length);
  const cellKeys = Int32Array.from(keys);
  return {
    start: Int32Array.from(start),
    list,
    find(k) {
      let lo = 0;
      let hi = cellKeys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cellKeys[mid]! < k) lo = mid + 1;
        else hi = mid;
      }
      return lo < cellKeys.length && cellKeys[lo] === k ? lo : -1;
    },
  };
}

const wrapLon = (d: number) => (d > 180 ? d - 360 : d < -180 ? d + 360 : d);
const latCell = (lat: number) => Math.floor((lat + 90) / CELL_DEG);
const lonCell = (lon: number) => ((Math.floor((lon + 180) / CELL_DEG) % LON_CELLS) + LON_CELLS) % LON_CELLS;
const key = (la: number, lo: number) => la * LON_CELLS + lo;

// distance (km) from (0,0) to the segment a-b in a local plane (x east, y north, km)
function segDist(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const x = ax + t * dx;
  const y = ay + t * dy;
  return Math.sqrt(x * x + y * y);
}

// how far (km) the point is from this airport, or Infinity when it does not match. refRadiusKm and
// runwayKm are the match limits (FIELD_KM for both when asking how near a field is)
function matchKm(e: Entry, lat: number, lon: number, kx: number, refRadiusKm = e.refRadiusKm, runwayKm = RUNWAY_KM): number {
  const a = e.airport;
  const rx = wrapLon(a.lon - lon) * kx;
  const ry = (a.lat - lat) * KM_PER_DEG;
  const ref = Math.sqrt(rx * rx + ry * ry);
  let best = ref <= refRadiusKm ? ref : Infinity;
  const s = e.segs;
  for (let i = 0; i < s.length; i += 4) {
    const d = segDist(wrapLon(s[i + 1]! - lon) * kx, (s[i]! - lat) * KM_PER_DEG, wrapLon(s[i + 3]! - lon) * kx, (s[i + 2]! - lat) * KM_PER_DEG);
    if (d <= runwayKm && d < best) best = d;
  }
  return best;
}

/** the tie rule of `locate`: scheduled service first, then the bigger kind, then the nearer */
export function preferred(a: Airport, da: number, b: Airport, db: number): boolean {
  if (a.scheduled_service !== b.scheduled_service) return a.scheduled_service;
  const ka = kindRank(a.kind);
  const kb = kindRank(b.kind);
  if (ka !== kb) return ka > kb;
  return da < db;
}

export function buildLocator(airports: readonly Airport[], runways: readonly Runway[]): AirportLocator {
  const segsByIdent = new Map<string, number[]>();
  for (const r of runways) {
    if (r.closed) continue;
    const a = r.le ?? r.he;
    const b = r.he ?? r.le;
    if (!a || !b) continue;
    let list = segsByIdent.get(r.airport_ident);
    if (!list) segsByIdent.set(r.airport_ident, (list = []));
    list.push(a.lat, a.lon, b.lat, b.lon);
  }
  // the grid as flat arrays (cell key, entry) sorted by cell, not a Map of arrays: about 500k
  // filings for the 85k airports, which as JS arrays were two thirds of the live server's heap
  // and slowed every full collection (docs/perf-log/stalls.md)
  const entries: Entry[] = [];
  let filed = new Float64Array(1 << 16);
  let nFiled = 0;
  const fileEntry: number[] = [];
  const file = (k: number, e: number) => {
    if (nFiled === filed.length) {
      const bigger = new Float64Array(filed.length * 2);
      bigger.set(filed);
      filed = bigger;
    }
    // cell key (< 2^23) above the filing's sequence number (< 2^29): one exact double, sorted as a number
    filed[nFiled] = k * SEQ_SPAN + nFiled;
    nFiled++;
    fileEntry[nFiled - 1] = e;
  };
  for (const airport of airports) {
    if (airport.kind === 'closed') continue;
    const segs = segsByIdent.get(airport.ident) ?? NO_SEGS;
    const entry: Entry = { airport, refRadiusKm: REF_RADIUS_KM[airport.kind] ?? 1.0, segs };
    const at = entries.push(entry) - 1;
    // the area where this airport can match: its reference circle and its runways plus RUNWAY_KM
    let minLat = airport.lat,
      maxLat = airport.lat,
      minDLon = 0,
      maxDLon = 0;
    for (let i = 0; i < segs.length; i += 2) {
      minLat = Math.min(minLat, segs[i]!);
      maxLat = Math.max(maxLat, segs[i]!);
      const d = wrapLon(segs[i + 1]! - airport.lon);
      minDLon = Math.min(minDLon, d);
      maxDLon = Math.max(maxDLon, d);
    }
    const padKm = Math.max(entry.refRadiusKm, RUNWAY_KM, FIELD_KM);
    const padLat = padKm / KM_PER_DEG;
    const cos = Math.max(0.01, Math.cos((Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat)) + padLat) * Math.PI) / 180));
    const padLon = padKm / (KM_PER_DEG * cos);
    const la0 = Math.max(0, latCell(minLat - padLat));
    const la1 = Math.min(latCell(90) - 1, latCell(maxLat + padLat));
    const loStart = Math.floor((airport.lon + minDLon - padLon + 180) / CELL_DEG);
    const loEnd = Math.floor((airport.lon + maxDLon + padLon + 180) / CELL_DEG);
    for (let la = la0; la <= la1; la++) {
      for (let lo = loStart; lo <= loEnd; lo++) {
        file(key(la, ((lo % LON_CELLS) + LON_CELLS) % LON_CELLS), at);
      }
    }
  }
  const grid = flatGrid(filed.subarray(0, nFiled), fileEntry);
  // the lookups' closures share this scope: the filing arrays must not live on with them
  filed = new Float64Array(0);
  fileEntry.length = 0;
  /** the cell's position in the grid, -1 when no airport is filed there (or the point is not one) */
  const cellAt = (lat: number, lon: number): number => {
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90) return -1;
    return grid.find(key(Math.min(latCell(lat), latCell(90) - 1), lonCell(wrapLon(lon))));
  };
  return {
    size: entries.length,
    nearest(lat, lon) {
      const c = cellAt(lat, lon);
      if (c < 0) return null;
      const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
      let best: { airport: Airport; km: number } | null = null;
      for (let j = grid.start[c]!; j < grid.start[c + 1]!; j++) {
        const e = entries[grid.list[j]!]!;
        const d = matchKm(e, lat, lon, kx, FIELD_KM, FIELD_KM);
        if (d < (best?.km ?? Infinity)) best = { airport: e.airport, km: d };
      }
      return best;
    },
    around(lat, lon) {
      const c = cellAt(lat, lon);
      if (c < 0) return [];
      const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
      const out: Around[] = [];
      for (let j = grid.start[c]!; j < grid.start[c + 1]!; j++) {
        const e = entries[grid.list[j]!]!;
        const km = matchKm(e, lat, lon, kx, FIELD_KM, FIELD_KM);
        const m = matchKm(e, lat, lon, kx);
        if (km !== Infinity) out.push({ airport: e.airport, km, matchKm: m === Infinity ? null : m });
      }
      return out.sort((a, b) => a.km - b.km);
    },
    locate(lat, lon) {
      const c = cellAt(lat, lon);
      if (c < 0) return null;
      const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
      let nearest = Infinity;
      const hits: { e: Entry; d: number }[] = [];
      for (let j = grid.start[c]!; j < grid.start[c + 1]!; j++) {
        const e = entries[grid.list[j]!]!;
        const d = matchKm(e, lat, lon, kx);
        if (d === Infinity) continue;
        hits.push({ e, d });
        if (d < nearest) nearest = d;
      }
      let best: { e: Entry; d: number } | null = null;
      for (const h of hits) {
        if (h.d > nearest + TIE_KM) continue;
        if (!best || preferred(h.e.airport, h.d, best.e.airport, best.d)) best = h;
      }
      return best ? best.e.airport : null;
    },
  };
}
