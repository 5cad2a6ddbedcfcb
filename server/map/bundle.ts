// the first-party map's browser files, made once when the server starts: web/map/ bundled by
// esbuild in memory (no built file is kept anywhere, so the page always matches the source), and
// the offline basemap (its TopoJSON, and packed for the page) and its place names prepared once by
// `npm run map:basemap` into data/map/ (build/map/basemap.ts). each file is served with its gzip (and
// brotli, but the basemap's: 3.7 MB would cost seconds to compress at every start, so the committed gzips go out).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { installed } from '../../lib/install.ts';
import { staticPayload } from '../http/respond.ts';
import type { Payload } from '../http/types.ts';

export interface MapFile {
  body: Payload;
  contentType: string;
}

/** the browser code's entry points (web/map/), bundled with what they import from node_modules */
const ENTRY_JS = 'web/map/main.ts';
/** the sky worker (web/map/sky-worker.ts): the stream parsed and the aircraft drawn off the page's main thread */
const ENTRY_WORKER = 'web/map/sky-worker.ts';
const ENTRY_CSS = 'web/map/style.css';

/**
 * Natural Earth 1:10m countries and land as TopoJSON (public domain, world-atlas 2.0.2): 3.7 MB,
 * 916 KB gzipped. 1:50m (233 KB gzipped) put Sydney's seaplane bases in the sea at zoom 9.
 */
const OFFLINE_TOPOLOGY = 'basemap-10m.json';
/** the same packed for the page (lib/basemap-pack.ts): no JSON.parse before the first tile, 684 KB gzipped */
export const OFFLINE_BASEMAP = 'basemap-10m.bin';
/** countries and large cities, [name, lat, lon, kind, rank] (build/map/places.ts) */
export const OFFLINE_PLACES = 'places.json';

const prepared = (raw: Buffer, contentType: string): MapFile => ({ body: staticPayload(raw), contentType });

/** Bundle the entries in one esbuild run (JS: IIFEs for the browsers of the last few years; CSS: with leaflet.css inlined). */
function bundle(): { js: Buffer; worker: Buffer; css: Buffer } {
  const r = buildSync({
    entryPoints: [installed(ENTRY_JS), installed(ENTRY_WORKER), installed(ENTRY_CSS)],
    outdir: installed('var/map'),
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    // leaflet.css names its few control images: inline them, so the page needs no other file
    loader: { '.png': 'dataurl', '.svg': 'dataurl' },
    absWorkingDir: installed('.'),
    logLevel: 'silent',
    legalComments: 'inline',
  });
  const out = (name: string) => {
    const f = r.outputFiles.find((o) => o.path.endsWith(`/${name}`));
    if (!f) throw new Error(`esbuild made no ${name} from ${ENTRY_JS}, ${ENTRY_WORKER} and ${ENTRY_CSS}`);
    return Buffer.from(f.contents);
  };
  return { js: out('main.js'), worker: out('sky-worker.js'), css: out('style.css') };
}

let made: Map<string, MapFile> | null = null;

/**
 * The map's files by the name /map/<name> serves them under, made once per process (about 0.5 s);
 * throws (at start-up) when the bundle fails. nothing is written: `outdir` only names the outputs.
 */
export function buildMapFiles(): Map<string, MapFile> {
  if (made) return made;
  const { js, worker, css } = bundle();
  const gz = readFileSync(installed(`data/map/${OFFLINE_TOPOLOGY}.gz`));
  const packedGz = readFileSync(installed(`data/map/${OFFLINE_BASEMAP}.gz`));
  const places = readFileSync(installed(`data/map/${OFFLINE_PLACES}`));
  const json = 'application/json; charset=utf-8';
  made = new Map([
    ['map.js', prepared(js, 'text/javascript; charset=utf-8')],
    ['sky-worker.js', prepared(worker, 'text/javascript; charset=utf-8')],
    ['map.css', prepared(css, 'text/css; charset=utf-8')],
    [OFFLINE_TOPOLOGY, { body: { raw: gunzipSync(gz), gz }, contentType: json }],
    [OFFLINE_BASEMAP, { body: { raw: gunzipSync(packedGz), gz: packedGz }, contentType: 'application/octet-stream' }],
    [OFFLINE_PLACES, prepared(places, json)],
  ]);
  return made;
}
