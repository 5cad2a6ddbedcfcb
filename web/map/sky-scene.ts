// what the sky layer draws, apart from where it draws it: the aircraft with their Web Mercator
// positions, silhouettes and filter verdicts worked out once per update, the estimates, the
// airports, and one frame of them for a view. no Leaflet and no DOM here, so the same scene runs on
// the page (sky-layer.ts, where OffscreenCanvas is missing) and in the sky worker (sky-worker.ts).
import { matcher, type Filters } from './filters.ts';
import { SHAPE_IDS, shapeOf, type ShapeId } from './shapes.ts';
import { drawAircraft, drawAirports, drawEstimates, type Ctx2D, type Frame } from './sky-draw.ts';
import type { Palette } from './theme.ts';
import { mercX, mercY } from './topo.ts';
import type { Aircraft, Estimate, HitKind, MapAirport } from './types.ts';

/** what a frame drew inside the view, for clicks, counts, the list and the tests' hook */
export interface Drawn {
  kind: HitKind[];
  id: string[];
  x: number[];
  y: number[];
}

/** the view a frame is drawn for, in CSS px (Leaflet's numbers, read on the page) */
export interface View {
  width: number;
  height: number;
  dpr: number;
  zoom: number;
  centreLon: number;
  /** world pixel of the canvas's top-left corner: Leaflet's pixel origin plus the canvas's layer point */
  ox: number;
  oy: number;
}

/** the data the silhouette rule and the filter read (functions cannot cross to a worker) */
export interface Rules {
  /** type designator (upper case) -> silhouette, from /v1/map/types */
  types: ReadonlyMap<string, ShapeId | null>;
  /** military addresses (/v2/mil) */
  military: ReadonlySet<string>;
  filters: Filters;
}

export interface Looks {
  stale: boolean;
  selected: string | null;
  showAirports: boolean;
  showEstimates: boolean;
}

export const NO_RULES: Rules = { types: new Map(), military: new Set(), filters: { altMin: null, altMax: null, types: [], military: false } };

/** the silhouette of one aircraft under a set of rules */
export const shapeUnder = (r: Rules, a: Aircraft): ShapeId => shapeOf(a.t, a.category, r.military.has(a.hex), (t) => r.types.get(t.toUpperCase()));

export class SkyScene {
  aircraft: Aircraft[] = [];
  estimates: Estimate[] = [];
  airports: MapAirport[] = [];
  looks: Looks = { stale: false, selected: null, showAirports: true, showEstimates: true };
  private rules: Rules = NO_RULES;
  private pass: (a: Aircraft) => boolean = () => true;
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

  /** new rules: each aircraft is classed again */
  setRules(r: Rules): void {
    this.rules = r;
    const shape = (a: Aircraft) => shapeUnder(r, a);
    this.pass = matcher(r.filters, shape, (h) => r.military.has(h));
    this.classify();
  }

  private classify(): void {
    const a = this.aircraft;
    this.shape = new Uint8Array(a.length);
    this.keep = new Uint8Array(a.length);
    for (let i = 0; i < a.length; i++) {
      this.shape[i] = SHAPE_IDS.indexOf(shapeUnder(this.rules, a[i]!));
      this.keep[i] = this.pass(a[i]!) ? 1 : 0;
    }
  }

  /** Clear `ctx` (a canvas of the view's size times its dpr) and draw the view; returns what was drawn inside it. */
  draw(ctx: Ctx2D, v: View, palette: Palette): Drawn {
    ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
    ctx.clearRect(0, 0, v.width, v.height);
    const scale = 256 * 2 ** v.zoom;
    const drawn: Drawn = { kind: [], id: [], x: [], y: [] };
    const cx = mercX(v.centreLon);
    const f: Frame = {
      zoom: v.zoom,
      width: v.width,
      height: v.height,
      palette,
      // the copy of the world nearest the view's centre (Leaflet does not wrap longitudes)
      project: (lat, lon) => {
        const l = lon + 360 * Math.round((v.centreLon - lon) / 360);
        return [mercX(l) * scale - v.ox, mercY(lat) * scale - v.oy];
      },
      projectAt: (i) => {
        const x = this.mx[i]!;
        return [(x + Math.round(cx - x)) * scale - v.ox, this.my[i]! * scale - v.oy];
      },
      // drawn a little past the edges (a glyph may straddle one), but listed only when inside the view
      note: (kind, id, x, y) => {
        if (x < 0 || y < 0 || x > v.width || y > v.height) return;
        drawn.kind.push(kind);
        drawn.id.push(id);
        drawn.x.push(x);
        drawn.y.push(y);
      },
    };
    const l = this.looks;
    if (l.showAirports) drawAirports(ctx, f, this.airports);
    ctx.globalAlpha = l.stale ? 0.35 : 1;
    drawAircraft(ctx, f, this.aircraft, this.shape, this.keep, l.selected);
    if (l.showEstimates) drawEstimates(ctx, f, this.estimates, (e) => this.pass(e as unknown as Aircraft));
    ctx.globalAlpha = 1;
    return drawn;
  }
}
