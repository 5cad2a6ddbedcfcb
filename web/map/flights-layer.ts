// an airframe-day's flights (/v1/flights/{hex}/{date}) drawn on the map: each flight's track as a
// line, its heard take-off and landing marked and labelled with the airport and runway. the geometry
// is flights-model.ts flightLines; this only draws it, apart from the live trail (trace-layer.ts).
import L from 'leaflet';
import { flightLines, type FlightLine, type FlightsDoc } from './flights-model.ts';

const LINE = '#7a3cc7';

export interface FlightsShown {
  hex: string;
  date: string;
  lines: FlightLine[];
}

export class FlightsLayer {
  private readonly group = L.layerGroup();
  private shown: FlightsShown | null = null;

  /** `over`: the panel drawn over the map's right side; the tracks are fitted into what it leaves visible */
  constructor(
    private readonly map: L.Map,
    private readonly over: HTMLElement | null = null,
  ) {
    this.group.addTo(map);
  }

  /** draws the day's flights and fits the map to them (a day with no positions draws nothing and keeps the view) */
  show(doc: FlightsDoc): void {
    this.clear();
    const lines = flightLines(doc);
    this.shown = { hex: doc.hex, date: doc.date, lines };
    const bounds = L.latLngBounds([]);
    for (const l of lines) {
      if (l.points.length > 1) L.polyline(l.points, { color: LINE, weight: 3, opacity: 0.85, interactive: false, className: 'flight-track' }).addTo(this.group);
      for (const p of l.points) bounds.extend(p);
      if (l.takeoff) this.mark(l.takeoff, '#1a7f37', 'flight-takeoff', bounds);
      if (l.landing) this.mark(l.landing, '#b42318', 'flight-landing', bounds);
    }
    if (bounds.isValid()) this.map.fitBounds(bounds, { paddingTopLeft: [24, 24], paddingBottomRight: [24 + this.covered(), 24], maxZoom: 11, animate: false });
  }

  clear(): void {
    this.group.clearLayers();
    this.shown = null;
  }

  get current(): FlightsShown | null {
    return this.shown;
  }

  /** how many pixels of the map's right side the panel covers (0 when it is hidden or beside the map) */
  private covered(): number {
    if (!this.over || this.over.hidden) return 0;
    const m = this.map.getContainer().getBoundingClientRect();
    const p = this.over.getBoundingClientRect();
    return Math.max(0, Math.min(m.right, p.right) - Math.max(m.left, p.left));
  }

  private mark(m: { lat: number; lon: number; label: string }, colour: string, cls: string, bounds: L.LatLngBounds): void {
    bounds.extend([m.lat, m.lon]);
    L.circleMarker([m.lat, m.lon], { radius: 6, color: colour, weight: 3, fillColor: '#fff', fillOpacity: 1, interactive: false })
      .bindTooltip(m.label, { permanent: true, direction: 'right', className: cls })
      .addTo(this.group);
  }
}
