// airlines by ICAO designator: the VRS airline table (ICAO <-> IATA, name, positioning and
// charter flight-number patterns) merged with FlightGazer operators (company, country, telephony).
// VRS wins for the name; FlightGazer fills what VRS lacks and adds operators VRS does not list.
import { readCsv, skip, type FileCount } from './csv.ts';
import { splitCallsign } from './callsign.ts';

interface Airline {
  icao: string;
  iata: string | null;
  name: string;
  /** country as FlightGazer spells it (upper-case English name), null when unknown */
  country: string | null;
  /** radio telephony designator, e.g. SPEEDBIRD */
  telephony: string | null;
  /** regular expressions over the flight number (anchored), null when none */
  positioning: RegExp | null;
  charter: RegExp | null;
  /** which files the row came from: 'vrs' and/or 'flightgazer' */
  sources: ('vrs' | 'flightgazer')[];
}

export interface VrsAirline {
  icao: string | null;
  iata: string | null;
  name: string;
  positioning: RegExp | null;
  charter: RegExp | null;
}

export interface Operator {
  icao: string;
  company: string;
  country: string | null;
  telephony: string | null;
  friendly: string | null;
}

const ICAO_RE = /^[A-Z]{3}$/;
const IATA_RE = /^[A-Z0-9]{2}$/;

// the patterns come from an outside file: a broken one is dropped, never thrown
function pattern(src: string): RegExp | null {
  if (!src) return null;
  try {
    return new RegExp(`^(?:${src})$`);
  } catch {
    return null;
  }
}

export function parseVrsAirlines(input: string | Buffer, file = 'vrs-standing-data/airlines.csv'): { rows: VrsAirline[]; count: FileCount } {
  return readCsv(file, input, ['Code', 'Name', 'ICAO', 'IATA'], (get) => {
    const icao = get('ICAO').toUpperCase();
    const iata = get('IATA').toUpperCase();
    if (icao && !ICAO_RE.test(icao)) return skip('bad ICAO code');
    if (iata && !IATA_RE.test(iata)) return skip('bad IATA code');
    if (!icao && !iata) return skip('missing code');
    const row: VrsAirline = {
      icao: icao || null,
      iata: iata || null,
      name: get('Name'),
      positioning: pattern(get('PositioningFlightPattern')),
      charter: pattern(get('CharterFlightPattern')),
    };
    return row;
  });
}

export function parseOperators(input: string | Buffer, file = 'flightgazer/operators.csv'): { rows: Operator[]; count: FileCount } {
  return readCsv(file, input, ['3Ltr', 'Company', 'Country', 'Telephony'], (get) => {
    const icao = get('3Ltr').toUpperCase();
    if (!ICAO_RE.test(icao)) return skip('bad 3Ltr code');
    const row: Operator = {
      icao,
      company: get('Company'),
      country: get('Country') || null,
      telephony: get('Telephony') || null,
      friendly: get('FriendlyName') || null,
    };
    return row;
  });
}

export interface AirlineTable {
  readonly all: readonly Airline[];
  byIcao(icao: string): Airline | null;
  /** the airline whose ICAO designator starts the callsign, or null */
  airlineOfCallsign(callsign: string): Airline | null;
  /** IATA flight number, e.g. DAL1234 -> DL1234; null when the prefix is no airline, the airline
   * has no IATA code, or the number is one of its positioning flights */
  flightNumberFromCallsign(callsign: string): string | null;
}

export function mergeAirlines(vrs: readonly VrsAirline[], operators: readonly Operator[]): AirlineTable {
  const byIcao = new Map<string, Airline>();
  for (const v of vrs) {
    if (!v.icao || byIcao.has(v.icao)) continue;
    byIcao.set(v.icao, {
      icao: v.icao,
      iata: v.iata,
      name: v.name,
      country: null,
      telephony: null,
      positioning: v.positioning,
      charter: v.charter,
      sources: ['vrs'],
    });
  }
  for (const o of operators) {
    const had = byIcao.get(o.icao);
    if (had) {
      if (had.sources.includes('flightgazer')) continue;
      had.country ??= o.country;
      had.telephony ??= o.telephony;
      if (!had.name) had.name = o.friendly ?? o.company;
      had.sources.push('flightgazer');
      continue;
    }
    byIcao.set(o.icao, {
      icao: o.icao,
      iata: null,
      name: o.friendly ?? o.company,
      country: o.country,
      telephony: o.telephony,
      positioning: null,
      charter: null,
      sources: ['flightgazer'],
    });
  }
  const all = [...byIcao.values()].sort((a, b) => (a.icao < b.icao ? -1 : 1));
  const airlineOfCallsign = (callsign: string) => {
    const p = splitCallsign(callsign);
    return p && p.code.length === 3 ? (byIcao.get(p.code) ?? null) : null;
  };
  return {
    all,
    byIcao: (icao) => byIcao.get(icao.trim().toUpperCase()) ?? null,
    airlineOfCallsign,
    flightNumberFromCallsign(callsign) {
      const p = splitCallsign(callsign);
      if (!p || p.code.length !== 3) return null;
      const airline = byIcao.get(p.code);
      if (!airline?.iata) return null;
      if (airline.positioning?.test(p.number)) return null;
      return airline.iata + p.number;
    },
  };
}
