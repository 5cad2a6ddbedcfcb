// a small hand-made RefView for the route, airframe and refdata artifact tests
import type { AirlineRef, AirportRef, RefView, RegistryRef, TypeRef } from '../../artifacts/reference-view.ts';

const ap = (ident: string, iata: string | null, lat: number, lon: number, tz: string, iso_country: string, kind = 'large_airport'): AirportRef => ({
  ident,
  iata,
  icao: /^[A-Z]{4}$/.test(ident) ? ident : null,
  name: `${ident} airport`,
  kind,
  lat,
  lon,
  elevation_ft: 100,
  iso_country,
  iso_region: `${iso_country}-X`,
  municipality: `${ident} town`,
  scheduled_service: iata !== null,
  tz,
});

export const AIRPORTS: AirportRef[] = [
  ap('LSZH', 'ZRH', 47.4647, 8.5492, 'Europe/Zurich', 'CH'),
  ap('LSGG', 'GVA', 46.2381, 6.1089, 'Europe/Zurich', 'CH'),
  ap('EGLL', 'LHR', 51.4706, -0.4619, 'Europe/London', 'GB'),
  ap('KJFK', 'JFK', 40.6398, -73.7789, 'America/New_York', 'US'),
  ap('RJTT', 'HND', 35.5523, 139.78, 'Asia/Tokyo', 'JP'),
  ap('EDDF', 'FRA', 50.0333, 8.5706, 'Europe/Berlin', 'DE'),
  ap('LSZT', null, 47.4158, 8.7936, 'Europe/Zurich', 'CH', 'small_airport'),
  ap('LSZX', 'XXZ', 47.0, 8.0, 'Europe/Zurich', 'CH', 'closed'),
];

const airline = (icao: string, iata: string | null, name: string, country: string): AirlineRef => ({ icao, iata, name, country, telephony: null });
export const AIRLINES: AirlineRef[] = [
  airline('SWR', 'LX', 'Swiss', 'CH'),
  airline('BAW', 'BA', 'British Airways', 'GB'),
  airline('DLH', 'LH', 'Lufthansa', 'DE'),
  airline('EZS', 'DS', 'easyJet Switzerland', 'CH'),
];

const type = (designator: string, name: string, category: string, engines: number, engine_type: string): TypeRef => ({
  designator,
  manufacturer: name.split(' ')[0]!,
  model: name.split(' ').slice(1).join(' '),
  name,
  category,
  engines,
  engine_type,
  engine_placement: null,
  species: 'L',
  wake: 'M',
  active: true,
});
export const TYPES: TypeRef[] = [
  type('A320', 'Airbus A320', 'narrow', 2, 'J'),
  type('B77W', 'Boeing 777-300ER', 'wide', 2, 'J'),
  type('DH8D', 'De Havilland Dash 8-400', 'turboprop', 2, 'T'),
  type('C172', 'Cessna 172', 'piston', 1, 'P'),
];

export const REGISTRY: RegistryRef[] = [
  {
    hex: '4b1814',
    reg: 'HB-JVL',
    type: 'A320',
    operator: 'Swiss International Air Lines',
    airline: 'SWR',
    serial: '1234',
    year: 2010,
    source: 'vrs-standing-data:aircraft.csv',
  },
  { hex: '4b0001', reg: 'HB-ABC', type: null, operator: null, airline: null, serial: null, year: null, source: 'vrs-standing-data:aircraft.csv' },
];

/** catalog rows keyed by callsign: ICAO codes in flight order */
export type CatalogFixture = Record<string, string[]>;

export function makeRef(catalog: CatalogFixture = {}): RefView {
  const byIdent = new Map(AIRPORTS.map((a) => [a.ident, a]));
  const byIata = new Map(AIRPORTS.filter((a) => a.iata).map((a) => [a.iata!, a]));
  const airlines = new Map(AIRLINES.map((a) => [a.icao, a]));
  const types = new Map(TYPES.map((t) => [t.designator, t]));
  const registry = new Map(REGISTRY.map((r) => [r.hex, r]));
  const key = (cs: string) => {
    const m = /^([A-Z]{3})0*(\d[A-Z0-9]*)$/.exec(cs);
    return m ? m[1]! + m[2]! : null;
  };
  return {
    airport: (ident) => byIdent.get(ident) ?? null,
    airportByCode: (code) => (code.length === 3 ? byIata.get(code) : byIdent.get(code)) ?? null,
    runways: (ident) =>
      ident === 'LSZH'
        ? [
            {
              le_ident: '16',
              he_ident: '34',
              length_ft: 12139,
              width_ft: 197,
              surface: 'CON',
              lighted: true,
              closed: false,
              le: { lat: 47.47, lon: 8.54 },
              he: { lat: 47.44, lon: 8.56 },
            },
          ]
        : [],
    airline: (icao) => airlines.get(icao) ?? null,
    flightNumber: (cs) => {
      const m = /^([A-Z]{3})(\d[A-Z0-9]*)$/.exec(cs);
      const a = m ? airlines.get(m[1]!) : undefined;
      return a?.iata ? a.iata + m![2]!.replace(/^0+(?=\d)/, '') : null;
    },
    type: (d) => types.get(d) ?? null,
    registry: (hex) => registry.get(hex) ?? null,
    // hand-made blocks: 4b0000-4b7fff Switzerland, 3c0000-3fffff Germany, everything else unallocated
    countryOfHex: (hex) => {
      const n = Number.parseInt(hex, 16);
      if (n >= 0x4b0000 && n <= 0x4b7fff) return 'CH';
      if (n >= 0x3c0000 && n <= 0x3fffff) return 'DE';
      return null;
    },
    // hand-made military blocks: the US one (adf7c8-afffff) and NATO's at 477ff1-477ff3, as code-blocks.csv has them
    isMilitaryHex: (hex) => {
      const n = Number.parseInt(hex, 16);
      return (n >= 0xadf7c8 && n <= 0xafffff) || (n >= 0x477ff1 && n <= 0x477ff3);
    },
    allAirports: () => AIRPORTS,
    allAirlines: () => AIRLINES,
    allTypes: () => TYPES,
    allRegistry: () => REGISTRY,
    catalogRows: () => Object.entries(catalog).map(([callsign, airports]) => ({ callsign, airports })),
    catalogRoute: (cs) => catalog[key(cs) ?? cs] ?? null,
    catalogKey: key,
  };
}
