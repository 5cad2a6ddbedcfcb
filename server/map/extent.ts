// where the network's aircraft are, for the map's first view (docs/api.md "The map's first view"):
// the box holding all but TRIM of them at each edge, so one aircraft misplaced on the far side of
// the globe does not zoom the map out to the world. longitudes are circular: the box starts after
// the widest gap between neighbouring aircraft, so a network around the Pacific gets a box that
// crosses the antimeridian (west > east), as /v1/aircraft's bbox does.

/** the share of aircraft left out at each edge of the box */
const TRIM = 0.02;

export interface Extent {
  /** [west, south, east, north] degrees; west > east crosses the antimeridian; null with no position */
  box: [number, number, number, number] | null;
  /** aircraft with a position */
  aircraft: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The trimmed box of the positions (lat[i], lon[i]); a NaN pair is an aircraft without a position. */
export function networkExtent(lat: ArrayLike<number>, lon: ArrayLike<number>): Extent {
  const lats: number[] = [];
  const lons: number[] = [];
  for (let i = 0; i < lat.length; i++) {
    if (Number.isNaN(lat[i]!) || Number.isNaN(lon[i]!)) continue;
    lats.push(lat[i]!);
    lons.push(lon[i]!);
  }
  const n = lats.length;
  if (!n) return { box: null, aircraft: 0 };
  lats.sort((a, b) => a - b);
  lons.sort((a, b) => a - b);
  const cut = Math.floor(n * TRIM);
  // the widest gap between neighbours on the circle (the last back round to the first included)
  let gapAt = n - 1;
  let gap = lons[0]! + 360 - lons[n - 1]!;
  for (let i = 0; i + 1 < n; i++) {
    const g = lons[i + 1]! - lons[i]!;
    if (g > gap) [gap, gapAt] = [g, i];
  }
  // longitudes in order, starting just after the gap
  const at = (k: number) => lons[(gapAt + 1 + k) % n]!;
  const west = at(cut);
  const east = at(n - 1 - cut);
  return { box: [round2(west), round2(lats[cut]!), round2(east), round2(lats[n - 1 - cut]!)], aircraft: n };
}
