// the first-party map (spec 9's `map` tier): GET / (the page), /map/<file> (its script, styles,
// offline basemap and place names, prepared once at start-up: server/map/bundle.ts),
// /v1/map/airports (the airports of the published build, prepared once per build), /v1/map/config
// (the basemaps the configuration offers), /v1/map/types (silhouette and name per type designator)
// and /v1/map/extent (where the network's aircraft are, for the first view). docs/api.md "The map".
import { notFound } from '../../lib/errors.ts';
import type { NamedAirport } from '../../lib/reference/fields.ts';
import { installed } from '../../lib/install.ts';
import { buildMapFiles, OFFLINE_BASEMAP, OFFLINE_PLACES, type MapFile } from '../map/bundle.ts';
import { mapAirports } from '../map/airports.ts';
import { networkExtent } from '../map/extent.ts';
import { loadMapTypes } from '../map/types.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { LiveState } from '../live/state.ts';
import type { PreparedSnapshot } from '../live/snapshot.ts';
import { reply, type Reply, type Route } from '../http/types.ts';
import { gzipSync } from 'node:zlib';
import { staticPayload } from '../http/respond.ts';
import { mapPolicy, originOf } from '../http/security.ts';

/** the raster tile layer the map offers, or null for the offline basemap alone (--map-tiles offline) */
interface MapTiles {
  name: string;
  url: string;
  attribution: string;
}

/** the origin of the configured tile host, for the page's img-src; none for the offline basemap alone */
function tileOrigins(tiles: MapTiles | null | undefined): string[] {
  if (!tiles) return [];
  // a template's {s} subdomain placeholder becomes the CSP's wildcard host label
  const origin = originOf(tiles.url.replace(/\{s\}/g, 'a').replace(/[{}]/g, ''));
  if (!origin) return [];
  return [/\{s\}/.test(tiles.url) ? origin.replace('//a.', '//*.') : origin];
}

export interface MapDeps {
  history: HistoryStore;
  live?: LiveState;
  tiles?: MapTiles | null;
  /** IATA code -> OurAirports kind and name (lib/reference/fields.ts loadServerAirports) */
  airportNames?: ReadonlyMap<string, NamedAirport>;
}

// no inline script or style: the page is the shell, web/map/main.ts builds everything in it. the
// configuration and the offline basemap (always loaded, basemap.ts) are preloaded so they arrive
// while the script does: the basemap's fetch no longer waits for the script and the configuration
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Contrail: the live sky</title>
<link rel="stylesheet" href="/map/map.css">
<link rel="preload" href="/v1/map/config" as="fetch" crossorigin="anonymous">
<link rel="preload" href="/map/${OFFLINE_BASEMAP}" as="fetch" crossorigin="anonymous">
<link rel="preload" href="/map/${OFFLINE_PLACES}" as="fetch" crossorigin="anonymous">
<link rel="icon" href="data:,">
</head>
<body>
<div id="banner" role="alert" hidden></div>
<main id="main">
<div id="map" aria-label="map of the live sky"></div>
<aside id="side" aria-label="aircraft in view"></aside>
<aside id="panel" hidden></aside>
</main>
<noscript>The map needs JavaScript. The data itself is open: see <a href="/docs">/docs</a>.</noscript>
<script src="/map/map.js"></script>
</body>
</html>
`;

const OFFLINE_ATTRIBUTION =
  'Basemap: <a href="https://www.naturalearthdata.com/">Natural Earth</a> (public domain); cities: <a href="https://ourairports.com/data/">OurAirports</a> (public domain)';

const asReply = (f: MapFile): Reply => ({ body: f.body, headers: { 'Content-Type': f.contentType } });

/** a document made once, its gzip with it */
const prepared = (doc: unknown): Reply => {
  const r = reply(doc);
  return { ...r, body: { raw: r.body.raw!, gz: gzipSync(r.body.raw!) } };
};

/** /v1/map/airports, prepared once per published build (503 artifact_unavailable before the first) */
function airportsOf(history: HistoryStore, named: ReadonlyMap<string, NamedAirport> | undefined): () => Reply {
  let cached: { id: string; reply: Reply } | null = null;
  return () => {
    const l = history.require();
    if (cached?.id !== l.version.id) cached = { id: l.version.id, reply: prepared(mapAirports(l.version.id, l.lookup, named)) };
    return cached.reply;
  };
}

/** /v1/map/extent, worked out once per snapshot (503 stale_snapshot when the snapshot is stale) */
function extentOf(live: () => LiveState | undefined): (nowMs: number) => Reply {
  const made = new WeakMap<PreparedSnapshot, Reply>();
  return (nowMs) => {
    const state = live();
    if (!state) throw new Error('the map extent needs the live state');
    const s = state.current(nowMs);
    let r = made.get(s);
    if (!r) {
      const lat = new Float64Array(s.total);
      const lon = new Float64Array(s.total);
      for (let i = 0; i < s.total; i++) [lat[i], lon[i]] = [s.latOf(i), s.lonOf(i)];
      made.set(s, (r = reply({ generated_at: s.now, ...networkExtent(lat, lon) })));
    }
    return r;
  };
}

export function mapRoutes(deps: MapDeps): Route[] {
  // bundle now: a broken map source fails the server at start-up, not on the first visitor
  const files = buildMapFiles();
  // the page loads nothing but this server's files and the configured tile host (server/http/security.ts)
  const page: Reply = {
    body: staticPayload(Buffer.from(PAGE)),
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': mapPolicy(tileOrigins(deps.tiles)) },
  };
  const airports = airportsOf(deps.history, deps.airportNames);
  const config = prepared({
    tiles: deps.tiles ?? null,
    offline: { basemap: `/map/${OFFLINE_BASEMAP}`, places: `/map/${OFFLINE_PLACES}`, attribution: OFFLINE_ATTRIBUTION },
  });
  const types = prepared(loadMapTypes(installed('data/ref')));
  const extent = extentOf(() => deps.live);
  return [
    { pattern: '/', bucket: 'map', handler: () => page },
    {
      pattern: '/map/*',
      bucket: 'map',
      handler: (req) => {
        // exact names only: nothing from the path ever reaches the file system
        const f = files.get(req.params['*'] ?? '');
        if (!f) throw notFound(`no map file ${JSON.stringify(req.params['*'] ?? '')}; open / for the map`);
        return asReply(f);
      },
    },
    { pattern: '/v1/map/airports', bucket: 'map', handler: () => airports() },
    { pattern: '/v1/map/config', bucket: 'map', handler: () => config },
    { pattern: '/v1/map/types', bucket: 'map', handler: () => types },
    { pattern: '/v1/map/extent', bucket: 'map', handler: (req) => extent(req.nowMs) },
  ];
}
