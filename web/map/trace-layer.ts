// a clicked aircraft's recent trace (/v1/trace/{hex}): the path, with the heard take-off and
// landing marked and labelled.
import L from 'leaflet';
import { utc } from './dom.ts';
import type { Trace } from './types.ts';

export class TraceLayer {
  private readonly group = L.layerGroup();
  private shown: Trace | null = null;

  constructor(map: L.Map) {
    this.group.addTo(map);
  }

  show(t: Trace): void {
    this.clear();
    this.shown = t;
    const line = t.points.map((p) => L.latLng(p[1], p[2]));
    L.polyline(line, { color: '#111', weight: 2.5, opacity: 0.8, interactive: false }).addTo(this.group);
    if (t.departure) this.mark(t.departure.lat, t.departure.lon, '#1a7f37', `take-off ${utc(t.departure.at)}`, 'trace-takeoff');
    if (t.arrival) this.mark(t.arrival.lat, t.arrival.lon, '#b42318', `landing ${utc(t.arrival.at)}`, 'trace-landing');
  }

  clear(): void {
    this.group.clearLayers();
    this.shown = null;
  }

  get current(): Trace | null {
    return this.shown;
  }

  private mark(lat: number, lon: number, colour: string, text: string, cls: string): void {
    L.circleMarker([lat, lon], { radius: 7, color: colour, weight: 3, fillColor: '#fff', fillOpacity: 1, interactive: false })
      .bindTooltip(text, { permanent: true, direction: 'right', className: cls })
      .addTo(this.group);
  }
}
