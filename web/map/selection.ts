// the selected aircraft (docs/api.md "The selected aircraft"): one at a time, chosen on the map, in
// the list or by a search; ringed on the map, its row marked, its panel open with its trail from
// /v1/trace drawn and extended as new positions arrive, and its hex in the URL (?icao=).
import type L from 'leaflet';
import type { AircraftList } from './list.ts';
import type { Panel } from './panel.ts';
import type { SkyLayer } from './sky-layer.ts';
import type { TraceLayer } from './trace-layer.ts';
import type { Aircraft, Estimate } from './types.ts';

export interface SelectionDeps {
  map: L.Map;
  sky: SkyLayer;
  list: AircraftList;
  panel: Panel;
  traces: TraceLayer;
  live: (hex: string) => Aircraft | null;
  estimate: (hex: string) => Estimate | null;
  typeName: (t: string) => string | null;
  nowS: () => number | null;
  changed: () => void;
}

/** the zoom a search's result is centred at, unless the map is already closer */
const CENTRE_ZOOM = 9;

export class Selection {
  private hex: string | null = null;

  constructor(private readonly d: SelectionDeps) {}

  get current(): string | null {
    return this.hex;
  }

  /** select an aircraft (or an estimate); `centre` moves the map to it */
  select(hex: string, o: { centre?: boolean; at?: { lat: number; lon: number } } = {}): void {
    const d = this.d;
    const live = d.live(hex);
    const est = live ? null : d.estimate(hex);
    const at = o.at ?? (live?.lat !== undefined && live.lon !== undefined ? { lat: live.lat, lon: live.lon } : est ? { lat: est.lat, lon: est.lon } : null);
    if (o.centre && at) d.map.setView([at.lat, at.lon], Math.max(d.map.getZoom(), CENTRE_ZOOM), { animate: false });
    this.hex = hex;
    d.traces.clear();
    d.sky.select(hex);
    d.list.select(hex);
    void d.panel.aircraft(
      hex,
      live,
      est,
      (t) => {
        if (t && t.points.length && this.hex === hex) d.traces.show(t);
      },
      d.typeName,
      d.nowS(),
    );
    d.changed();
  }

  /** the panel was closed or Escape pressed */
  clear(): void {
    this.hex = null;
    this.d.traces.clear();
    this.d.sky.select(null);
    this.d.list.select(null);
    this.d.changed();
  }

  /** a new picture arrived: the trail follows the selected aircraft */
  update(): void {
    if (!this.hex) return;
    const a = this.d.live(this.hex);
    if (a?.lat !== undefined && a.lon !== undefined && this.d.traces.current?.hex === this.hex) this.d.traces.extend(a.lat, a.lon);
  }
}
