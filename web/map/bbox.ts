// the box the map asks for: a view padded on every side, in the API's bbox syntax
// (minLon,minLat,maxLon,maxLat; west > east crosses the antimeridian), or null for the whole sky.

export type Box = [number, number, number, number];

export interface View {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** longitude into [-180, 180) */
const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
const clampLat = (lat: number) => Math.max(-90, Math.min(90, lat));

/**
 * The box to ask for a view, padded by `pad` times its size on each side and rounded outward to
 * 0.01° (so it fits the 80-character limit); null when it would span the whole globe's width.
 */
export function viewBox(v: View, pad: number): Box | null {
  const w = v.east - v.west;
  const h = v.north - v.south;
  if (w * (1 + 2 * pad) >= 360) return null;
  const minLon = wrap(Math.floor((v.west - w * pad) * 100) / 100);
  let maxLon = wrap(Math.ceil((v.east + w * pad) * 100) / 100);
  // wrap() sends +180 to -180: a box that ends exactly on the antimeridian ends at 180
  if (maxLon === -180) maxLon = 180;
  const r = (x: number) => Math.round(x * 100) / 100;
  return [r(minLon), clampLat(Math.floor((v.south - h * pad) * 100) / 100), r(maxLon), clampLat(Math.ceil((v.north + h * pad) * 100) / 100)];
}

/** true when the whole view lies inside `box` (null: the whole sky covers everything) */
export function covers(box: Box | null, v: View): boolean {
  if (!box) return true;
  const [w, s, e, n] = box;
  if (v.south < s || v.north > n) return false;
  const east = e < w ? e + 360 : e;
  if (v.east - v.west >= 360) return false;
  // the view's longitudes may be any copy of the world (Leaflet does not wrap them)
  const west = wrap(v.west);
  const span = v.east - v.west;
  for (const shift of [-360, 0, 360]) if (west + shift >= w && west + shift + span <= east) return true;
  return false;
}

export const bboxParam = (b: Box) => b.join(',');
