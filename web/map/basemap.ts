// the basemaps and the layer switcher (docs/api.md "Basemaps"): the raster tiles the server is
// configured with (/v1/map/config: OpenStreetMap's by default, none with --map-tiles offline) and
// the bundled offline basemap (vector-basemap.ts), which is always there and the only one when the
// server is offline, so the tests and `make demo` never ask another host. the choice is kept in the
// URL (?layer=) and in this browser. overlays: the airports and the estimates.
import L from 'leaflet';
import { getJson } from './api.ts';
import { onTheme } from './theme.ts';
import { VectorBasemap } from './vector-basemap.ts';

export interface MapConfig {
  tiles: { name: string; url: string; attribution: string } | null;
  offline: { basemap: string; places: string; attribution: string };
}

const OFFLINE_NAME = 'Offline (Natural Earth)';
const KEY = 'contrail-layer';
/** the config the server would give when it cannot be read: offline, never another host */
const FALLBACK: MapConfig = {
  tiles: null,
  offline: { basemap: '/map/basemap-10m.bin', places: '/map/places.json', attribution: 'Natural Earth; OurAirports' },
};

export interface Basemaps {
  vector: VectorBasemap;
  /** 'tiles' or 'offline' */
  current(): string;
  onChange(f: (layer: string) => void): void;
}

export async function mapConfig(): Promise<MapConfig> {
  const r = await getJson<MapConfig>('/v1/map/config');
  return r.ok ? r.body : FALLBACK;
}

export function addBasemaps(map: L.Map, cfg: MapConfig, wanted: string | null, overlays: Record<string, L.Layer>): Basemaps {
  const vector = new VectorBasemap();
  vector.options.attribution = cfg.offline.attribution;
  void vector.load(cfg.offline.basemap, cfg.offline.places).catch((e) => console.error(e));
  const layers: Record<string, L.Layer> = {};
  const ids = new Map<L.Layer, string>();
  if (cfg.tiles) {
    const raster = L.tileLayer(cfg.tiles.url, { attribution: cfg.tiles.attribution, maxZoom: 19, className: 'raster-tiles' });
    layers[cfg.tiles.name] = raster;
    ids.set(raster, 'tiles');
  }
  layers[OFFLINE_NAME] = vector;
  ids.set(vector, 'offline');
  let kept: string | null = null;
  try {
    kept = localStorage.getItem(KEY);
  } catch {
    // no storage: the default then
  }
  const pick = [wanted, kept, 'tiles'].find((id) => id && [...ids.values()].includes(id)) ?? 'offline';
  let current = pick;
  for (const [layer, id] of ids) if (id === pick) layer.addTo(map);
  L.control.layers(layers, overlays, { position: 'topright', collapsed: true }).addTo(map);
  const listeners: ((l: string) => void)[] = [];
  map.on('baselayerchange', (e: L.LayersControlEvent) => {
    current = ids.get(e.layer) ?? current;
    try {
      localStorage.setItem(KEY, current);
    } catch {
      // not kept
    }
    for (const f of listeners) f(current);
  });
  // the offline basemap's colours follow the theme; raster tiles are darkened by CSS (style.css)
  onTheme(() => vector.redraw());
  return { vector, current: () => current, onChange: (f) => void listeners.push(f) };
}
