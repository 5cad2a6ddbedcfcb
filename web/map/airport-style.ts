// how an airport is drawn at a zoom (docs/api.md "Airports on the map"), by its OurAirports kind:
// large airports from zoom 5, their IATA code from 7 and their name from 9; medium ones from 7,
// code from 9, name from 11; small fields, heliports and seaplane bases from 10, code from 11, name
// from 13, so Sydney's seaplane bases appear only once the harbour is big enough to hold them.

type AirportMark = 'large' | 'medium' | 'small' | 'heliport' | 'seaplane';

export interface AirportStyle {
  mark: AirportMark;
  /** px radius of its mark */
  r: number;
  label: 'none' | 'code' | 'name';
}

const MARK: Record<string, AirportMark> = { large_airport: 'large', medium_airport: 'medium', heliport: 'heliport', seaplane_base: 'seaplane' };
/** first zoom the mark shows, then its code, then its name */
const ZOOMS: Record<AirportMark, [number, number, number]> = {
  large: [5, 7, 9],
  medium: [7, 9, 11],
  small: [10, 11, 13],
  heliport: [10, 12, 13],
  seaplane: [10, 11, 13],
};
const RADIUS: Record<AirportMark, number> = { large: 4.5, medium: 3.5, small: 2.5, heliport: 3, seaplane: 3 };

/** The style of an airport of `kind` at `zoom`, or null when it is not drawn. */
export function airportStyle(kind: string, zoom: number): AirportStyle | null {
  const mark = MARK[kind] ?? 'small';
  const [show, code, name] = ZOOMS[mark];
  if (zoom < show) return null;
  // larger marks once zoomed past where the name shows
  const r = RADIUS[mark] * (zoom >= name ? 1.3 : 1);
  return { mark, r, label: zoom >= name ? 'name' : zoom >= code ? 'code' : 'none' };
}
