// one frame of the sky layer (sky-layer.ts): airports by kind (airport-style.ts), aircraft as
// silhouettes coloured by altitude band (one Path2D per band and silhouette: at most 23 x 12 fills
// for 15,000 aircraft), labels that do not overlap, the selected aircraft ringed, and estimates
// hollow, dashed and labelled "estimate" with a dashed line back to where they were last heard.
import { airportStyle } from './airport-style.ts';
import { bandColour, bandOf, BANDS } from './colour.ts';
import { LabelGrid } from './labels.ts';
import { addShape, SHAPE_IDS, shapePx } from './shapes.ts';
import type { Palette } from './theme.ts';
import type { Aircraft, Estimate, HitKind, MapAirport } from './types.ts';

/** the page's canvas or the sky worker's OffscreenCanvas (sky-worker.ts) */
export type Ctx2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export interface Frame {
  zoom: number;
  /** the theme's colours (a worker cannot read the page's theme) */
  palette: Palette;
  width: number;
  height: number;
  project: (lat: number, lon: number) => [number, number];
  /** aircraft i's container point (its Mercator position worked out once per update) */
  projectAt: (i: number) => [number, number];
  note: (kind: HitKind, id: string, x: number, y: number) => void;
}

/** callsigns from this zoom on (or when few aircraft are in view) */
const LABEL_ZOOM = 8;
const LABEL_MAX = 300;
const MARGIN = 12;
/** silhouettes a little larger once zoomed in, smaller across a continent */
const scaleAt = (zoom: number) => (zoom >= 9 ? 1.2 : zoom <= 4 ? 0.8 : 1);

const inView = (f: Frame, x: number, y: number) => x >= -MARGIN && y >= -MARGIN && x <= f.width + MARGIN && y <= f.height + MARGIN;

/** halo then text, so a label reads over land, sea and other aircraft */
function label(ctx: Ctx2D, text: string, x: number, y: number): void {
  ctx.strokeText(text, x, y);
  ctx.fillText(text, x, y);
}

export function drawAirports(ctx: Ctx2D, f: Frame, airports: readonly MapAirport[]): void {
  const p = f.palette;
  const grid = new LabelGrid();
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.font = '10px system-ui, sans-serif';
  ctx.strokeStyle = p.halo;
  const marks = new Path2D();
  const texts: [string, number, number][] = [];
  // large airports first, so their names win a crowded corner
  for (const pass of ['large_airport', 'medium_airport', null] as const) {
    for (const [iata, , lat, lon, kind, name] of airports) {
      const k = kind === 'large_airport' || kind === 'medium_airport' ? kind : null;
      if (k !== pass) continue;
      const s = airportStyle(kind, f.zoom);
      if (!s) continue;
      const [x, y] = f.project(lat, lon);
      if (!inView(f, x, y)) continue;
      if (s.mark === 'heliport' || s.mark === 'small') marks.rect(x - s.r, y - s.r, 2 * s.r, 2 * s.r);
      else if (s.mark === 'seaplane') {
        marks.moveTo(x, y - s.r - 1);
        marks.lineTo(x + s.r + 1, y);
        marks.lineTo(x, y + s.r + 1);
        marks.lineTo(x - s.r - 1, y);
        marks.closePath();
      } else {
        marks.moveTo(x + s.r, y);
        marks.arc(x, y, s.r, 0, 2 * Math.PI);
      }
      if (s.label !== 'none') {
        const text = s.label === 'name' && name ? `${iata} ${name}` : iata;
        if (grid.place(x + s.r + 3, y - 2, text.length * 5.6)) texts.push([text, x + s.r + 3, y + 11]);
      }
      f.note('airport', iata, x, y);
    }
  }
  ctx.fillStyle = p.airport;
  ctx.fill(marks);
  ctx.lineWidth = 1;
  ctx.strokeStyle = p.airportRing;
  ctx.stroke(marks);
  ctx.lineWidth = 3;
  ctx.strokeStyle = p.halo;
  ctx.fillStyle = p.airport;
  for (const [t, x, y] of texts) label(ctx, t, x, y);
  ctx.restore();
}

