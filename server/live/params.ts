// pure parsing of the live routes' inputs (spec 4.1, 8): the /v1/aircraft `bbox` and the
// /v2/point path. every refusal is a 422 whose detail says the fix.
// unknown query parameters are ignored (clients may add cache-busters); `bbox` given twice is refused.
import { invalidRequest } from '../../lib/errors.ts';
import type { Bbox } from '../parts/spatial.ts';

/** spec 8: `bbox` maximum length */
const BBOX_MAX_CHARS = 80;
/** spec 8: point radius cap, nautical miles; larger radii are capped, not refused */
export const RADIUS_CAP_NM = 250;

// plain decimal numbers only: no hex (0x10), no Infinity, no empty string (Number('') is 0)
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal number, or null when the text is not one (or is not finite). */
export function parseDecimal(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** The `bbox` of a /v1/aircraft query string (without `?`); null when absent. */
export function parseBboxQuery(query: string): Bbox | null {
  if (!query) return null;
  let values: string[];
  try {
    values = new URLSearchParams(query).getAll('bbox');
  } catch {
    throw invalidRequest('the query string cannot be decoded; percent-encode it');
  }
  if (values.length === 0) return null;
  if (values.length > 1) throw invalidRequest('give bbox once: bbox=minLon,minLat,maxLon,maxLat');
  return parseBbox(values[0]!);
}

const BBOX_USAGE = 'bbox is minLon,minLat,maxLon,maxLat in degrees, e.g. bbox=5,45,15,55';

/** `minLon,minLat,maxLon,maxLat`; a west edge east of the east edge crosses the antimeridian. */
export function parseBbox(text: string): Bbox {
  if (text.length > BBOX_MAX_CHARS) throw invalidRequest(`bbox is longer than ${BBOX_MAX_CHARS} characters; shorten the decimals. ${BBOX_USAGE}`);
  const parts = text.split(',');
  if (parts.length !== 4) throw invalidRequest(`bbox needs exactly four numbers, got ${parts.length}. ${BBOX_USAGE}`);
  const nums = parts.map((p) => parseDecimal(p.trim()));
  const bad = nums.findIndex((n) => n === null);
  if (bad >= 0) throw invalidRequest(`bbox value ${bad + 1} (${JSON.stringify(parts[bad])}) is not a finite number. ${BBOX_USAGE}`);
  const [minLon, minLat, maxLon, maxLat] = nums as number[] as [number, number, number, number];
  return checkBbox(minLon, minLat, maxLon, maxLat);
}

/** The range checks of a bbox whose four values are already numbers (the stream's JSON form too). */
export function checkBbox(minLon: number, minLat: number, maxLon: number, maxLat: number): Bbox {
  for (const [name, v] of [
    ['minLon', minLon],
    ['maxLon', maxLon],
  ] as const) {
    if (v < -180 || v > 180) throw invalidRequest(`bbox ${name} ${v} is outside -180..180. ${BBOX_USAGE}`);
  }
  for (const [name, v] of [
    ['minLat', minLat],
    ['maxLat', maxLat],
  ] as const) {
    if (v < -90 || v > 90) throw invalidRequest(`bbox ${name} ${v} is outside -90..90. ${BBOX_USAGE}`);
  }
  if (minLat > maxLat) throw invalidRequest(`bbox minLat ${minLat} is north of maxLat ${maxLat}: swap them. ${BBOX_USAGE}`);
  return { minLon, minLat, maxLon, maxLat };
}

export interface PointQuery {
  lat: number;
  lon: number;
  /** nautical miles, already capped at RADIUS_CAP_NM */
  radiusNm: number;
}

/** The path parameters of /v2/point/{lat}/{lon}/{radius}. */
export function parsePoint(params: { lat?: string; lon?: string; radius?: string }): PointQuery {
  const usage = 'use /v2/point/{lat}/{lon}/{radius}: degrees, degrees, nautical miles, e.g. /v2/point/50.0/8.5/25';
  const lat = parseDecimal(params.lat ?? '');
  const lon = parseDecimal(params.lon ?? '');
  const radius = parseDecimal(params.radius ?? '');
  if (lat === null) throw invalidRequest(`lat ${JSON.stringify(params.lat ?? '')} is not a finite number; ${BBOX_USAGE}`);
  if (lon === null) throw invalidRequest(`lon ${JSON.stringify(params.lon ?? '')} is not a finite number; ${BBOX_USAGE}`);
  if (radius === null) throw invalidRequest(`radius ${JSON.stringify(params.radius ?? '')} is not a finite number; ${BBOX_USAGE}`);
  if (lat < -90 || lat > 90) throw invalidRequest(`lat ${lat} is outside -90..90; ${BBOX_USAGE}`);
  if (lon < -180 || lon > 180) throw invalidRequest(`lon ${lon} is outside -180..180; ${BBOX_USAGE}`);
  if (radius < 0) throw invalidRequest(`radius ${radius} is negative; give 0..${RADIUS_CAP_NM} nautical miles`);
  return { lat, lon, radiusNm: Math.min(radius, RADIUS_CAP_NM) };
}
