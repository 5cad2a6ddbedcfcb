// the VRS aircraft registry (aircraft.csv): what the community submitted about one airframe.
// small (about 17k rows) and not an official register: each row says where it came from.
import { readCsv, skip, intCell, type FileCount } from './csv.ts';

export const REGISTRY_SOURCE = 'vrs-standing-data:aircraft.csv';

export interface RegistryEntry {
  /** lower-case 6-digit hex */
  hex: string;
  reg: string | null;
  /** ICAO type designator (or a VRS fake code starting with '-') */
  type: string | null;
  /** manufacturer and model as the row spells it */
  type_name: string | null;
  /** operator name; 'Private' for private owners */
  operator: string | null;
  private: boolean;
  /** airline code as the VRS airline table uses it (ICAO, or IATA when there is no ICAO) */
  airline_code: string | null;
  serial: string | null;
  year: number | null;
  source: string;
}

const HEX_RE = /^[0-9A-F]{6}$/;
const REQUIRED = ['ICAO', 'Registration', 'ModelICAO', 'Operator', 'AirlineCode', 'SerialNumber', 'YearBuilt'] as const;

export function parseRegistry(input: string | Buffer, file = 'vrs-standing-data/aircraft.csv.gz'): { rows: RegistryEntry[]; count: FileCount } {
  return readCsv(file, input, REQUIRED, (get) => {
    const hex = get('ICAO').toUpperCase();
    if (!HEX_RE.test(hex)) return skip('bad hex');
    const year = intCell(get('YearBuilt'));
    if (year === undefined || (year !== null && (year < 1900 || year > 2100))) return skip('bad year');
    const entry: RegistryEntry = {
      hex: hex.toLowerCase(),
      reg: get('Registration') || null,
      type: get('ModelICAO').toUpperCase() || null,
      type_name: get('ManufacturerAndModel') || null,
      operator: get('Operator') || null,
      private: get('IsPrivateOperator') === '1',
      airline_code: get('AirlineCode').toUpperCase() || null,
      serial: get('SerialNumber') || null,
      year,
      source: REGISTRY_SOURCE,
    };
    return entry;
  });
}

export interface Registry {
  readonly size: number;
  /** by hex, any case */
  get(hex: string): RegistryEntry | null;
  /** every airframe once (the latest row for its hex) */
  all(): IterableIterator<RegistryEntry>;
}

export function buildRegistry(rows: readonly RegistryEntry[]): Registry {
  const byHex = new Map<string, RegistryEntry>();
  // a later row for the same hex is a later submission: it wins
  for (const r of rows) byHex.set(r.hex, r);
  return { size: byHex.size, get: (hex) => byHex.get(hex.trim().toLowerCase()) ?? null, all: () => byHex.values() };
}
