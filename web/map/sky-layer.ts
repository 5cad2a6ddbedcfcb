// one canvas over the map for everything that can number in the thousands: airports, live aircraft
// and estimates. a frame projects each point once, skips those outside the view, and fills one path
// per altitude band (23 fills for 15,000 aircraft, not 15,000). while Leaflet pans, the canvas moves
// with the map pane; it is redrawn when a move or zoom ends and when new data arrives.
import L from 'leaflet';
import { addGlyph, bandColour, bandOf, BANDS } from './colour.ts';
import { LabelGrid } from './labels.ts';
import type { Aircraft, Estimate, MapAirport } from './types.ts';

export type HitKind = 'aircraft' | 'estimate' | 'airport';

export interface Hit {
  kind: HitKind;
  /** hex for aircraft and estimates, IATA code for airports */
  id: string;
}

/** what the last frame drew, for clicks and for the tests' hook */
interface Drawn {
  kind: HitKind[];
  id: string[];
  x: number[];
  y: number[];
}

const GLYPH_PX = 7;
/** callsigns from this zoom on (or when few aircraft are in view) */
const LABEL_ZOOM = 8;
const LABEL_MAX = 300;
const AIRPORT_ZOOM = 6;
const AIRPORT_LABEL_ZOOM = 8;
const HIT_PX = 12;
const OUTLINE_ZOOM = 7;
const ESTIMATE_COLOUR = '#4a4a9a';

const R2D = 180 / Math.PI;
const MAX_LAT = 85.0511287798;

/** Web Mercator x, y in [0, 1] (the same projection as Leaflet's EPSG:3857) */
function mercX(lon: number): number {
  return (lon + 180) / 360;
}
function mercY(lat: number): number {
  const l = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) / R2D;
  return 0.5 - Math.log(Math.tan(Math.PI / 4 + l / 2)) / (2 * Math.PI);
}

export class SkyLayer extends L.Layer {
  private canvas!: HTMLCanvasElement;
  private ctx!: CanvasRenderingContext2D;
  private frame = 0;
  private aircraft: Aircraft[] = [];
  private estimates: Estimate[] = [];
  private airports: MapAirport[] = [];
  private stale = false;
  private selected: string | null = null;
  private drawn: Drawn = { kind: [], id: [], x: [], y: [] };

  /** Web Mercator x, y of each aircraft, worked out once per update rather than once per frame */
  private mx = new Float64Array(0);
  private my = new Float64Array(0);

