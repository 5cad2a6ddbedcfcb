// the first-party map, wired (docs/api.md "The map"): the basemaps and their switcher, the live sky
// (stream or polling) drawn as silhouettes, estimates every 15 s, the network's count from /v1/now,
// military addresses from /v2/mil, airports by kind, the list, search and filters beside the map,
// the selected aircraft with its trail, the stale banner, URL state, dark mode, keys and credits.
import L from 'leaflet';
import { getJson } from './api.ts';
import { addBasemaps, mapConfig } from './basemap.ts';
import { bandColour, bandOf } from './colour.ts';
import { buttonsControl, legendControl, statusControl } from './controls.ts';
import { statusText } from './status.ts';
import { el, utc } from './dom.ts';
import { FilterBox } from './filter-box.ts';
import { FlightsLayer } from './flights-layer.ts';
import { filtersOn, type Filters } from './filters.ts';
import { bindKeys } from './keyboard.ts';
import { AircraftList, nmBetween } from './list.ts';
import { Live, type Via } from './live.ts';
import { Panel } from './panel.ts';
import { SearchBox } from './search.ts';
import { Selection } from './selection.ts';
import { shapeOf, type ShapeId } from './shapes.ts';
import { SkyLayer } from './sky-layer.ts';
import { initialTheme, onTheme, setTheme, theme } from './theme.ts';
import { TraceLayer } from './trace-layer.ts';
import type { Aircraft, Estimate, EstimatedEnvelope, MapAirport } from './types.ts';
import { readUrl, writeUrl } from './url-state.ts';

const ESTIMATES_MS = 15_000;
const NETWORK_MS = 15_000;
const MILITARY_MS = 60_000;
/** the view when neither the URL nor the network says where to look */
const WORLD: [number, number, number] = [30, 0, 2];

