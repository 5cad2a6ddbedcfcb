// the aircraft silhouettes (docs/api.md "Aircraft shapes"): one outline per class, nose up in a unit
// box, turned to the track. the class comes from the type designator (/v1/map/types, prepared from
// the VRS table by server/map/types.ts), else from the ADS-B emitter category, else military
// address blocks (/v2/mil) make an unknown type a military jet; with nothing to go on, the arrowhead.
import { addGlyph } from './colour.ts';

export const SHAPE_IDS = [
  'airliner',
  'heavy',
  'regional',
  'business',
  'turboprop',
  'light',
  'helicopter',
  'glider',
  'balloon',
  'military',
  'ground',
  'unknown',
] as const;
export type ShapeId = (typeof SHAPE_IDS)[number];

type Pt = [number, number];

/** a right half from nose to tail (x >= 0), mirrored into a closed outline */
const mirror = (right: Pt[]): Pt[] => [
  ...right,
  ...right
    .slice(0, -1)
    .reverse()
    .filter(([x]) => x > 0)
    .map(([x, y]): Pt => [-x, y]),
];
const box = (x0: number, y0: number, x1: number, y1: number): Pt[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];
const circle = (cx: number, cy: number, r: number, n = 12): Pt[] =>
  Array.from({ length: n }, (_, i): Pt => [cx + r * Math.sin((2 * Math.PI * i) / n), cy - r * Math.cos((2 * Math.PI * i) / n)]);

const AIRLINER = mirror([
  [0, -1],
  [0.1, -0.82],
  [0.1, -0.22],
  [0.95, 0.18],
  [0.95, 0.28],
  [0.1, 0.08],
  [0.1, 0.62],
  [0.4, 0.86],
  [0.4, 0.95],
  [0.07, 0.88],
  [0, 0.97],
]);
const REGIONAL = mirror([
  [0, -1],
  [0.08, -0.86],
  [0.08, -0.08],
  [0.78, 0.22],
  [0.78, 0.3],
  [0.08, 0.16],
  [0.08, 0.48],
  [0.2, 0.46],
  [0.2, 0.62],
  [0.08, 0.64],
  [0.08, 0.76],
  [0.36, 0.9],
  [0.36, 0.98],
  [0, 0.96],
]);

interface Outline {
  /** closed sub-paths, unit size, nose at (0, -1) */
  parts: Pt[][];
  /** px from centre to nose at the map's base size */
  px: number;
  /** false: drawn upright whatever the track (a balloon's envelope has no nose) */
  turns: boolean;
}

export const OUTLINES: Record<Exclude<ShapeId, 'unknown'>, Outline> = {
  airliner: { parts: [AIRLINER], px: 9, turns: true },
  heavy: { parts: [AIRLINER], px: 11.5, turns: true },
  regional: { parts: [REGIONAL], px: 8.5, turns: true },
  business: { parts: [REGIONAL], px: 7, turns: true },
  turboprop: {
    parts: [
      mirror([
        [0, -1],
        [0.09, -0.86],
        [0.09, -0.36],
        [0.95, -0.27],
        [0.95, -0.1],
        [0.09, -0.06],
        [0.07, 0.64],
        [0.36, 0.74],
        [0.36, 0.86],
        [0, 0.9],
      ]),
    ],
    px: 8.5,
    turns: true,
  },
  light: {
    parts: [
      mirror([
        [0, -0.92],
        [0.09, -0.8],
        [0.09, -0.48],
        [0.92, -0.44],
        [0.92, -0.22],
        [0.09, -0.22],
        [0.05, 0.56],
        [0.32, 0.6],
        [0.32, 0.76],
        [0, 0.8],
      ]),
    ],
    px: 6.5,
    turns: true,
  },
  glider: {
    parts: [
      mirror([
        [0, -0.8],
        [0.05, -0.7],
        [0.05, -0.2],
        [1, -0.14],
        [1, -0.06],
        [0.05, -0.07],
        [0.03, 0.6],
        [0.25, 0.66],
        [0.25, 0.74],
        [0, 0.76],
      ]),
    ],
    px: 8,
    turns: true,
  },
  military: {
    parts: [
      mirror([
        [0, -1],
        [0.1, -0.62],
        [0.12, -0.12],
        [0.78, 0.52],
        [0.78, 0.68],
        [0.12, 0.6],
        [0.32, 0.88],
        [0.32, 0.98],
        [0, 0.9],
      ]),
    ],
    px: 8.5,
    turns: true,
  },
  // a body, its tail boom, and the rotor as two crossed blades
  helicopter: {
    parts: [
      mirror([
        [0, -0.62],
        [0.22, -0.48],
        [0.26, -0.12],
        [0.15, 0.2],
        [0.05, 0.26],
        [0.05, 0.84],
        [0.24, 0.88],
        [0.24, 0.96],
        [0, 0.96],
      ]),
      box(-0.95, -0.32, 0.95, -0.2),
      box(-0.06, -1.1, 0.06, 0.55),
    ],
    px: 8,
    turns: true,
  },
  balloon: { parts: [circle(0, -0.25, 0.72), box(-0.16, 0.62, 0.16, 0.92)], px: 7.5, turns: false },
  ground: { parts: [box(-0.5, -0.8, 0.5, 0.8)], px: 5, turns: true },
};

/** the arrowhead's size for an aircraft without a class (colour.ts addGlyph) */
const UNKNOWN_PX = 7;

/** px from centre to nose: the hit radius and where a label starts */
export const shapePx = (s: ShapeId) => (s === 'unknown' ? UNKNOWN_PX : OUTLINES[s].px);

interface PathLike {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
}

/** Append the silhouette at (x, y), turned to `track` degrees true (clockwise, north up), scaled by `scale`. */
export function addShape(path: PathLike, shape: ShapeId, x: number, y: number, track: number, scale = 1): void {
  if (shape === 'unknown') return addGlyph(path, x, y, UNKNOWN_PX * scale, track);
  const o = OUTLINES[shape];
  const size = o.px * scale;
  const r = o.turns ? (track * Math.PI) / 180 : 0;
  const c = Math.cos(r) * size;
  const s = Math.sin(r) * size;
  for (const part of o.parts) {
    for (let i = 0; i < part.length; i++) {
      const [gx, gy] = part[i]!;
      const px = x + gx * c - gy * s;
      const py = y + gx * s + gy * c;
      if (i === 0) path.moveTo(px, py);
      else path.lineTo(px, py);
    }
    path.closePath();
  }
}

/** ADS-B emitter category -> class (DO-260B 2.2.3.2.5.2) */
const BY_CATEGORY: Record<string, ShapeId> = {
  A1: 'light',
  A2: 'turboprop',
  A3: 'airliner',
  A4: 'airliner',
  A5: 'heavy',
  A6: 'military',
  A7: 'helicopter',
  B1: 'glider',
  B2: 'balloon',
  B3: 'light',
  B4: 'light',
  B6: 'light',
  B7: 'military',
  C1: 'ground',
  C2: 'ground',
  C3: 'ground',
};

/** The class an aircraft is drawn as: its type's, else its category's, else a military jet for a military address. */
export function shapeOf(
  t: string | undefined,
  category: string | undefined,
  military: boolean,
  typeShape: (designator: string) => ShapeId | null | undefined,
): ShapeId {
  if (category === 'C1' || category === 'C2') return 'ground';
  const byType = t ? typeShape(t) : null;
  if (byType) return byType;
  const byCategory = category ? BY_CATEGORY[category] : undefined;
  if (byCategory) return byCategory;
  return military ? 'military' : 'unknown';
}
