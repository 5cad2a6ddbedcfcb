// the first-party map's browser files, made once when the server starts: web/map/ bundled by
// esbuild in memory (no built file is kept anywhere, so the page always matches the source), and
// the Natural Earth basemap from the world-atlas package. each file is served with its gzip and brotli.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
const ENTRY_CSS = 'web/map/style.css';

/**
 * Natural Earth 1:50m countries as TopoJSON (public domain, world-atlas 2.0.2): 756 KB, about
 * 190 KB gzipped; 1:110m looks coarse past zoom 5, 1:10m is 3.7 MB for detail a sky view never needs.
 */
const BASEMAP = 'world-atlas/countries-50m.json';

const prepared = (raw: Buffer, contentType: string): MapFile => ({ body: staticPayload(raw), contentType });

/** Bundle the entries in one esbuild run (JS: an IIFE for the browsers of the last few years; CSS: with leaflet.css inlined). */
function bundle(): { js: Buffer; css: Buffer } {
  const r = buildSync({
    entryPoints: [installed(ENTRY_JS), installed(ENTRY_CSS)],
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
  const out = (ext: string) => {
    const f = r.outputFiles.find((o) => o.path.endsWith(ext));
    if (!f) throw new Error(`esbuild made no ${ext} file from ${ENTRY_JS} and ${ENTRY_CSS}`);
    return Buffer.from(f.contents);
  };
  return { js: out('.js'), css: out('.css') };
}

let made: Map<string, MapFile> | null = null;

/**
 * The map's files by the name /map/<name> serves them under, made once per process (about 0.5 s);
 * throws (at start-up) when the bundle fails. nothing is written: `outdir` only names the outputs.
 */
export function buildMapFiles(): Map<string, MapFile> {
  if (made) return made;
  const { js, css } = bundle();
  const basemap = readFileSync(createRequire(import.meta.url).resolve(BASEMAP));
  made = new Map([
    ['map.js', prepared(js, 'text/javascript; charset=utf-8')],
    ['map.css', prepared(css, 'text/css; charset=utf-8')],
    ['countries-50m.json', prepared(basemap, 'application/json; charset=utf-8')],
  ]);
  return made;
}
