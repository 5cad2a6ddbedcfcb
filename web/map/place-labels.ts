// which place names the offline basemap shows at a zoom, and where (docs/api.md "The map's offline
// basemap"): countries from zoom 2 to 7, the biggest first; cities from zoom 4, by rank (2 per large
// airport, 1 per medium one), more as the zoom grows. placed once per zoom for the whole world in
// world pixels, first come first placed, none overlapping; each tile then draws the ones it touches,
// so a name that straddles two tiles is drawn whole, half by each.
import { mercX, mercY } from './topo.ts';

/** [name, lat, lon, kind, rank] (/map/places.json) */
export type Place = [string, number, number, 'country' | 'city', number];

export interface PlacedLabel {
  text: string;
  kind: 'country' | 'city';
  /** the text's anchor in world pixels at the zoom: its centre for a country, its left end for a city */
  x: number;
  y: number;
  /** its box in world pixels, [x0, y0, x1, y1] */
  box: [number, number, number, number];
}

export const COUNTRY_FONT = '600 11px system-ui, sans-serif';
export const CITY_FONT = '12px system-ui, sans-serif';
const COUNTRY_MAX_ZOOM = 7;

/** the smallest country rank shown at a zoom (ranks run 10..100 by log area) */
const countryRankAt = (z: number) => (z <= 2 ? 80 : z === 3 ? 70 : z === 4 ? 60 : 0);
/** the smallest city rank shown at a zoom; none below zoom 4 */
const cityRankAt = (z: number) => (z < 4 ? Infinity : z === 4 ? 6 : z === 5 ? 4 : z === 6 ? 3 : z === 7 ? 2 : 0);

/** The labels of a zoom: `measure` gives a text's width in px in a font. */
export function placeLabels(places: readonly Place[], zoom: number, measure: (text: string, font: string) => number): PlacedLabel[] {
  const z = Math.round(zoom);
  const scale = 256 * 2 ** z;
  const taken: [number, number, number, number][] = [];
  // a coarse grid of the boxes already placed, 64 px cells
  const grid = new Map<number, number[]>();
  const cell = 64;
  const cellsOf = (b: [number, number, number, number], f: (key: number) => boolean | void): boolean => {
    for (let cy = Math.floor(b[1] / cell); cy <= Math.floor(b[3] / cell); cy++)
      for (let cx = Math.floor(b[0] / cell); cx <= Math.floor(b[2] / cell); cx++) if (f(cy * 1e7 + cx) === true) return true;
    return false;
  };
  const overlaps = (b: [number, number, number, number]) =>
    cellsOf(b, (k) =>
      (grid.get(k) ?? []).some((i) => {
        const o = taken[i]!;
        return b[0] < o[2] && b[2] > o[0] && b[1] < o[3] && b[3] > o[1];
      }),
    );
  const out: PlacedLabel[] = [];
  const candidates = places.filter(([, , , kind, rank]) => (kind === 'country' ? z <= COUNTRY_MAX_ZOOM && rank >= countryRankAt(z) : rank >= cityRankAt(z)));
  // countries first at their zooms (the frame of the map), then cities by rank
  candidates.sort((a, b) => (a[3] === b[3] ? b[4] - a[4] : a[3] === 'country' ? -1 : 1));
  for (const [name, lat, lon, kind] of candidates) {
    const text = kind === 'country' ? name.toUpperCase() : name;
    const w = measure(text, kind === 'country' ? COUNTRY_FONT : CITY_FONT) + (kind === 'country' ? text.length * 0.8 : 0);
    const x = mercX(lon) * scale;
    const y = mercY(lat) * scale;
    // a country's name centred on its point; a city's to the right of its dot
    const box: [number, number, number, number] = kind === 'country' ? [x - w / 2 - 2, y - 8, x + w / 2 + 2, y + 6] : [x - 4, y - 9, x + 6 + w + 2, y + 6];
    if (overlaps(box)) continue;
    const i = taken.push(box) - 1;
    cellsOf(box, (k) => {
      let l = grid.get(k);
      if (!l) grid.set(k, (l = []));
      l.push(i);
    });
    out.push({ text, kind, x, y, box });
  }
  return out;
}
