// pure parser of readsb's trace_full_<hex>.json (globe_history), already decompressed and
// JSON-parsed by the caller. format: readsb README-json.md, "trace" files.
// row: [secondsAfterTimestamp, lat, lon, alt ('ground' | ft | null), gs, track, flags,
//       vertical_rate, details | null, source, geom_alt, geom_rate, ias, roll]

import type { TrackPoint } from './detector.ts';

// flags bit 0 marks a stale position (readsb repeats an old one); nothing here reads it
/** flags bit 1: readsb starts a new leg here (its own guess; the detector makes ours) */
export const FLAG_NEW_LEG = 2;

export type TracePoint = TrackPoint & { callsign?: string; flags?: number };

export interface ParsedTrace {
  hex: string;
  reg: string | null;
  type: string | null;
  desc: string | null;
  ownOp: string | null;
  year: number | null;
  /** oldest first, absolute unix seconds */
  points: TracePoint[];
  /** rows that were not a valid position and were left out */
  dropped: number;
}

/** The file is not a readsb trace_full at all (a bad row is dropped and counted instead). */
export class TraceFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceFormatError';
  }
}

const HEX = /^~?[0-9a-f]{6}$/;

/** Parses one trace_full document (the JSON value, not the bytes). Throws TraceFormatError when it is not one. */
export function parseTraceFull(json: unknown): ParsedTrace {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new TraceFormatError('trace_full: expected a JSON object {icao, timestamp, trace: [...]}');
  }
  const doc = json as Record<string, unknown>;
  const hex = typeof doc.icao === 'string' ? doc.icao.trim().toLowerCase() : '';
  if (!HEX.test(hex)) throw new TraceFormatError(`trace_full: "icao" must be 6 hex digits, got ${JSON.stringify(doc.icao)}`);
  const base = doc.timestamp;
  if (typeof base !== 'number' || !Number.isFinite(base) || base < 0) {
    throw new TraceFormatError(`trace_full ${hex}: "timestamp" must be unix seconds, got ${JSON.stringify(base)}`);
  }
  if (!Array.isArray(doc.trace)) throw new TraceFormatError(`trace_full ${hex}: "trace" must be an array of rows`);

  const points: TracePoint[] = [];
  let dropped = 0;
  let callsign: string | undefined;
  for (const row of doc.trace as unknown[]) {
    const p = parseRow(row, base);
    // rows must move forward in time; a row out of order is as useless as a broken one
    if (!p || (points.length > 0 && p.t < points[points.length - 1]!.t)) {
      dropped++;
      continue;
    }
    // readsb repeats the callsign only in occasional detail objects: carry it forward within its leg
    if (p.flags !== undefined && (p.flags & FLAG_NEW_LEG) !== 0) callsign = undefined;
    const fromDetails = detailsCallsign((row as unknown[])[8]);
    if (fromDetails !== undefined) callsign = fromDetails;
    if (callsign !== undefined) p.callsign = callsign;
    points.push(p);
  }
  return {
    hex,
    reg: str(doc.r),
    type: str(doc.t),
    desc: str(doc.desc),
    ownOp: str(doc.ownOp),
    year: year(doc.year),
    points,
    dropped,
  };
}

function parseRow(row: unknown, base: number): TracePoint | null {
  if (!Array.isArray(row) || row.length < 6) return null;
  const [dt, lat, lon, alt, gs, track, flags] = row as unknown[];
  if (!finite(dt) || !finite(lat) || !finite(lon)) return null;
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return null;
  let a: TrackPoint['alt'];
  if (alt === 'ground') a = 'ground';
  else if (alt === null || alt === undefined) a = null;
  else if (finite(alt) && alt > -2000 && alt < 100_000) a = Math.round(alt);
  else return null;
  // round away float noise from adding the offset (readsb writes hundredths of a second)
  const p: TracePoint = { t: Math.round((base + dt) * 100) / 100, lat, lon, alt: a, gs: optNum(gs), track: optNum(track) };
  if (Number.isInteger(flags) && (flags as number) >= 0) p.flags = flags as number;
  return p;
}

function detailsCallsign(d: unknown): string | undefined {
  if (d === null || typeof d !== 'object') return undefined;
  const f = (d as Record<string, unknown>).flight;
  if (typeof f !== 'string') return undefined;
  const s = f.trim();
  return s === '' ? undefined : s;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optNum = (v: unknown): number | null => (finite(v) ? v : null);

function str(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s === '' ? null : s;
}

function year(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{4}$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 1900 && n <= 2200 ? n : null;
}
