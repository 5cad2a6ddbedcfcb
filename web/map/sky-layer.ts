// one canvas over the map for everything that can number in the thousands: airports, live aircraft
// and estimates (sky-scene.ts, one path per altitude band and silhouette: sky-draw.ts). where the
// browser has OffscreenCanvas the canvas is drawn by the sky worker (sky-worker.ts), which also
// parses the push stream, so an update costs the page's main thread only what the worker sends
// back; elsewhere the same scene is drawn here, as before. while Leaflet pans, the canvas moves with
// the map pane; it is redrawn when a move or zoom ends and when new data arrives. what a frame drew
// inside the view is kept: it is what the status line counts, what the list shows, and what a click hits.
import L from 'leaflet';
import type { StreamControl, StreamSink } from './live.ts';
import type { ListRow, SortKey } from './list.ts';
import type { FromWorker, ToWorker } from './sky-protocol.ts';
import { SkyScene, type Drawn, type Looks, type Rules, type View } from './sky-scene.ts';
import { palette } from './theme.ts';
import type { Aircraft, Estimate, HitKind, MapAirport } from './types.ts';

export type { Drawn };

export interface Hit {
  kind: HitKind;
  /** hex for aircraft and estimates, IATA code for airports */
  id: string;
}

/** where the layer is drawn: in the sky worker, or on the page where OffscreenCanvas is missing */
export type SkyPath = 'worker' | 'page';

/** the worker's bundle, served beside map.js (server/map/bundle.ts) */
const WORKER_URL = '/map/sky-worker.js';
const HIT_PX = 12;

const canWork = () => typeof Worker === 'function' && typeof OffscreenCanvas === 'function' && 'transferControlToOffscreen' in HTMLCanvasElement.prototype;

/** the stream's messages handed to the worker as text, its applied messages handed back in order */
class WorkerSink implements StreamSink {
  gen = 0;
  onMessage: StreamSink['onMessage'] = () => {};
  constructor(private readonly post: (m: ToWorker) => void) {}

  reset(): void {
    this.post({ t: 'reset', gen: ++this.gen });
  }

  feed(text: string): void {
    this.post({ t: 'stream', gen: this.gen, text });
  }
}

export class SkyLayer extends L.Layer {
  readonly path: SkyPath = canWork() ? 'worker' : 'page';
  private canvas!: HTMLCanvasElement;
  /** the page path's context; null on the worker path */
  private ctx: CanvasRenderingContext2D | null = null;
  private worker: Worker | null = null;
  private sink: WorkerSink | null = null;
  private frame = 0;
  private readonly scene = new SkyScene();
  private looks: Looks = { ...this.scene.looks };
  private drawn: Drawn = { kind: [], id: [], x: [], y: [] };
  /** the worker path: the records its last frame sent (the list's first rows and the selected one) */
  private held: Aircraft[] = [];
  private top: { rows: ListRow[]; total: number } | null = null;
  private asked = new Map<number, (a: Aircraft | null) => void>();
  private askedN = 0;
  private sentTypes: Rules['types'] | null = null;
  /** the worker path: ms the worker has spent so far (its own clock; the bench reads it) */
  workerMs = 0;
  /** called after each frame with what it drew and, on the worker path, the records it sent */
  onDrawn: (d: Drawn, held: Aircraft[] | null) => void = () => {};

  get showAirports(): boolean {
    return this.looks.showAirports;
  }
  set showAirports(on: boolean) {
    this.setLooks({ showAirports: on });
  }
  get showEstimates(): boolean {
    return this.looks.showEstimates;
  }
  set showEstimates(on: boolean) {
    this.setLooks({ showEstimates: on });
  }

  /** the sink Live should feed the stream to: the worker's, or null for parsing on the page */
  streamSink(): StreamSink | null {
    if (this.path === 'page') return null;
    this.startWorker();
    return this.sink!;
  }

  /** the worker path: the list's rows (its first ROWS, in its order) and how many are in view; null on the page path */
  listRows(): { rows: ListRow[]; total: number } | null {
    return this.top;
  }

  /** the list's order: on the worker path the next frame's rows follow it */
  setOrder(key: SortKey, descending: boolean): void {
    if (this.path === 'worker') this.post({ t: 'order', key, descending });
  }

  /** a record the page may not hold (the worker path holds only the list's first rows): from the worker */
  recordOf(hex: string): Promise<Aircraft | null> {
    if (this.path === 'page') return Promise.resolve(this.scene.aircraft.find((a) => a.hex === hex) ?? null);
    const id = ++this.askedN;
    return new Promise((r) => {
      this.asked.set(id, r);
      this.post({ t: 'record', id, hex });
    });
  }

  setAircraft(a: Aircraft[]): void {
    // on the worker path the stream's records came from the worker: nothing to send back
    if (this.path === 'worker') {
      if (a !== this.held) this.post({ t: 'aircraft', aircraft: a });
      return;
    }
    this.scene.setAircraft(a);
    this.schedule();
  }

