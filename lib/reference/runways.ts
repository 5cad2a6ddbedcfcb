// OurAirports runways.csv: runway ends with positions (many rows have none: kept, unlocated)
import { readCsv, skip, numberCell, type FileCount } from './csv.ts';

export interface Runway {
  airport_ident: string;
  /** low-numbered end; null when OurAirports has no position for it */
  le: { lat: number; lon: number } | null;
  /** high-numbered end */
  he: { lat: number; lon: number } | null;
  closed: boolean;
}

const REQUIRED = ['airport_ident', 'closed', 'le_latitude_deg', 'le_longitude_deg', 'he_latitude_deg', 'he_longitude_deg'] as const;

type End = { lat: number; lon: number } | null | undefined;

function end(latCell: string, lonCell: string): End {
  const lat = numberCell(latCell);
  const lon = numberCell(lonCell);
  if (lat === undefined || lon === undefined) return undefined;
  if (lat === null || lon === null) return null;
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return undefined;
  return { lat, lon };
}

export function parseRunways(input: string | Buffer, file = 'ourairports/runways.csv.gz'): { runways: Runway[]; count: FileCount } {
  const { rows, count } = readCsv(file, input, REQUIRED, (get) => {
    const ident = get('airport_ident').toUpperCase();
    if (!ident) return skip('missing airport_ident');
    const le = end(get('le_latitude_deg'), get('le_longitude_deg'));
    const he = end(get('he_latitude_deg'), get('he_longitude_deg'));
    if (le === undefined || he === undefined) return skip('bad position');
    const runway: Runway = { airport_ident: ident, le, he, closed: get('closed') === '1' };
    return runway;
  });
  return { runways: rows, count };
}
