// what the URL holds (docs/api.md "URL state"), as tar1090's users expect: ?icao=<hex> selects an
// aircraft, ?lat=&lon=&zoom= sets the view, and the filters, theme, basemap and polling ride along:
// ?altMin=&altMax=&type=A320,B738&mil=1&theme=dark&layer=offline&poll=1. the older #zoom/lat/lon
// (and #.../poll) still opens its view (hash.ts). a malformed value is ignored, never an error.
import { viewFromHash } from './hash.ts';
import { NO_FILTERS, parseFeet, parseTypes, type Filters } from './filters.ts';

export interface UrlState {
  view: { zoom: number; lat: number; lon: number } | null;
  icao: string | null;
  filters: Filters;
  theme: 'dark' | 'light' | null;
  layer: string | null;
  poll: boolean;
}

const inRange = (x: number, lo: number, hi: number) => Number.isFinite(x) && x >= lo && x <= hi;
const num = (s: string | null) => (s !== null && /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN);

export function readUrl(search: string, hash: string): UrlState {
  const q = new URLSearchParams(search);
  const lat = num(q.get('lat'));
  const lon = num(q.get('lon'));
  const zoom = num(q.get('zoom'));
  let view = inRange(lat, -85, 85) && inRange(lon, -540, 540) ? { zoom: inRange(zoom, 2, 14) ? zoom : 8, lat, lon } : null;
  const h = hash.replace(/^#/, '');
  const fromHash = h ? viewFromHash(hash) : null;
  // a hash that is a valid view wins over none; viewFromHash answers its default for a malformed one
  if (!view && fromHash && /^\d+(\.\d+)?\/-?\d/.test(h)) view = { zoom: fromHash.zoom, lat: fromHash.lat, lon: fromHash.lon };
  const icao = (q.get('icao') ?? '').toLowerCase();
  const theme = q.get('theme');
  return {
    view,
    icao: /^[0-9a-f]{6}$/.test(icao) ? icao : null,
    filters: {
      altMin: parseFeet(q.get('altMin') ?? ''),
      altMax: parseFeet(q.get('altMax') ?? ''),
      types: parseTypes(q.get('type') ?? ''),
      military: q.get('mil') === '1',
    },
    theme: theme === 'dark' || theme === 'light' ? theme : null,
    layer: /^[a-z0-9-]{1,32}$/.test(q.get('layer') ?? '') ? q.get('layer') : null,
    poll: q.get('poll') === '1' || (fromHash?.poll ?? false),
  };
}

/** The query string for a state (no '?' when empty); the view rounded to what a zoom can show. */
export function writeUrl(s: UrlState): string {
  const q = new URLSearchParams();
  if (s.icao) q.set('icao', s.icao);
  if (s.view) {
    const digits = Math.min(6, Math.max(2, Math.ceil(s.view.zoom * 0.3) + 1));
    q.set('lat', s.view.lat.toFixed(digits));
    q.set('lon', s.view.lon.toFixed(digits));
    q.set('zoom', String(Math.round(s.view.zoom * 100) / 100));
  }
  const f = s.filters ?? NO_FILTERS;
  if (f.altMin !== null) q.set('altMin', String(f.altMin));
  if (f.altMax !== null) q.set('altMax', String(f.altMax));
  if (f.types.length) q.set('type', f.types.join(','));
  if (f.military) q.set('mil', '1');
  if (s.theme) q.set('theme', s.theme);
  if (s.layer) q.set('layer', s.layer);
  if (s.poll) q.set('poll', '1');
  const text = q.toString().replace(/%2C/g, ',');
  return text ? `?${text}` : '';
}
