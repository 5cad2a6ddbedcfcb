// the offline basemap's place names (docs/api.md "The map's offline basemap"): countries at the
// pole of inaccessibility of their largest polygon (Natural Earth 1:10m, through world-atlas), and
// large cities taken from OurAirports: a municipality with a large airport, placed at the mean of
// its large and medium airports within CITY_KM (London's five airports average to near its centre,
// where Heathrow alone would put the name 20 km west). both sources are public domain.
import polylabel from 'polylabel';
import type { Airport } from '../../lib/reference/airports.ts';

/** [name, lat, lon, kind, rank]: a bigger rank is placed first where labels would collide */
export type Place = [string, number, number, 'country' | 'city', number];

type Ring = [number, number][];
interface CountryShape {
  name: string;
  /** polygons, each an outer ring and its holes, [lon, lat] */
  polygons: Ring[][];
}

/** airports of one municipality further apart than this are different places (Washington, DC and Washington, PA) */
const CITY_KM = 100;
/** polylabel's precision, degrees: a tenth of a degree is a pixel or two at the zooms that show country names */
const LABEL_PRECISION = 0.05;

const RAD = Math.PI / 180;
const MAX_LAT = 85;
/** Web Mercator y in degrees of longitude at the equator, and back */
const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * RAD) / 2)) / RAD;
const unMercY = (y: number) => (2 * Math.atan(Math.exp(y * RAD)) - Math.PI / 2) / RAD;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** planar area of a ring in square degrees (only compared within one country) */
function ringArea(r: Ring): number {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += (r[j]![0] - r[i]![0]) * (r[j]![1] + r[i]![1]);
  return Math.abs(a / 2);
}

/** One label point per named country, ranked by the area of its largest polygon (the biggest first). */
export function countryPlaces(countries: readonly CountryShape[]): Place[] {
  const out: Place[] = [];
  for (const c of countries) {
    if (!c.name || !c.polygons.length) continue;
    let best = c.polygons[0]!;
    let bestArea = -1;
    for (const p of c.polygons) {
      const a = ringArea(p[0]!) - p.slice(1).reduce((s, h) => s + ringArea(h), 0);
      if (a > bestArea) [best, bestArea] = [p, a];
    }
    // in Web Mercator (the map's projection), so a northern country's label sits where it looks widest
    const [x, y] = polylabel(
      best.map((r) => r.map(([lon, lat]): [number, number] => [lon, mercY(lat)])),
      LABEL_PRECISION,
    );
    const [lon, lat] = [x, unMercY(y)];
    // rank 10..100 by log area: Russia ~100, Vatican ~10
    const rank = Math.max(10, Math.min(100, Math.round(60 + 10 * Math.log10(bestArea))));
    out.push([c.name, round3(lat), round3(lon), 'country', rank]);
  }
  return out.sort((a, b) => b[4] - a[4] || (a[0] < b[0] ? -1 : 1));
}

const km = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
  const rad = Math.PI / 180;
  const x = (b.lon - a.lon) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6371;
};

/** "Paris (Roissy-en-France, Val-d'Oise)" -> "Paris"; "Frankfurt am Main" stays */
export const cityName = (municipality: string) => municipality.replace(/\s*[(,/].*$/, '').trim();

/**
 * Cities with at least one large airport: one place per municipality and country (per cluster of
 * airports within CITY_KM of a large one), at the mean of the cluster's large and medium airports;
 * rank 2 per large airport and 1 per medium one.
 */
export function cityPlaces(airports: readonly Pick<Airport, 'kind' | 'municipality' | 'iso_country' | 'lat' | 'lon'>[]): Place[] {
  const groups = new Map<string, (typeof airports)[number][]>();
  for (const a of airports) {
    if (a.kind !== 'large_airport' && a.kind !== 'medium_airport') continue;
    const name = cityName(a.municipality);
    if (!name) continue;
    const key = `${a.iso_country}\u0000${name}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(a);
  }
  const out: Place[] = [];
  for (const [key, g] of groups) {
    const name = key.split('\u0000')[1]!;
    let rest = g.filter((a) => a.kind === 'large_airport');
    while (rest.length) {
      // the large airport with the most of the group near it seeds the cluster (ties: the first by position)
      const near = (a: (typeof g)[number]) => g.filter((b) => km(a, b) <= CITY_KM).length;
      const seed = rest.reduce((best, a) =>
        near(a) > near(best) || (near(a) === near(best) && (a.lat < best.lat || (a.lat === best.lat && a.lon < best.lon))) ? a : best,
      );
      const cluster = g.filter((a) => km(seed, a) <= CITY_KM);
      rest = rest.filter((a) => !cluster.includes(a));
      const lat = cluster.reduce((s, a) => s + a.lat, 0) / cluster.length;
      const lon = cluster.reduce((s, a) => s + a.lon, 0) / cluster.length;
      const rank = cluster.reduce((s, a) => s + (a.kind === 'large_airport' ? 2 : 1), 0);
      out.push([name, round3(lat), round3(lon), 'city', rank]);
    }
  }
  return out.sort((a, b) => b[4] - a[4] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
}
