// airlines by ICAO designator: the VRS airline table (ICAO <-> IATA, name, positioning and
// charter flight-number patterns), then FlightGazer operators (company, country, telephony) for
// the designators VRS does not list. one operator per designator, never a mix: for 930 of the
// 4,530 designators both list, the two name different operators (BRK: VRS's Briansk State Air
// Enterprise, FlightGazer's NATO Heavy Airlift Wing in Hungary), so a FlightGazer country beside
// that VRS name would describe another airline (issue 43). VRS rows carry no country: FlightGazer's
// country and telephony join a VRS row only where FlightGazer names the same operator
// (sameOperator; docs/api.md, one identity per airline).
import { readCsv, skip, type FileCount } from './csv.ts';
import { splitCallsign } from './callsign.ts';

interface Airline {
  icao: string;
  iata: string | null;
  name: string;
  /** ISO 3166-1 alpha-2 of the row's country (FlightGazer rows only), null when unknown or not a known name */
  country: string | null;
  /** radio telephony designator, e.g. SPEEDBIRD */
  telephony: string | null;
  /** regular expressions over the flight number (anchored), null when none */
  positioning: RegExp | null;
  charter: RegExp | null;
  /** the file the row came from; vrs+flightgazer when both name the same operator */
  source: 'vrs' | 'flightgazer' | 'vrs+flightgazer';
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
// words that say what kind of company, not which: dropped before two names are compared
const CORPORATE = /\b(airlines?|airways|air|lines|aviation|aero|ltd|limited|inc|sa|s a|co|company|corp|corporation|the|de|gmbh|ag|plc|llc|jsc|express)\b/g;

/** a name folded for comparison: no case, accents, punctuation or corporate words */
function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .replace(CORPORATE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * whether a VRS name and a FlightGazer row name the same operator: the folded names are equal or one
 * holds the other (British Airways / BRITISH AIRWAYS PLC). 3,600 of the 4,530 designators both
 * files list agree so; BRK (Briansk State Air Enterprise / NATO Heavy Airlift Wing) does not.
 */
export function sameOperator(vrsName: string, op: Pick<Operator, 'company' | 'friendly'>): boolean {
  const v = foldName(vrsName);
  if (!v) return false;
  return [op.company, op.friendly ?? ''].some((n) => {
    const f = foldName(n);
    return f !== '' && (f === v || f.includes(v) || v.includes(f));
  });
}
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

/**
 * The airline table: each designator's VRS row, else its FlightGazer row, whole. `countryCode`
 * turns FlightGazer's country names into alpha-2 codes (lib/reference/countries.ts); without it
 * no country is known.
 */
export function mergeAirlines(
  vrs: readonly VrsAirline[],
  operators: readonly Operator[],
  countryCode: (name: string) => string | null = () => null,
): AirlineTable {
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
      source: 'vrs',
    });
  }
  const joined = new Set<string>();
  for (const o of operators) {
    // a designator VRS lists keeps VRS's row, with FlightGazer's country and telephony only when
    // FlightGazer's first row names the same operator; the first FlightGazer row of one VRS does not list
    const v = byIcao.get(o.icao);
    if (v) {
      if (v.source === 'vrs' && !joined.has(o.icao) && sameOperator(v.name, o)) {
        v.country = o.country ? countryCode(o.country) : null;
        v.telephony = o.telephony;
        v.source = 'vrs+flightgazer';
      }
      joined.add(o.icao);
      continue;
    }
    joined.add(o.icao);
    byIcao.set(o.icao, {
      icao: o.icao,
      iata: null,
      name: o.friendly ?? o.company,
      country: o.country ? countryCode(o.country) : null,
      telephony: o.telephony,
      positioning: null,
      charter: null,
      source: 'flightgazer',
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
