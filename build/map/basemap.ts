// map:basemap: prepare the map's offline basemap once, into data/map/ (served by server/map/bundle.ts):
//   basemap-10m.json.gz  Natural Earth 1:10m countries and land (world-atlas 2.0.2 countries-10m,
//                        each country's properties cut to its name), gzipped here so the server
//                        never compresses 3.7 MB at start-up (4-5 s on a busy 2-core machine)
//   basemap-10m.bin.gz   the same arcs, land and borders packed for the page (lib/basemap-pack.ts):
//                        no JSON.parse of 3.7 MB before the first tile, and 674 KB gzipped, not 916 KB
//   places.json          the place names (build/map/places.ts): countries and large cities
// run again after a world-atlas or data/ref update; test/build/map/basemap.test.ts fails while
// the committed files differ from what this makes.
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { feature } from 'topojson-client';
import { packTopology, type PackTopology } from '../../lib/basemap-pack.ts';
import { runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { installed } from '../../lib/install.ts';
import { parseAirports } from '../../lib/reference/airports.ts';
import { cityPlaces, countryPlaces, type Place } from './places.ts';

interface BasemapConfig {
  out: string;
  ref: string;
}

export const BASEMAP_SPECS: Specs<BasemapConfig> = {
  out: {
    flag: 'out',
    env: 'CONTRAIL_MAP_BASEMAP_OUT',
    kind: 'string',
    default: installed('data/map'),
    help: 'folder to write basemap-10m.json.gz, basemap-10m.bin.gz and places.json into',
  },
  ref: {
    flag: 'ref',
    env: 'CONTRAIL_REFDATA_DIR',
    kind: 'string',
    default: installed('data/ref'),
    help: 'reference data folder (OurAirports airports.csv.gz for the cities)',
  },
};

export const BASEMAP_SOURCE = 'world-atlas/countries-10m.json';

interface Topology {
  type: 'Topology';
  objects: { countries: { type: string; geometries: { type: string; properties?: { name?: string }; id?: string; arcs?: unknown }[] }; land: unknown };
  [k: string]: unknown;
}

/** world-atlas's countries-10m with each country's properties cut to its name (ids and nothing else dropped) */
export function basemapTopology(): Topology {
  const t = JSON.parse(readFileSync(createRequire(import.meta.url).resolve(BASEMAP_SOURCE), 'utf8')) as Topology;
  const geometries = t.objects.countries.geometries.map(({ type, arcs, properties }) => ({ type, arcs, properties: { name: properties?.name ?? '' } }));
  return { ...t, objects: { ...t.objects, countries: { ...t.objects.countries, geometries } } };
}

/** the place names: countries from the topology, cities from OurAirports in `refDir` */
export function basemapPlaces(topo: Topology, refDir: string): { sources: string; places: Place[] } {
  type Geo = { properties: { name: string }; geometry: { type: string; coordinates: any } | null };
  const fc = feature(topo as any, topo.objects.countries as any) as unknown as { features: Geo[] };
  const countries = fc.features.map((f) => ({
    name: f.properties.name,
    polygons: !f.geometry ? [] : f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.type === 'MultiPolygon' ? f.geometry.coordinates : [],
  }));
  const airports = parseAirports(gunzipSync(readFileSync(join(refDir, 'ourairports/airports.csv.gz')))).airports;
  return {
    sources:
      'countries: Natural Earth 1:10m admin-0 (public domain) via world-atlas 2.0.2; cities: OurAirports airports.csv (public domain), municipalities with a large airport',
    places: [...countryPlaces(countries), ...cityPlaces(airports)],
  };
}

async function writeAtomic(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

const command: Command<BasemapConfig> = {
  name: 'map:basemap',
  usage:
    "Usage: npm run --silent map:basemap -- [options]\n\nPrepares the map's offline basemap (Natural Earth 1:10m countries and land) and its place names into data/map/.",
  specs: BASEMAP_SPECS,
  run: async (c) => {
    const topo = basemapTopology();
    console.log(
      `map:basemap: ${BASEMAP_SOURCE}: ${topo.objects.countries.geometries.length} countries; working out the place names (polylabel, OurAirports)...`,
    );
    const places = basemapPlaces(topo, c.ref);
    const raw = Buffer.from(JSON.stringify(topo));
    const gz = gzipSync(raw, { level: 9 });
    await writeAtomic(join(c.out, 'basemap-10m.json.gz'), gz);
    const packed = packTopology(topo as unknown as PackTopology);
    const packedGz = gzipSync(packed, { level: 9 });
    await writeAtomic(join(c.out, 'basemap-10m.bin.gz'), packedGz);
    await writeAtomic(join(c.out, 'places.json'), Buffer.from(`${JSON.stringify(places).replace(/\],\[/g, '],\n[')}\n`));
    const n = (k: string) => places.places.filter((p) => p[3] === k).length;
    console.log(
      `map:basemap: wrote ${join(c.out, 'basemap-10m.json.gz')} (${raw.length.toLocaleString('en')} bytes, ${gz.length.toLocaleString('en')} gzipped), basemap-10m.bin.gz (${packed.length.toLocaleString('en')} bytes, ${packedGz.length.toLocaleString('en')} gzipped) and places.json (${n('country')} countries, ${n('city')} cities)`,
    );
    return 0;
  },
};

runAsMain(import.meta.url, () => runCommand(command, process.argv.slice(2)));
