// the basemap shipped with the project: Natural Earth 1:50m countries (public domain, from the
// world-atlas package, served by this server at /map/countries-50m.json), land filled and
// borders drawn, on the map's canvas renderer. no tiles, no outside host.
import L from 'leaflet';
import { feature, mesh } from 'topojson-client';

export async function addBasemap(map: L.Map): Promise<void> {
  const res = await fetch('/map/countries-50m.json');
  if (!res.ok) throw new Error(`basemap: ${res.status}`);
  // world-atlas's countries-50m: objects `countries` and `land` (the types come from topojson-client's own)
  type Topo = Parameters<typeof feature>[0];
  type Collection = Parameters<typeof mesh>[1] & object;
  const topo = (await res.json()) as Topo & { objects: { countries: Collection; land: Collection } };
  const pane = 'basemap';
  map.createPane(pane).style.zIndex = '200';
  const renderer = L.canvas({ pane, padding: 0.5 });
  // Leaflet hands a GeoJSON layer's options to the paths it makes, renderer included
  const opts = (style: L.PathOptions): L.GeoJSONOptions => ({ pane, renderer, interactive: false, style }) as L.GeoJSONOptions;
  L.geoJSON(feature(topo, topo.objects.land), opts({ stroke: false, fillColor: '#eceae3', fillOpacity: 1 })).addTo(map);
  L.geoJSON(mesh(topo, topo.objects.countries, (a, b) => a !== b), opts({ color: '#a9a49a', weight: 0.8, fill: false })).addTo(map);
}
