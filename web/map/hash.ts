// the view a URL asks for: #<zoom>/<lat>/<lon>, optionally /poll (poll /v1/aircraft, no stream).
// anything malformed or out of range opens the default view (central Europe, zoom 5).

export interface StartView {
  zoom: number;
  lat: number;
  lon: number;
  poll: boolean;
}

const DEFAULT = { zoom: 5, lat: 48, lon: 9 };

export function viewFromHash(hash: string): StartView {
  const [z, lat, lon, mode] = hash.replace(/^#/, '').split('/');
  const num = (s: string | undefined) => (s !== undefined && /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN);
  const v = { zoom: num(z), lat: num(lat), lon: num(lon) };
  const ok = (x: number, lo: number, hi: number) => Number.isFinite(x) && x >= lo && x <= hi;
  const valid = ok(v.zoom, 2, 14) && ok(v.lat, -85, 85) && ok(v.lon, -540, 540);
  return { ...(valid ? v : DEFAULT), poll: mode === 'poll' };
}
