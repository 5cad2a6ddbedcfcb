// the traffic flow: how aircraft that cruised through a place on a heading turned in the next
// minute, learned from the network's own observed traces. an estimate past its 10-minute hold
// follows it (fly.ts): where traffic on that heading turns onto an airway, the estimate turns with
// it; where the field knows nothing it flies on as before. pure: tracks in, field out.
//
// the field is a grid of cells (cellDeg) and heading sectors (sectorDeg). each (cell, sector) holds
// how many cruise points were seen there (n) and the sum of their track change over the next
// stepS seconds (turn, degrees, signed). a night's field is the previous one decayed (decay per
// day: older traffic counts less) plus the new day, so it remembers the last weeks of flows.
import { isCruising } from './cruise.ts';

export interface FlowParams {
  /** grid cell size, degrees of latitude and longitude */
  cellDeg: number;
  /** heading sector width, degrees */
  sectorDeg: number;
  /** the turn is measured over, and the estimate steps by, this many seconds */
  stepS: number;
  /** a step's turn is the mean over sectors whose centre is within this of the heading, degrees */
  windowDeg: number;
  /** fewer samples than this (after decay) in the window: no turn */
  minN: number;
  /** the weight of yesterday's field in tonight's */
  decay: number;
}

export const FLOW_PARAMS: FlowParams = { cellDeg: 0.2, sectorDeg: 5, stepS: 60, windowDeg: 10, minN: 3, decay: 0.9 };

/** (cell, sector) -> [n, sum of turns] */
export interface FlowField {
  params: FlowParams;
  /** key `${latIndex},${lonIndex},${sector}` */
  bins: Map<string, [number, number]>;
}

export interface FlowPoint {
  t: number;
  lat: number;
  lon: number;
  alt?: number | 'ground' | null;
  gs?: number | null;
  track?: number | null;
  rate?: number | null;
}

const wrap180 = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;
const sectorOf = (track: number, p: FlowParams) => Math.floor((((track % 360) + 360) % 360) / p.sectorDeg);
const binKey = (lat: number, lon: number, sector: number, p: FlowParams) => `${Math.floor(lat / p.cellDeg)},${Math.floor(lon / p.cellDeg)},${sector}`;

export const emptyFlow = (params: FlowParams = FLOW_PARAMS): FlowField => ({ params, bins: new Map() });

/**
 * Adds one day of observed tracks (each sorted by time) to a field: every cruise point whose
 * track is known again stepS later (points at most 120 s apart around that time) adds its turn.
 */
export function learnFlow(field: FlowField, tracks: Iterable<readonly FlowPoint[]>): number {
  const p = field.params;
  let added = 0;
  for (const pts of tracks) {
    let j = 0;
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i]!;
      if (
        a.track == null ||
        !isCruising({ lat: a.lat, lon: a.lon, alt_baro: a.alt ?? undefined, gs: a.gs ?? undefined, track: a.track, baro_rate: a.rate ?? undefined })
      )
        continue;
      const target = a.t + p.stepS;
      if (j < i) j = i;
      while (j < pts.length && pts[j]!.t < target) j++;
      const b = pts[j];
      const before = pts[j - 1]!;
      if (!b || b.track == null || b.t - target > 120 || target - before.t > 120) continue;
      const key = binKey(a.lat, a.lon, sectorOf(a.track, p), p);
      const bin = field.bins.get(key);
      const turn = wrap180(b.track - a.track);
      if (bin) {
        bin[0]++;
        bin[1] += turn;
      } else field.bins.set(key, [1, turn]);
      added++;
    }
  }
  return added;
}

/** Yesterday's field weighted by the decay, bins that faded below a tenth of a sample dropped. */
export function decayFlow(field: FlowField): FlowField {
  const bins = new Map<string, [number, number]>();
  for (const [k, [n, sum]] of field.bins) if (n * field.params.decay >= 0.1) bins.set(k, [n * field.params.decay, sum * field.params.decay]);
  return { params: field.params, bins };
}

/** The mean turn over the next step of traffic at this place and heading, degrees; null where too little is known. */
export function turnAt(field: FlowField, lat: number, lon: number, track: number): number | null {
  const p = field.params;
  const reach = Math.ceil(p.windowDeg / p.sectorDeg);
  const sectors = 360 / p.sectorDeg;
  const own = sectorOf(track, p);
  let n = 0;
  let sum = 0;
  for (let d = -reach; d <= reach; d++) {
    const s = (((own + d) % sectors) + sectors) % sectors;
    const centre = (s + 0.5) * p.sectorDeg;
    if (Math.abs(wrap180(centre - track)) > p.windowDeg) continue;
    const bin = field.bins.get(binKey(lat, lon, s, p));
    if (bin) {
      n += bin[0];
      sum += bin[1];
    }
  }
  return n >= p.minN ? sum / n : null;
}

/** The published form (meta/flow, schemas/flow.schema.json). */
export interface FlowDoc {
  /** the newest day of traces the field has learned (ISO date); a replay of a day may use it only if earlier */
  through: string;
  params: FlowParams;
  /** [lat index, lon index, sector, n, sum of turns], sorted */
  bins: [number, number, number, number, number][];
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

export function encodeFlow(field: FlowField, through: string): FlowDoc {
  const bins: FlowDoc['bins'] = [];
  for (const [k, [n, sum]] of field.bins) {
    const [i, j, s] = k.split(',').map(Number) as [number, number, number];
    bins.push([i, j, s, round3(n), round3(sum)]);
  }
  bins.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return { through, params: field.params, bins };
}

export function decodeFlow(doc: FlowDoc): FlowField {
  const bins = new Map<string, [number, number]>();
  for (const [i, j, s, n, sum] of doc.bins) bins.set(`${i},${j},${s}`, [n, sum]);
  return { params: { ...doc.params }, bins };
}