  /** the silhouette rule's and the filter's data; each aircraft is classed again */
  setRules(r: Rules): void {
    if (this.path === 'worker') {
      const types = r.types === this.sentTypes ? null : [...r.types];
      this.sentTypes = r.types;
      this.post({ t: 'rules', types, military: [...r.military], filters: r.filters });
      return;
    }
    this.scene.setRules(r);
    this.schedule();
  }

  setEstimates(e: Estimate[]): void {
    if (this.path === 'worker') return this.post({ t: 'estimates', estimates: e });
    this.scene.estimates = e;
    this.schedule();
  }

  setAirports(a: MapAirport[]): void {
    if (this.path === 'worker') return this.post({ t: 'airports', airports: a });
    this.scene.airports = a;
    this.schedule();
  }

  setStale(stale: boolean): void {
    if (this.looks.stale !== stale) this.setLooks({ stale });
  }

  select(id: string | null): void {
    this.setLooks({ selected: id });
  }

  private setLooks(l: Partial<Looks>): void {
    this.looks = { ...this.looks, ...l };
    if (this.path === 'worker') return this.post({ t: 'looks', looks: this.looks });
    this.scene.looks = this.looks;
    this.schedule();
  }

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create('canvas', 'sky-layer') as HTMLCanvasElement;
    map.getPanes().overlayPane.appendChild(this.canvas);
    if (this.path === 'worker') {
      const off = this.canvas.transferControlToOffscreen();
      this.post({ t: 'canvas', canvas: off }, [off]);
    } else this.ctx = this.canvas.getContext('2d')!;
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

  private startWorker(): void {
    if (this.worker) return;
    const w = new Worker(WORKER_URL, { name: 'sky' });
    this.worker = w;
    this.sink = new WorkerSink((m) => this.post(m));
    w.onmessage = (e: MessageEvent<FromWorker>) => this.fromWorker(e.data);
    // a worker that fails to load leaves the layer blank: said in the console, where a person looks
    w.onerror = (e) => console.error(`the sky worker failed (${WORKER_URL}): ${e.message}`);
  }

  private post(m: ToWorker, transfer: Transferable[] = []): void {
    this.startWorker();
    this.worker!.postMessage(m, transfer);
  }

  private fromWorker(m: FromWorker): void {
    const sink = this.sink!;
    if (m.t === 'bad') return console.warn(`a stream message that is not JSON was dropped: ${m.detail}`);
    if (m.t === 'record') {
      this.asked.get(m.id)?.(m.a);
      this.asked.delete(m.id);
      return;
    }
    if (m.t === 'msg') {
      // an `end` that came without a frame (no canvas or view in the worker yet): what is held stands
      if (m.gen === sink.gen) sink.onMessage(m.m, m.m.type === 'end' ? this.held : null);
      return;
    }
    const c = this.canvas;
    L.DomUtil.setPosition(c, L.point(m.corner[0], m.corner[1]));
    c.style.visibility = '';
    this.drawn = m.drawn;
    const held = m.top.map((r) => r.a);
    if (m.selected && !held.some((a) => a.hex === m.selected!.hex)) held.push(m.selected);
    this.held = held;
    this.top = { rows: m.top, total: m.inView };
    this.workerMs = m.busyMs;
    this.onDrawn(m.drawn, held);
    if (m.end && m.end.gen === sink.gen) sink.onMessage({ type: 'end', now: m.end.now } satisfies StreamControl, held);
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

  /** draw everything for the current view: now on the page path; on the worker path, asked of the worker */
  redraw(): void {
    const map = this._map;
    if (!map) return;
    const size = map.getSize();
    const dpr = window.devicePixelRatio || 1;
    const c = this.canvas;
    if (c.style.width !== `${size.x}px` || c.style.height !== `${size.y}px`) {
      c.style.width = `${size.x}px`;
      c.style.height = `${size.y}px`;
    }
    const corner = map.containerPointToLayerPoint([0, 0]);
    // Leaflet's own arithmetic: layer point = world pixel - pixel origin; the canvas sits at `corner`
    const origin = map.getPixelOrigin();
    const view: View = {
      width: size.x,
      height: size.y,
      dpr,
      zoom: map.getZoom(),
      centreLon: map.getCenter().lng,
      ox: origin.x + corner.x,
      oy: origin.y + corner.y,
    };
    const centre = map.getCenter();
    if (this.path === 'worker') return this.post({ t: 'view', view, corner: [corner.x, corner.y], palette: palette(), centre: [centre.lat, centre.lng] });
    if (c.width !== size.x * dpr || c.height !== size.y * dpr) {
      c.width = size.x * dpr;
      c.height = size.y * dpr;
    }
    L.DomUtil.setPosition(c, corner);
    c.style.visibility = '';
    this.drawn = this.scene.draw(this.ctx!, view, palette());
    this.onDrawn(this.drawn, null);
  }
}