async function start(): Promise<void> {
  const url = readUrl(location.search, location.hash);
  setTheme(initialTheme(url.theme));
  const [cfg, extent] = await Promise.all([mapConfig(), url.view ? null : getJson<{ box: [number, number, number, number] | null }>('/v1/map/extent')]);
  const banner = document.getElementById('banner')!;
  const side = document.getElementById('side')!;
  document.body.classList.toggle('side-open', window.innerWidth >= 900);
  const map = L.map('map', { preferCanvas: true, worldCopyJump: false, minZoom: 2, maxZoom: 16 });
  if (url.view) map.setView([url.view.lat, url.view.lon], url.view.zoom);
  else if (extent?.ok && extent.body.box) {
    const [w, s, e, n] = extent.body.box;
    map.fitBounds(
      [
        [s, w],
        [n, e < w ? e + 360 : e],
      ],
      { padding: [20, 20], maxZoom: 10 },
    );
  } else map.setView([WORLD[0], WORLD[1]], WORLD[2]);
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');

  const sky = new SkyLayer();
  const airportsLayer = L.layerGroup();
  const estimatesLayer = L.layerGroup();
  const basemaps = addBasemaps(map, cfg, url.layer, { Airports: airportsLayer, Estimates: estimatesLayer });
  sky.addTo(map);
  airportsLayer.addTo(map);
  estimatesLayer.addTo(map);
  map.on('overlayadd overlayremove', () => {
    sky.showAirports = map.hasLayer(airportsLayer);
    sky.showEstimates = map.hasLayer(estimatesLayer);
    sky.redraw();
  });
  const traces = new TraceLayer(map);
  const flights = new FlightsLayer(map, document.getElementById('panel'));

  let aircraft = new Map<string, Aircraft>();
  let estimates = new Map<string, Estimate>();
  let types = new Map<string, [ShapeId | null, string]>();
  let typeShapes = new Map<string, ShapeId | null>();
  let military = new Set<string>();
  let filters: Filters = url.filters;
  let stale: string | null = null;
  let liveAt: number | null = null;
  let network: number | null = null;
  let via: Via | 'connecting' = 'connecting';
  let counts = { inView: 0, estimatesInView: 0 };

  const shape = (a: Aircraft) => shapeOf(a.t, a.category, military.has(a.hex), (t) => types.get(t.toUpperCase())?.[0]);
  // data, not functions: the sky layer may class the aircraft in its worker (sky-layer.ts)
  const applyRules = () => sky.setRules({ types: typeShapes, military, filters });

  const panel = new Panel(document.getElementById('panel')!, () => selection.clear(), flights);
  const searchBox = new SearchBox(side, (a) => pick(a));
  new FilterBox(side, filters, (f) => {
    filters = f;
    applyRules();
    saveUrl();
  });
  side.append(el('h2', { class: 'list-title' }, 'Aircraft in view'));
  const list = new AircraftList(side, (hex) => selection.select(hex));
  list.onSort = (key, descending) => sky.setOrder(key, descending);
  const selection = new Selection({
    map,
    sky,
    list,
    panel,
    traces,
    live: (h) => aircraft.get(h) ?? null,
    estimate: (h) => estimates.get(h) ?? null,
    typeName: (t) => types.get(t.toUpperCase())?.[1] ?? null,
    nowS: () => liveAt,
    changed: () => saveUrl(),
  });
  const status = statusControl(map);
  legendControl(map);
  const toggleSide = () => {
    document.body.classList.toggle('side-open');
    map.invalidateSize();
  };
  const toggleTheme = () => setTheme(theme() === 'dark' ? 'light' : 'dark', true);
  buttonsControl(map, { list: toggleSide, theme: toggleTheme });
  onTheme(() => {
    sky.redraw();
    saveUrl();
  });
  basemaps.onChange(() => saveUrl());

  /** a search's result: select it, and centre the map on it */
  function pick(a: Aircraft): void {
    if (!aircraft.has(a.hex) && a.lat !== undefined) aircraft.set(a.hex, a);
    selection.select(a.hex, { centre: true, at: a.lat !== undefined && a.lon !== undefined ? { lat: a.lat, lon: a.lon } : undefined });
  }

  const showStatus = () =>
    status(
      statusText({
        ...counts,
        network,
        filtered: filtersOn(filters),
        via: via === 'stream' ? 'live via the push stream' : via === 'polling' ? 'live via polling' : 'connecting…',
        at: liveAt ? utc(liveAt) : null,
        stale: stale !== null,
      }),
    );
  // what the frame drew is what is counted and listed
  let listDue = false;
  sky.onDrawn = (d, held) => {
    // the worker path holds on the page only the list's first rows and the selected aircraft
    if (held) aircraft = new Map(held.map((a) => [a.hex, a]));
    let inView = 0;
    let est = 0;
    for (const k of d.kind)
      if (k === 'aircraft') inView++;
      else if (k === 'estimate') est++;
    counts = { inView, estimatesInView: est };
    showStatus();
    if (!listDue) {
      listDue = true;
      requestAnimationFrame(() => {
        listDue = false;
        // the worker path sends the list's rows ready, in the list's order
        const top = sky.listRows();
        if (top) {
          list.set(top.rows, top.total);
          list.select(selection.current);
          return;
        }
        const c = map.getCenter();
        const rows = sky
          .drawnIds('aircraft')
          .map((h) => aircraft.get(h))
          .filter((a): a is Aircraft => !!a)
          .map((a) => ({ a, nm: nmBetween(c.lat, c.lng, a.lat!, a.lon!) }));
        list.set(rows);
        list.select(selection.current);
      });
    }
  };

  const setStale = (detail: string | null) => {
    const was = stale;
    stale = detail;
    sky.setStale(detail !== null);
    banner.hidden = detail === null;
    // the server's detail starts lower case ("the live snapshot is 61 s old..."): here it starts a sentence
    const said = detail ? detail.charAt(0).toUpperCase() + detail.slice(1) : '';
    banner.textContent =
      detail === null
        ? ''
        : `Live data is stale: the feed has not updated for over 60 s (stale_snapshot). ${liveAt ? `What the map shows is the last live picture, from ${utc(liveAt)}, not the sky now.` : 'There is no live picture to show.'} ${said}`;
    // the banner takes its own strip above the map: the map's size changes with it
    if ((was === null) !== (detail === null)) map.invalidateSize();
  };

  const view = () => {
    const b = map.getBounds();
    return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
  };
  let pendingIcao = url.icao;
  let updates = 0;
  const live = new Live(
    view,
    {
      sky(records, now, how) {
        updates++;
        aircraft = new Map(records.map((a) => [a.hex, a]));
        liveAt = now;
        via = how;
        sky.setAircraft(records);
        setStale(null);
        selection.update();
        showStatus();
        if (pendingIcao) selectFromUrl(pendingIcao);
        pendingIcao = null;
      },
      stale(detail) {
        setStale(detail);
        showStatus();
      },
      mode(how) {
        via = how;
        showStatus();
      },
    },
    { stream: !url.poll },
    sky.streamSink(),
  );
  live.start();
  map.on('moveend', () => {
    live.viewChanged();
    saveUrl();
  });

  /** ?icao=: select it where it is held, else find it by /v2/hex and centre there */
  function selectFromUrl(hex: string): void {
    if (aircraft.has(hex)) return selection.select(hex, { centre: !url.view });
    // the worker path holds only the list's first rows on the page: the layer may hold it
    void sky.recordOf(hex).then((held) => {
      if (held) {
        aircraft.set(hex, held);
        return selection.select(hex, { centre: !url.view });
      }
      void getJson<{ ac: Aircraft[] }>(`/v2/hex/${hex}`).then((r) => {
        const a = r.ok ? r.body.ac[0] : undefined;
        if (a) pick(a);
        else selection.select(hex);
      });
    });
  }

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
    setTimeout(() => void loadEstimates(), Math.max(ESTIMATES_MS, (r.ok ? 0 : (r.retryAfterS ?? 0)) * 1000));
  };
  void loadEstimates();
  const loadNetwork = async () => {
    const r = await getJson<{ aircraft_with_pos: number }>('/v1/now');
    if (r.ok) network = r.body.aircraft_with_pos;
    showStatus();
    setTimeout(() => void loadNetwork(), NETWORK_MS);
  };
  void loadNetwork();
  const loadMilitary = async () => {
    const r = await getJson<{ ac: { hex: string }[] }>('/v2/mil');
    if (r.ok) {
      military = new Set(r.body.ac.map((a) => a.hex));
      applyRules();
    }
    setTimeout(() => void loadMilitary(), MILITARY_MS);
  };
  void loadMilitary();
  void getJson<{ types: Record<string, [ShapeId | null, string]> }>('/v1/map/types').then((r) => {
    if (!r.ok) return;
    types = new Map(Object.entries(r.body.types));
    typeShapes = new Map([...types].map(([t, [s]]) => [t, s]));
    applyRules();
  });
  applyRules();

  void getJson<{ airports: MapAirport[] }>('/v1/map/airports').then((r) => r.ok && sky.setAirports(r.body.airports));
  const odbl = '<a href="https://opendatacommons.org/licenses/odbl/1-0/">ODbL 1.0</a>';
  void getJson<{ attribution: string; credits_url: string }>('/v1/credits').then((r) => {
    if (r.ok)
      map.attributionControl.addAttribution(`${escape(r.body.attribution)}, ${odbl}: <a href="${escape(r.body.credits_url || '/v1/credits')}">credits</a>`);
    else map.attributionControl.addAttribution(`Data: the network's feeders, ${odbl}: <a href="/v1/credits">credits</a>`);
  });

  map.on('click', (e: L.LeafletMouseEvent) => {
    const hit = sky.hitTest(e.containerPoint.x, e.containerPoint.y);
    if (!hit) return;
    if (hit.kind === 'airport') {
      selection.clear();
      void panel.airport(hit.id, liveAt);
      return;
    }
    // an aircraft past the list's first rows is not held on the worker path: ask the layer for it
    if (hit.kind === 'aircraft' && !aircraft.has(hit.id))
      void sky.recordOf(hit.id).then((a) => {
        if (a) aircraft.set(a.hex, a);
        selection.select(hit.id);
      });
    else selection.select(hit.id);
  });

  bindKeys({
    search: () => {
      if (!document.body.classList.contains('side-open')) toggleSide();
      searchBox.input.focus();
    },
    list: toggleSide,
    theme: toggleTheme,
    escape: () => {
      if (panel.isOpen) panel.close();
      selection.clear();
      searchBox.clear();
    },
  });

  function saveUrl(): void {
    const c = map.getCenter();
    const q = writeUrl({
      view: { lat: c.lat, lon: c.lng, zoom: map.getZoom() },
      icao: selection.current,
      filters,
      theme: url.theme || theme() === 'dark' ? theme() : null,
      layer: basemaps.current() === 'offline' && cfg.tiles ? 'offline' : null,
      poll: url.poll,
    });
    history.replaceState(null, '', `${location.pathname}${q}`);
  }

  // what the tests, the bench (and a curious person in the console) can ask the page
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
    /** the airframe-day drawn by the panel's Flights section: its lines (points, marks) or null */
    flights: () => flights.current,
    /** the sky layer's full redraw alone, in ms (the bench) */
    redrawMs: () => {
      const t = performance.now();
      sky.redraw();
      return performance.now() - t;
    },
    mode: () => via,
    /** 'worker' (OffscreenCanvas) or 'page' (the fallback): where the sky layer is drawn */
    skyPath: () => sky.path,
    /** ms the sky worker has worked so far (the bench: what left the main thread still costs a core) */
    workerMs: () => sky.workerMs,
    stale: () => stale,
    colourOf: (alt: number | 'ground' | undefined) => bandColour(bandOf(alt)),
    counts: () => ({ ...counts, network }),
    listOrder: () => list.order(),
    selected: () => selection.current,
    shapeOf: (hex: string) => (aircraft.has(hex) ? shape(aircraft.get(hex)!) : null),
    basemap: () => ({
      layer: basemaps.current(),
      ready: basemaps.vector.ready,
      tiles: basemaps.vector.drawnTiles,
      /** arc points the drawn tiles walked (the bench) */
      walked: basemaps.vector.walked,
      labels: basemaps.vector.labels(map.getZoom()).map((l) => l.text),
    }),
    search: (text: string) => searchBox.run(text),
    /** pictures taken from the stream or polling so far (the bench counts updates) */
    updates: () => updates,
  };

  function estimateNote(env: EstimatedEnvelope): void {
    const a = env.accuracy;
    const box = document.querySelector('.legend .accuracy');
    if (box)
      box.textContent = a
        ? `Estimates (${env.method}): median error ${a.median_km} km over ${a.n} replayed gaps on ${a.day}.`
        : `Estimates (${env.method}): accuracy not yet measured.`;
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

void start();
