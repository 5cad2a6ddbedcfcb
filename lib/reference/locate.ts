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
const TIE_KM = 0.2;
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

export interface AirportLocator {
  /** the airport where this ground point clearly is, or null */
  locate(lat: number, lon: number): Airport | null;
  /** the nearest open airport within FIELD_KM of its runways (or reference point), with the distance; null when none */
  nearest(lat: number, lon: number): { airport: Airport; km: number } | null;
  /** airports that can be assigned (not closed) */
  readonly size: number;
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
    const d = segDist(
      wrapLon(s[i + 1]! - lon) * kx, (s[i]! - lat) * KM_PER_DEG,
      wrapLon(s[i + 3]! - lon) * kx, (s[i + 2]! - lat) * KM_PER_DEG,
    );
    if (d <= runwayKm && d < best) best = d;
  }
  return best;
}

function preferred(a: Airport, da: number, b: Airport, db: number): boolean {
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
  const grid = new Map<number, Entry[]>();
  let size = 0;
  for (const airport of airports) {
    if (airport.kind === 'closed') continue;
    const segs = segsByIdent.get(airport.ident) ?? [];
    const entry: Entry = { airport, refRadiusKm: REF_RADIUS_KM[airport.kind] ?? 1.0, segs };
    size++;
    // the area where this airport can match: its reference circle and its runways plus RUNWAY_KM
    let minLat = airport.lat, maxLat = airport.lat, minDLon = 0, maxDLon = 0;
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
        const k = key(la, ((lo % LON_CELLS) + LON_CELLS) % LON_CELLS);
        let cell = grid.get(k);
        if (!cell) grid.set(k, (cell = []));
        cell.push(entry);
      }
    }
  }
  const cellAt = (lat: number, lon: number): Entry[] | null => {
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90) return null;
    return grid.get(key(Math.min(latCell(lat), latCell(90) - 1), lonCell(wrapLon(lon)))) ?? null;
  };
  return {
    size,
    nearest(lat, lon) {
      const cell = cellAt(lat, lon);
      if (!cell) return null;
      const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
      let best: { airport: Airport; km: number } | null = null;
      for (const e of cell) {
        const d = matchKm(e, lat, lon, kx, FIELD_KM, FIELD_KM);
        if (d < (best?.km ?? Infinity)) best = { airport: e.airport, km: d };
      }
      return best;
    },
    locate(lat, lon) {
      const cell = cellAt(lat, lon);
      if (!cell) return null;
      const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
      let nearest = Infinity;
      const hits: { e: Entry; d: number }[] = [];
      for (const e of cell) {
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