  setAircraft(a: Aircraft[]): void {
    this.aircraft = a;
    this.mx = new Float64Array(a.length);
    this.my = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const r = a[i]!;
      this.mx[i] = r.lon === undefined ? Number.NaN : mercX(r.lon);
      this.my[i] = r.lat === undefined ? Number.NaN : mercY(r.lat);
    }
    this.schedule();
  }

  setEstimates(e: Estimate[]): void {
    this.estimates = e;
    this.schedule();
  }

  setAirports(a: MapAirport[]): void {
    this.airports = a;
    this.schedule();
  }

  setStale(stale: boolean): void {
    if (this.stale === stale) return;
    this.stale = stale;
    this.schedule();
  }

  select(id: string | null): void {
    this.selected = id;
    this.schedule();
  }

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create('canvas', 'sky-layer') as HTMLCanvasElement;
    this.ctx = this.canvas.getContext('2d')!;
    map.getPanes().overlayPane.appendChild(this.canvas);
    map.on('moveend zoomend resize viewreset', this.redraw, this);
    map.on('zoomstart', this.hide, this);
    this.redraw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize viewreset', this.redraw, this);
    map.off('zoomstart', this.hide, this);
    this.canvas.remove();
    return this;
  }

  /** the drawn item nearest a container point, within a few pixels */
  hitTest(x: number, y: number): Hit | null {
    const d = this.drawn;
    let best = -1;
    let bestD = HIT_PX * HIT_PX;
    // aircraft and estimates before airports: they are drawn above them
    for (let i = 0; i < d.x.length; i++) {
      const dd = (d.x[i]! - x) ** 2 + (d.y[i]! - y) ** 2;
      const better = dd < bestD || (best >= 0 && dd <= bestD && d.kind[best] === 'airport' && d.kind[i] !== 'airport');
      if (better) {
        best = i;
        bestD = dd;
      }
    }
    return best < 0 ? null : { kind: d.kind[best]!, id: d.id[best]! };
  }

  /** container point of a drawn item (the tests click there) */
  pointOf(kind: HitKind, id: string): { x: number; y: number } | null {
    const d = this.drawn;
    for (let i = 0; i < d.id.length; i++) if (d.kind[i] === kind && d.id[i] === id) return { x: d.x[i]!, y: d.y[i]! };
    return null;
  }

  drawnIds(kind: HitKind): string[] {
    return this.drawn.id.filter((_, i) => this.drawn.kind[i] === kind);
  }

  private hide(): void {
    this.canvas.style.visibility = 'hidden';
  }

  private schedule(): void {
    if (!this._map || this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redraw();
    });
  }

  /** draw everything for the current view now */
  redraw(): void {
    const map = this._map;
    if (!map) return;
    const size = map.getSize();
    const dpr = window.devicePixelRatio || 1;
    const c = this.canvas;
    if (c.width !== size.x * dpr || c.height !== size.y * dpr) {
      c.width = size.x * dpr;
      c.height = size.y * dpr;
      c.style.width = `${size.x}px`;
      c.style.height = `${size.y}px`;
    }
    const corner = map.containerPointToLayerPoint([0, 0]);
    L.DomUtil.setPosition(c, corner);
    c.style.visibility = '';
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size.x, size.y);

    // container point = world pixel - the world pixel of the container's top-left corner
    const zoom = map.getZoom();
    const scale = 256 * 2 ** zoom;
    const centreLon = map.getCenter().lng;
    // Leaflet's own arithmetic: layer point = world pixel - pixel origin; the canvas sits at `corner`
    const origin = map.getPixelOrigin();
    const ox = origin.x + corner.x;
    const oy = origin.y + corner.y;
    const project = (lat: number, lon: number): [number, number] => {
      // the copy of the world nearest the view's centre (Leaflet does not wrap longitudes)
      const l = lon + 360 * Math.round((centreLon - lon) / 360);
      return [mercX(l) * scale - ox, mercY(lat) * scale - oy];
    };
    const inView = (x: number, y: number) => x >= -GLYPH_PX && y >= -GLYPH_PX && x <= size.x + GLYPH_PX && y <= size.y + GLYPH_PX;
    const drawn: Drawn = { kind: [], id: [], x: [], y: [] };
    // drawn a little past the edges (a glyph may straddle one), but listed only when inside the view
    const note = (kind: HitKind, id: string, x: number, y: number) => {
      if (x < 0 || y < 0 || x > size.x || y > size.y) return;
      drawn.kind.push(kind);
      drawn.id.push(id);
      drawn.x.push(x);
      drawn.y.push(y);
    };

    // the aircraft's own projection: x in world pixels, shifted by whole worlds towards the view's centre
    const cx = mercX(centreLon);
    const projectAt = (i: number): [number, number] => {
      const x = this.mx[i]!;
      return [(x + Math.round(cx - x)) * scale - ox, this.my[i]! * scale - oy];
    };
    if (zoom >= AIRPORT_ZOOM) this.drawAirports(ctx, project, inView, note, zoom >= AIRPORT_LABEL_ZOOM);
    ctx.globalAlpha = this.stale ? 0.35 : 1;
    this.drawAircraft(ctx, projectAt, inView, note, zoom);
    this.drawEstimates(ctx, project, inView, note, zoom);
    ctx.globalAlpha = 1;
    this.drawn = drawn;
  }

  private drawAirports(ctx: CanvasRenderingContext2D, project: Project, inView: InView, note: Note, labels: boolean): void {
    ctx.fillStyle = '#333';
    ctx.font = '10px system-ui, sans-serif';
    for (const [iata, , lat, lon] of this.airports) {
      const [x, y] = project(lat, lon);
      if (!inView(x, y)) continue;
      ctx.fillRect(x - 2.5, y - 2.5, 5, 5);
      if (labels) ctx.fillText(iata, x + 5, y + 10);
      note('airport', iata, x, y);
    }
  }

  private drawAircraft(ctx: CanvasRenderingContext2D, projectAt: (i: number) => [number, number], inView: InView, note: Note, zoom: number): void {
    const paths = Array.from({ length: BANDS }, () => new Path2D());
    const dots = Array.from({ length: BANDS }, () => new Path2D());
    const visible: [Aircraft, number, number][] = [];
    for (let i = 0; i < this.aircraft.length; i++) {
      const a = this.aircraft[i]!;
      if (a.lat === undefined || a.lon === undefined) continue;
      const [x, y] = projectAt(i);
      if (!inView(x, y)) continue;
      const band = bandOf(a.alt_baro);
      if (a.track === undefined) {
        // no track: a dot, since any heading drawn would be made up
        dots[band]!.moveTo(x + 3.5, y);
        dots[band]!.arc(x, y, 3.5, 0, 2 * Math.PI);
      } else addGlyph(paths[band]!, x, y, GLYPH_PX, a.track);
      visible.push([a, x, y]);
      note('aircraft', a.hex, x, y);
    }
    ctx.lineWidth = 0.6;
    ctx.strokeStyle = 'rgba(0,0,0,0.55)';
    // the dark outline helps a glyph stand out once zoomed in; across a continent it only costs time
    const outline = zoom >= OUTLINE_ZOOM;
    for (let b = 0; b < BANDS; b++) {
      ctx.fillStyle = bandColour(b);
      ctx.fill(paths[b]!);
      if (outline) ctx.stroke(paths[b]!);
      ctx.fill(dots[b]!);
    }
    if (zoom >= LABEL_ZOOM || visible.length <= LABEL_MAX) {
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = '#111';
      const grid = new LabelGrid();
      for (const [a, x, y] of visible) {
        const text = a.flight ?? a.r ?? a.hex;
        // about 6.5 px per character at 11 px: measuring each label would cost more than it saves
        if (grid.place(x + 9, y - 7, text.length * 6.5)) ctx.fillText(text, x + 9, y + 4);
      }
    }
    const sel = visible.find(([a]) => a.hex === this.selected);
    if (sel) {
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(sel[1], sel[2], 12, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }

  /** estimates: hollow, dashed, labelled "estimate", with a dashed line back to the last real position */
  private drawEstimates(ctx: CanvasRenderingContext2D, project: Project, inView: InView, note: Note, zoom: number): void {
    ctx.save();
    ctx.strokeStyle = ESTIMATE_COLOUR;
    ctx.fillStyle = ESTIMATE_COLOUR;
    ctx.lineWidth = 1.4;
    ctx.font = 'italic 11px system-ui, sans-serif';
    for (const e of this.estimates) {
      const [x, y] = project(e.lat, e.lon);
      const [lx, ly] = project(e.last_seen.lat, e.last_seen.lon);
      if (!inView(x, y) && !inView(lx, ly)) continue;
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
      const p = new Path2D();
      addGlyph(p, x, y, GLYPH_PX + 1, e.track);
      ctx.stroke(p);
      ctx.fillText(zoom >= LABEL_ZOOM ? `${e.flight ?? e.hex} estimate` : 'estimate', x + 10, y + 4);
      if (inView(x, y)) note('estimate', e.hex, x, y);
    }
    ctx.restore();
  }
}

type Project = (lat: number, lon: number) => [number, number];
type InView = (x: number, y: number) => boolean;
type Note = (kind: HitKind, id: string, x: number, y: number) => void;
