// the traffic library's swiss cruise sample (traffic-lib `switzerland.json.gz`: one day in 2018,
// a row every 10 s per aircraft) read into tracks, and the split of its aircraft into two halves
// by a hash of the address (one half teaches the flow and the paths, the other is scored). local
// measurement data: the benches take its path on the command line; nothing in the project reads it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { ObservedTrack, TrackPoint } from '../../lib/estimate/accuracy.ts';

interface Row {
  timestamp: number;
  icao24: string;
  callsign?: string | null;
  latitude: number | null;
  longitude: number | null;
  altitude: number | null;
  groundspeed: number | null;
  track: number | null;
  vertical_rate: number | null;
}

export interface TrafficDay {
  /** UTC day of the first row */
  day: string;
  rows: number;
  /** one per aircraft, points oldest first; `rate` is the row's vertical rate (ft/min) */
  tracks: ObservedTrack[];
}

/** Read the file (gzipped or not) into one track per aircraft. */
export function readTrafficLib(path: string): TrafficDay {
  const bytes = readFileSync(path);
  const rows = JSON.parse((bytes[0] === 0x1f ? gunzipSync(bytes) : bytes).toString('utf8')) as Row[];
  const byHex = new Map<string, TrackPoint[]>();
  let first = Infinity;
  for (const r of rows) {
    first = Math.min(first, r.timestamp);
    if (r.latitude == null || r.longitude == null) continue;
    const p: TrackPoint = {
      t: r.timestamp / 1000,
      lat: r.latitude,
      lon: r.longitude,
      alt: r.altitude,
      gs: r.groundspeed,
      track: r.track,
      rate: r.vertical_rate,
      ...(r.callsign ? { callsign: r.callsign.trim() } : {}),
    };
    let list = byHex.get(r.icao24);
    if (!list) byHex.set(r.icao24, (list = []));
    list.push(p);
  }
  const tracks = [...byHex].map(([hex, points]) => ({ hex, points: points.sort((a, b) => a.t - b.t) }));
  return { day: new Date(first).toISOString().slice(0, 10), rows: rows.length, tracks };
}

/** Which half an aircraft falls in (0 or 1), by a hash of its address. */
export const halfOf = (hex: string): 0 | 1 => (createHash('sha256').update(hex).digest()[0]! & 1) as 0 | 1;
