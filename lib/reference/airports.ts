// OurAirports airports.csv: parsed rows, an Olson zone per airport from its position, and
// the code indexes (ident, IATA, ICAO) behind one case-insensitive lookup.
import tzlookup from '@photostructure/tz-lookup';
import { readCsv, skip, numberCell, type FileCount } from './csv.ts';

export interface Airport {
  ident: string;
  iata: string | null;
  icao: string | null;
  name: string;
  /** OurAirports type: large_airport, medium_airport, small_airport, heliport, seaplane_base, balloonport, closed */
  kind: string;
  lat: number;
  lon: number;
  elevation_ft: number | null;
  iso_country: string;
  iso_region: string;
  municipality: string;
  scheduled_service: boolean;
  /** Olson zone computed from lat/lon (OurAirports has no tz column) */
  tz: string;
}

const AIRPORT_KINDS = ['large_airport', 'medium_airport', 'small_airport', 'heliport', 'seaplane_base', 'balloonport', 'closed'] as const;

/** bigger is more important; used only to break ties */
export function kindRank(kind: string): number {
  const i = AIRPORT_KINDS.indexOf(kind as (typeof AIRPORT_KINDS)[number]);
  return i < 0 ? 0 : AIRPORT_KINDS.length - i;
}

const IATA_RE = /^[A-Z]{3}$/;
const ICAO_RE = /^[A-Z]{4}$/;
// an ident made of 4 letters follows the ICAO pattern; OurAirports uses it as the ICAO code
// when icao_code is empty (mostly real ICAO codes that the icao_code column has not caught up with)
const ICAO_COLUMN_RE = /^[A-Z0-9]{4}$/;
// else gps_code when it has the ICAO shape (issue 43: Matthew Spain, ident BZ-SQS, gps_code MZCF),
// unless another airport holds that code by icao_code or ident: a gps_code never takes a code away

const REQUIRED = [
  'ident',
  'type',
  'name',
  'latitude_deg',
  'longitude_deg',
  'elevation_ft',
  'iso_country',
  'iso_region',
  'municipality',
  'scheduled_service',
  'icao_code',
  'iata_code',
] as const;

export function parseAirports(input: string | Buffer, file = 'ourairports/airports.csv.gz'): { airports: Airport[]; count: FileCount } {
  const gps = new Map<Airport, string>();
  const { rows, count } = readCsv(file, input, REQUIRED, (get) => {
    const ident = get('ident').toUpperCase();
    if (!ident) return skip('missing ident');
    const lat = numberCell(get('latitude_deg'));
    const lon = numberCell(get('longitude_deg'));
    if (lat == null || lon == null || lat < -90 || lat > 90 || lon < -180 || lon > 180) return skip('bad position');
    const elevation = numberCell(get('elevation_ft'));
    if (elevation === undefined) return skip('bad elevation');
    const iataCell = get('iata_code').toUpperCase();
    const icaoCell = get('icao_code').toUpperCase();
    const airport: Airport = {
      ident,
      iata: IATA_RE.test(iataCell) ? iataCell : null,
      icao: ICAO_COLUMN_RE.test(icaoCell) ? icaoCell : ICAO_RE.test(ident) ? ident : null,
      name: get('name'),
      kind: get('type') || 'small_airport',
      lat,
      lon,
      elevation_ft: elevation,
      iso_country: get('iso_country'),
      iso_region: get('iso_region'),
      municipality: get('municipality'),
      scheduled_service: get('scheduled_service') === 'yes',
      tz: tzlookup(lat, lon),
    };
    const gpsCell = get('gps_code').toUpperCase(); // optional column: '' when absent
    if (!airport.icao && ICAO_RE.test(gpsCell)) gps.set(airport, gpsCell);
    return airport;
  });
  const held = new Set(rows.map((a) => a.icao));
  for (const [a, code] of gps) if (!held.has(code)) a.icao = code;
  return { airports: rows, count };
}

/** lookups by code; every key upper-case */
export interface AirportIndex {
  readonly all: readonly Airport[];
  byIdent(ident: string): Airport | null;
  byIata(iata: string): Airport | null;
  byIcao(icao: string): Airport | null;
  /** an IATA (3 letters) or ICAO (4 characters) code, any case; null when unknown or malformed */
  lookup(code: string): Airport | null;
}

// when two airports claim the same code: an open airport beats a closed one, then the
// bigger kind, then the first row in the file
function better(a: Airport, b: Airport): boolean {
  const closedA = a.kind === 'closed';
  const closedB = b.kind === 'closed';
  if (closedA !== closedB) return !closedA;
  return kindRank(a.kind) > kindRank(b.kind);
}

export function indexAirports(airports: readonly Airport[]): AirportIndex {
  const ident = new Map<string, Airport>();
  const iata = new Map<string, Airport>();
  const icao = new Map<string, Airport>();
  const put = (map: Map<string, Airport>, key: string | null, a: Airport) => {
    if (!key) return;
    const had = map.get(key);
    if (!had || better(a, had)) map.set(key, a);
  };
  for (const a of airports) {
    put(ident, a.ident, a);
    put(iata, a.iata, a);
    put(icao, a.icao, a);
  }
  const norm = (s: string) => s.trim().toUpperCase();
  return {
    all: airports,
    byIdent: (s) => ident.get(norm(s)) ?? null,
    byIata: (s) => iata.get(norm(s)) ?? null,
    byIcao: (s) => icao.get(norm(s)) ?? null,
    lookup(code) {
      const c = norm(code);
      if (IATA_RE.test(c)) return iata.get(c) ?? null;
      if (ICAO_COLUMN_RE.test(c)) return icao.get(c) ?? null;
      return null;
    },
  };
}
