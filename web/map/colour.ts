// how an aircraft looks: its colour from its altitude (in bands, so a frame fills one path per
// band, not one per aircraft) and its glyph, an arrowhead pointing along its track.

/** 2,000 ft bands from 0 to 40,000 ft and above: 21 airborne bands */
const BAND_FT = 2000;
const AIRBORNE_BANDS = 21;
/** band indexes past the airborne ones */
export const BAND_GROUND = 21;
export const BAND_UNKNOWN = 22;
export const BANDS = 23;

export function bandOf(alt: number | 'ground' | null | undefined): number {
  if (alt === 'ground') return BAND_GROUND;
  if (typeof alt !== 'number' || !Number.isFinite(alt)) return BAND_UNKNOWN;
  return Math.min(AIRBORNE_BANDS - 1, Math.max(0, Math.floor(alt / BAND_FT)));
}

/** orange low, through green and blue, to magenta at 40,000 ft; grey on the ground; light grey unknown */
export function bandColour(band: number): string {
  if (band === BAND_GROUND) return '#7a7a7a';
  if (band === BAND_UNKNOWN) return '#b4b4b4';
  const hue = Math.round(20 + (band / (AIRBORNE_BANDS - 1)) * 280);
  return `hsl(${hue}, 85%, 42%)`;
}

export const altitudeColour = (alt: number | 'ground' | null | undefined) => bandColour(bandOf(alt));

/** the arrowhead's corners for a unit size, nose up (screen y grows downwards) */
const GLYPH: readonly [number, number][] = [
  [0, -1],
  [0.7, 0.8],
  [0, 0.4],
  [-0.7, 0.8],
];

/** Append the glyph at (x, y), `size` px from centre to nose, turned to `track` degrees true, to a path. */
export function addGlyph(
  path: { moveTo(x: number, y: number): void; lineTo(x: number, y: number): void; closePath(): void },
  x: number,
  y: number,
  size: number,
  track: number,
): void {
  const r = (track * Math.PI) / 180;
  const c = Math.cos(r) * size;
  const s = Math.sin(r) * size;
  for (let i = 0; i < GLYPH.length; i++) {
    const [gx, gy] = GLYPH[i]!;
    // rotate clockwise by the track: north-up 0°, east 90°
    const px = x + gx * c - gy * s;
    const py = y + gx * s + gy * c;
    if (i === 0) path.moveTo(px, py);
    else path.lineTo(px, py);
  }
  path.closePath();
}
