// a selected aircraft's recent trace (/v1/trace/{hex}): the path, with the heard take-off and
// landing marked and labelled, grown as the aircraft moves on.
import L from 'leaflet';
import { utc } from './dom.ts';
import { palette } from './theme.ts';
import type { Trace } from './types.ts';

export class TraceLayer {
  private readonly group = L.layerGroup();
  private shown: Trace | null = null;
  private line: L.Polyline | null = null;

  constructor(map: L.Map) {
    this.group.addTo(map);
  }

  show(t: Trace): void {
    this.clear();
    this.shown = t;
    const line = t.points.map((p) => L.latLng(p[1], p[2]));
    this.line = L.polyline(line, { color: palette().selected, weight: 2.5, opacity: 0.8, interactive: false, className: 'trail' }).addTo(this.group);
    if (t.departure) this.mark(t.departure.lat, t.departure.lon, '#1a7f37', `take-off ${utc(t.departure.at)}`, 'trace-takeoff');
    if (t.arrival) this.mark(t.arrival.lat, t.arrival.lon, '#b42318', `landing ${utc(t.arrival.at)}`, 'trace-landing');
  }

  clear(): void {
    this.group.clearLayers();
    this.shown = null;
    this.line = null;
  }

  /** the selected aircraft moved: its trail grows to where it is now (a repeated position adds nothing) */
  extend(lat: number, lon: number): void {
    const pts = this.line?.getLatLngs() as L.LatLng[] | undefined;
    const last = pts?.[pts.length - 1];
    if (!this.line || (last && last.lat === lat && last.lng === lon)) return;
    this.line.addLatLng([lat, lon]);
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