export function drawAircraft(ctx: Ctx2D, f: Frame, aircraft: readonly Aircraft[], shape: Uint8Array, keep: Uint8Array, selected: string | null): void {
  const p = f.palette;
  const nShapes = SHAPE_IDS.length;
  const paths: (Path2D | undefined)[] = new Array(BANDS * nShapes);
  const dots = Array.from({ length: BANDS }, () => new Path2D());
  const visible: [Aircraft, number, number, number][] = [];
  const scale = scaleAt(f.zoom);
  for (let i = 0; i < aircraft.length; i++) {
    const a = aircraft[i]!;
    if (a.lat === undefined || a.lon === undefined || !keep[i]) continue;
    const [x, y] = f.projectAt(i);
    if (!inView(f, x, y)) continue;
    const band = bandOf(a.alt_baro);
    const s = shape[i]!;
    const id = SHAPE_IDS[s]!;
    if (a.track === undefined && id !== 'balloon') {
      // no track: a dot, since any heading drawn would be made up
      dots[band]!.moveTo(x + 3.5, y);
      dots[band]!.arc(x, y, 3.5, 0, 2 * Math.PI);
    } else addShape((paths[band * nShapes + s] ??= new Path2D()), id, x, y, a.track ?? 0, scale);
    visible.push([a, x, y, shapePx(id) * scale]);
    f.note('aircraft', a.hex, x, y);
  }
  ctx.lineWidth = 0.6;
  ctx.strokeStyle = 'rgba(0,0,0,0.55)';
  // the dark outline helps a silhouette stand out once zoomed in; across a continent it only costs time
  const outline = f.zoom >= 6;
  for (let b = 0; b < BANDS; b++) {
    ctx.fillStyle = bandColour(b);
    for (let s = 0; s < nShapes; s++) {
      const path = paths[b * nShapes + s];
      if (!path) continue;
      ctx.fill(path);
      if (outline) ctx.stroke(path);
    }
    ctx.fill(dots[b]!);
  }
  if (f.zoom >= LABEL_ZOOM || visible.length <= LABEL_MAX) {
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = p.label;
    ctx.strokeStyle = p.halo;
    ctx.lineWidth = 3;
    ctx.lineJoin = 'round';
    const grid = new LabelGrid();
    for (const [a, x, y, r] of visible) {
      const text = a.flight ?? a.r ?? a.hex;
      // about 6.5 px per character at 11 px: measuring each label would cost more than it saves
      if (grid.place(x + r + 2, y - 7, text.length * 6.5)) label(ctx, text, x + r + 2, y + 4);
    }
  }
  const sel = visible.find(([a]) => a.hex === selected);
  if (sel) {
    ctx.strokeStyle = p.selected;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(sel[1], sel[2], sel[3] + 5, 0, 2 * Math.PI);
    ctx.stroke();
  }
}

/** estimates: hollow, dashed, labelled "estimate", with a dashed line back to the last real position */
export function drawEstimates(ctx: Ctx2D, f: Frame, estimates: readonly Estimate[], pass: (e: Estimate) => boolean = () => true): void {
  const p = f.palette;
  ctx.save();
  ctx.strokeStyle = p.estimate;
  ctx.fillStyle = p.estimate;
  ctx.lineWidth = 1.4;
  ctx.font = 'italic 11px system-ui, sans-serif';
  for (const e of estimates) {
    if (!pass(e)) continue;
    const [x, y] = f.project(e.lat, e.lon);
    const [lx, ly] = f.project(e.last_seen.lat, e.last_seen.lon);
    if (!inView(f, x, y) && !inView(f, lx, ly)) continue;
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(lx, ly);
    ctx.lineTo(x, y);
    ctx.stroke();
    // the last real position: a small solid ring
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(lx, ly, 2.5, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([2, 2]);
    const path = new Path2D();
    addShape(path, 'unknown', x, y, e.track, 8 / 7);
    ctx.stroke(path);
    ctx.fillText(f.zoom >= LABEL_ZOOM ? `${e.flight ?? e.hex} estimate` : 'estimate', x + 10, y + 4);
    if (inView(f, x, y)) f.note('estimate', e.hex, x, y);
  }
  ctx.restore();
}
