// OurAirports runways.csv: runway ends with positions (many rows have none: kept, unlocated)
import { readCsv, skip, numberCell, type FileCount } from './csv.ts';

export interface Runway {
  airport_ident: string;
  /** end designators, e.g. 14 and 32, 09L and 27R */
  le_ident: string | null;
  he_ident: string | null;
  length_ft: number | null;
  width_ft: number | null;
  /** OurAirports' free-text surface code, e.g. ASP, CON, GRS */
  surface: string | null;
  lighted: boolean | null;
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

/** a length or width in feet; a blank, malformed or absurd one (OurAirports has a few) is unknown */
function dimension(cell: string): number | null {
  const v = numberCell(cell);
  return typeof v === 'number' && v > 0 && v < 100_000 ? Math.round(v) : null;
}

export function parseRunways(input: string | Buffer, file = 'ourairports/runways.csv.gz'): { runways: Runway[]; count: FileCount } {
  const { rows, count } = readCsv(file, input, REQUIRED, (get) => {
    const ident = get('airport_ident').toUpperCase();
    if (!ident) return skip('missing airport_ident');
    const le = end(get('le_latitude_deg'), get('le_longitude_deg'));
    const he = end(get('he_latitude_deg'), get('he_longitude_deg'));
    if (le === undefined || he === undefined) return skip('bad position');
    const runway: Runway = {
      airport_ident: ident,
      le_ident: get('le_ident') || null,
      he_ident: get('he_ident') || null,
      length_ft: dimension(get('length_ft')),
      width_ft: dimension(get('width_ft')),
      surface: get('surface') || null,
      lighted: get('lighted') === '1' ? true : get('lighted') === '0' ? false : null,
      le,
      he,
      closed: get('closed') === '1',
    };
    return runway;
  });
  return { runways: rows, count };
}
