// real OurAirports rows (data/ref/ourairports, Unlicense) for the runway and placement tests: runways.csv
// (airport_ident, length_ft, width_ft, surface, le_ident, le lat/lon, he_ident, he lat/lon) and airports.csv.
import type { Airport } from '../../lib/reference/airports.ts';
import type { Runway } from '../../lib/reference/runways.ts';

type End = [string, number, number];
const rw = (ident: string, length_ft: number, width_ft: number, surface: string, le: End, he: End): Runway => ({
  airport_ident: ident,
  le_ident: le[0],
  he_ident: he[0],
  length_ft,
  width_ft,
  surface,
  lighted: true,
  le: { lat: le[1], lon: le[2] },
  he: { lat: he[1], lon: he[2] },
  closed: false,
});
const ap = (ident: string, kind: string, lat: number, lon: number, scheduled_service: boolean): Airport => ({
  ident,
  iata: null,
  icao: null,
  name: ident,
  kind,
  lat,
  lon,
  elevation_ft: 10,
  iso_country: 'US',
  iso_region: '',
  municipality: '',
  scheduled_service,
  tz: 'UTC',
});

/** Newark Liberty (KEWR) and the Port Newark Helistop (0NJ8) beside it: the UAL15 case (issue 43) */
export const EWR_RUNWAYS: Runway[] = [
  rw('KEWR', 6725, 150, 'ASP', ['11', 40.702815, -74.180748], ['29', 40.701203, -74.156502]),
  rw('KEWR', 11000, 150, 'ASP', ['4L', 40.675392, -74.179456], ['22R', 40.70257, -74.16217]),
  rw('KEWR', 9999, 150, 'ASP', ['4R', 40.677588, -74.174253], ['22L', 40.702299, -74.158539]),
  // a helipad: one located point, 75 ft
  { ...rw('0NJ8', 75, 75, 'ASPH', ['H1', 0, 0], ['', 0, 0]), he_ident: null, le: null, he: null },
];
export const EWR_AIRPORTS: Airport[] = [
  ap('KEWR', 'large_airport', 40.6894, -74.170545, true),
  ap('0NJ8', 'heliport', 40.702301025390625, -74.15070343017578, false),
];

/** Atlanta (KATL) 09L/27R and 09R/27L: parallels 320 m apart */
export const ATL_RUNWAYS: Runway[] = [
  rw('KATL', 12390, 150, 'CON', ['09L', 33.63470078, -84.44799805], ['27R', 33.63470078, -84.4088974]),
  rw('KATL', 9000, 150, 'CON', ['09R', 33.63180161, -84.44799805], ['27L', 33.63180161, -84.41840363]),
];

/** Sonoma Valley (0Q3), a 1,513 ft strip */
export const SONOMA_RUNWAYS: Runway[] = [rw('0Q3', 1513, 50, 'ASPH-G', ['17', 38.22710037, -122.4530029], ['35', 38.22290039, -122.4530029])];
export const SONOMA_AIRPORTS: Airport[] = [ap('0Q3', 'small_airport', 38.223499, -122.449997, false)];

/** a point `along` m from (lat, lon) on `heading` degrees true, then `right` m to its right (flat earth: fine over a few km) */
export function offset(lat: number, lon: number, heading: number, along: number, right = 0): { lat: number; lon: number } {
  const h = (heading * Math.PI) / 180;
  const east = along * Math.sin(h) + right * Math.cos(h);
  const north = along * Math.cos(h) - right * Math.sin(h);
  return { lat: lat + north / 111_195, lon: lon + east / (111_195 * Math.cos((lat * Math.PI) / 180)) };
}
