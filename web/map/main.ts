// the first-party map, wired: the basemap, the live sky (stream or polling), estimates every 15 s,
// airports from the published build, clicks to the side panel, the stale banner, the credits.
// the view can be set by the URL: #<zoom>/<lat>/<lon> (and #.../poll to poll only).
import L from 'leaflet';
import { getJson } from './api.ts';
import { viewFromHash } from './hash.ts';
import { addBasemap } from './basemap.ts';
import { bandColour, bandOf } from './colour.ts';
import { el, utc } from './dom.ts';
import { Live, type Via } from './live.ts';
import { Panel } from './panel.ts';
import { SkyLayer } from './sky-layer.ts';
import { TraceLayer } from './trace-layer.ts';
import type { Aircraft, Estimate, EstimatedEnvelope, MapAirport } from './types.ts';

const ESTIMATES_MS = 15_000;

function start(): void {
  const banner = document.getElementById('banner')!;
  const start = viewFromHash(location.hash);
  const map = L.map('map', { preferCanvas: true, worldCopyJump: false, minZoom: 2, maxZoom: 14 }).setView([start.lat, start.lon], start.zoom);
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  map.attributionControl.addAttribution('Basemap: <a href="https://www.naturalearthdata.com/">Natural Earth</a> (public domain)');
  void addBasemap(map).catch((e) => console.error(e));

  const sky = new SkyLayer().addTo(map);
  const traces = new TraceLayer(map);
  const panel = new Panel(document.getElementById('panel')!, () => {
    traces.clear();
    sky.select(null);
  });
  const status = statusControl(map);
  legendControl(map);

  let aircraft = new Map<string, Aircraft>();
  let estimates = new Map<string, Estimate>();
  let stale: string | null = null;
  let liveAt: number | null = null;
  let via: Via | 'connecting' = 'connecting';
  const showStatus = () => status(`${aircraft.size.toLocaleString('en')} aircraft · ${estimates.size} estimated · ${via === 'stream' ? 'live via the push stream' : via === 'polling' ? 'live via polling' : 'connecting…'}${liveAt ? ` · ${utc(liveAt)}` : ''}${stale ? ' · STALE' : ''}`);
  const setStale = (detail: string | null) => {
    stale = detail;
    sky.setStale(detail !== null);
    banner.hidden = detail === null;
    banner.textContent = detail === null ? '' : `Live data is stale: the feed has not updated for over 60 s (stale_snapshot). ${liveAt ? `What the map shows is the last live picture, from ${utc(liveAt)}, not the sky now.` : 'There is no live picture to show.'} ${detail}`;
  };

  const view = () => {
    const b = map.getBounds();
    return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
  };
  const live = new Live(view, {
    sky(list, now, how) {
      aircraft = new Map(list.map((a) => [a.hex, a]));
      liveAt = now;
      via = how;
      sky.setAircraft(list);
      setStale(null);
      showStatus();
    },
    stale(detail) {
      setStale(detail);
      showStatus();
    },
    mode(how) {
      via = how;
      showStatus();
    },
  }, { stream: !start.poll });
  live.start();
  map.on('moveend', () => live.viewChanged());

  const loadEstimates = async () => {
    const r = await getJson<EstimatedEnvelope>('/v1/estimated');
    if (r.ok) {
      estimates = new Map(r.body.aircraft.map((e) => [e.hex, e]));
      sky.setEstimates(r.body.aircraft);
      estimateNote(r.body);
    } else if (r.error === 'stale_snapshot') {
      // an outage would otherwise list the whole sky as estimated: keep none
      estimates = new Map();
      sky.setEstimates([]);
      setStale(r.detail);
    }
    showStatus();
    setTimeout(() => void loadEstimates(), Math.max(ESTIMATES_MS, (r.ok ? 0 : r.retryAfterS ?? 0) * 1000));
  };
  void loadEstimates();

  void getJson<{ airports: MapAirport[] }>('/v1/map/airports').then((r) => r.ok && sky.setAirports(r.body.airports));
  void getJson<{ attribution: string; credits_url: string }>('/v1/credits').then((r) => {
    if (r.ok) map.attributionControl.addAttribution(`${escape(r.body.attribution)}: <a href="${escape(r.body.credits_url || '/v1/credits')}">credits</a>`);
    else map.attributionControl.addAttribution('Data: the network\'s feeders (ODbL 1.0): <a href="/v1/credits">credits</a>');
  });

  map.on('click', (e: L.LeafletMouseEvent) => {
    const hit = sky.hitTest(e.containerPoint.x, e.containerPoint.y);
    if (!hit) return;
    traces.clear();
    if (hit.kind === 'airport') {
      sky.select(null);
      void panel.airport(hit.id);
      return;
    }
    sky.select(hit.id);
    void panel.aircraft(hit.id, aircraft.get(hit.id) ?? null, hit.kind === 'estimate' ? estimates.get(hit.id) ?? null : null, (t) => t && t.points.length && traces.show(t));
  });

  // what the tests (and a curious person in the console) can ask the page
  (window as any).__contrail = {
    map,
    drawnHexes: () => sky.drawnIds('aircraft').sort(),
    drawnEstimates: () => sky.drawnIds('estimate').sort(),
    drawnAirports: () => sky.drawnIds('airport').sort(),
    pointOf: (kind: 'aircraft' | 'estimate' | 'airport', id: string) => {
      const p = sky.pointOf(kind, id);
      if (!p) return null;
      const r = map.getContainer().getBoundingClientRect();
      return { x: r.left + p.x, y: r.top + p.y };
    },
    trace: () => traces.current,
    /** the sky layer's full redraw alone, in ms (the bench) */
    redrawMs: () => {
      const t = performance.now();
      sky.redraw();
      return performance.now() - t;
    },
    mode: () => via,
    stale: () => stale,
    colourOf: (alt: number | 'ground' | undefined) => bandColour(bandOf(alt)),
  };

  function estimateNote(env: EstimatedEnvelope): void {
    const a = env.accuracy;
    const box = document.querySelector('.legend .accuracy');
    if (box) box.textContent = a ? `Estimates (${env.method}): median error ${a.median_km} km over ${a.n} replayed gaps on ${a.day}.` : `Estimates (${env.method}): accuracy not yet measured.`;
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function statusControl(map: L.Map): (text: string) => void {
  const box = el('div', { class: 'status leaflet-bar' }, 'connecting…');
  const C = L.Control.extend({ onAdd: () => box });
  new C({ position: 'topleft' }).addTo(map);
  return (text) => {
    box.textContent = text;
  };
}

function legendControl(map: L.Map): void {
  const swatch = (colour: string, text: string) => el('div', {}, el('span', { class: 'swatch', style: `background:${colour}` }), text);
  const box = el(
    'div',
    { class: 'legend leaflet-bar' },
    swatch(bandColour(bandOf('ground')), 'on the ground'),
    ...[0, 10_000, 20_000, 30_000, 40_000].map((ft) => swatch(bandColour(bandOf(ft)), `${ft.toLocaleString('en')} ft`)),
    el('div', {}, el('span', { class: 'swatch estimate' }), 'estimate (hollow, dashed): not an observation; the dashed line leads back to where it was last heard'),
    el('div', { class: 'accuracy' }),
  );
  const C = L.Control.extend({ onAdd: () => box });
  new C({ position: 'bottomleft' }).addTo(map);
}

start();
