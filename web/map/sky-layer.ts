// one canvas over the map for everything that can number in the thousands: airports, live aircraft
// and estimates. a frame projects each point once, skips those outside the view or filtered out,
// and fills one path per altitude band and silhouette (sky-draw.ts), not one per aircraft. while
// Leaflet pans, the canvas moves with the map pane; it is redrawn when a move or zoom ends and when
// new data arrives. what a frame drew inside the view is kept: it is what the status line counts,
// what the list shows, and what a click hits.
import L from 'leaflet';
import { mercX, mercY } from './topo.ts';
import { SHAPE_IDS, type ShapeId } from './shapes.ts';
import { drawAircraft, drawAirports, drawEstimates, type Frame } from './sky-draw.ts';
import type { Aircraft, Estimate, HitKind, MapAirport } from './types.ts';

export interface Hit {
  kind: HitKind;
  /** hex for aircraft and estimates, IATA code for airports */
  id: string;
}

/** what the last frame drew, for clicks, counts, the list and the tests' hook */
export interface Drawn {
  kind: HitKind[];
  id: string[];
  x: number[];
  y: number[];
}

const HIT_PX = 12;

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
  private shapeOf: (a: Aircraft) => ShapeId = () => 'unknown';
  private pass: (a: Aircraft) => boolean = () => true;
  showAirports = true;
  showEstimates = true;
  /** called after each frame with what it drew */
  onDrawn: (d: Drawn) => void = () => {};

  /** Web Mercator x, y, silhouette and filter verdict of each aircraft, worked out once per update rather than once per frame */
  private mx = new Float64Array(0);
  private my = new Float64Array(0);
  private shape = new Uint8Array(0);
  private keep = new Uint8Array(0);

  setAircraft(a: Aircraft[]): void {
    this.aircraft = a;
    this.mx = new Float64Array(a.length);
    this.my = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const r = a[i]!;
      this.mx[i] = r.lon === undefined ? Number.NaN : mercX(r.lon);
      this.my[i] = r.lat === undefined ? Number.NaN : mercY(r.lat);
    }
    this.classify();
  }

  /** the silhouette rule and the filter; each aircraft is classed again */
  setRules(shapeOf: (a: Aircraft) => ShapeId, pass: (a: Aircraft) => boolean): void {
    this.shapeOf = shapeOf;
    this.pass = pass;
    this.classify();
  }

  private classify(): void {
    const a = this.aircraft;
    this.shape = new Uint8Array(a.length);
    this.keep = new Uint8Array(a.length);
    for (let i = 0; i < a.length; i++) {
      this.shape[i] = SHAPE_IDS.indexOf(this.shapeOf(a[i]!));
      this.keep[i] = this.pass(a[i]!) ? 1 : 0;
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
    const drawn: Drawn = { kind: [], id: [], x: [], y: [] };
    const cx = mercX(centreLon);
    const f: Frame = {
      zoom,
      width: size.x,
      height: size.y,
      // the copy of the world nearest the view's centre (Leaflet does not wrap longitudes)
      project: (lat, lon) => {
        const l = lon + 360 * Math.round((centreLon - lon) / 360);
        return [mercX(l) * scale - ox, mercY(lat) * scale - oy];
      },
      projectAt: (i) => {
        const x = this.mx[i]!;
        return [(x + Math.round(cx - x)) * scale - ox, this.my[i]! * scale - oy];
      },
      // drawn a little past the edges (a glyph may straddle one), but listed only when inside the view
      note: (kind, id, x, y) => {
        if (x < 0 || y < 0 || x > size.x || y > size.y) return;
        drawn.kind.push(kind);
        drawn.id.push(id);
        drawn.x.push(x);
        drawn.y.push(y);
      },
    };
    if (this.showAirports) drawAirports(ctx, f, this.airports);
    ctx.globalAlpha = this.stale ? 0.35 : 1;
    drawAircraft(ctx, f, this.aircraft, this.shape, this.keep, this.selected);
    if (this.showEstimates) drawEstimates(ctx, f, this.estimates, (e) => this.pass(e as unknown as Aircraft));
    ctx.globalAlpha = 1;
    this.drawn = drawn;
    this.onDrawn(drawn);
  }
}
