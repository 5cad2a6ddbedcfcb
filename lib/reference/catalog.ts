// the community route catalog (VRS routes.csv): normalised callsign -> airport codes in flying
// order (ICAO codes mostly, IATA where the airport has no ICAO code; multi-stop allowed).
// The catalog is community-supplied: artifacts check it against observation before serving it.
import { readCsv, skip, type FileCount } from './csv.ts';
import { normaliseCallsign } from './callsign.ts';

export interface CatalogRow {
  callsign: string;
  /** airline code as the VRS airline table uses it */
  airline: string;
  /** at least two airport codes, in the order flown */
  airports: string[];
}

const CODE_RE = /^[A-Z0-9]{3,4}$/;

export function parseCatalog(input: string | Buffer, file = 'vrs-standing-data/routes.csv.gz'): { rows: CatalogRow[]; count: FileCount } {
  return readCsv(file, input, ['Callsign', 'AirlineCode', 'AirportCodes'], (get) => {
    const callsign = get('Callsign').toUpperCase();
    if (!/^[A-Z0-9]{3,8}$/.test(callsign)) return skip('bad callsign');
    const airports = get('AirportCodes').toUpperCase().split('-');
    if (airports.length < 2 || !airports.every((c) => CODE_RE.test(c))) return skip('bad airport codes');
    const row: CatalogRow = { callsign, airline: get('AirlineCode').toUpperCase(), airports };
    return row;
  });
}

export interface Catalog {
  readonly size: number;
  /** airport codes for a callsign (normalised as VRS does: EZY0012 -> EZY12), or null */
  route(callsign: string): string[] | null;
  rows(): IterableIterator<CatalogRow>;
}

export function buildCatalog(rows: readonly CatalogRow[]): Catalog {
  const byCallsign = new Map<string, CatalogRow>();
  for (const r of rows) byCallsign.set(r.callsign, r);
  return {
    size: byCallsign.size,
    route(callsign) {
      const raw = callsign.trim().toUpperCase();
      const hit = byCallsign.get(normaliseCallsign(raw) ?? raw) ?? byCallsign.get(raw);
      return hit ? [...hit.airports] : null;
    },
    rows: () => byCallsign.values(),
  };
}
