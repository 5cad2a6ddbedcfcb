// the first-party map (spec 9's `map` tier): GET / (the page), /map/<file> (its script, styles and
// basemap, bundled once at start-up: server/map/bundle.ts) and /v1/map/airports (the airports of the
// published build, prepared once per build). every body is served as the same prepared bytes.
import { notFound } from '../../lib/errors.ts';
import { buildMapFiles, type MapFile } from '../map/bundle.ts';
import { mapAirports } from '../map/airports.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { reply, type Reply, type Route } from '../http/types.ts';
import { gzipSync } from 'node:zlib';
import { staticPayload } from '../http/respond.ts';
import { mapPolicy } from '../http/security.ts';

export interface MapDeps {
  history: HistoryStore;
}

// no inline script or style: the page is the shell, web/map/main.ts builds everything in it
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Contrail: the live sky</title>
<link rel="stylesheet" href="/map/map.css">
<link rel="icon" href="data:,">
</head>
<body>
<div id="banner" role="alert" hidden></div>
<div id="map" aria-label="map of the live sky"></div>
<aside id="panel" hidden></aside>
<noscript>The map needs JavaScript. The data itself is open: see <a href="/docs">/docs</a>.</noscript>
<script src="/map/map.js"></script>
</body>
</html>
`;

const asReply = (f: MapFile): Reply => ({ body: f.body, headers: { 'Content-Type': f.contentType } });

/** /v1/map/airports, prepared once per published build (503 artifact_unavailable before the first) */
function airportsOf(history: HistoryStore): () => Reply {
  let cached: { id: string; reply: Reply } | null = null;
  return () => {
    const l = history.require();
    if (cached?.id !== l.version.id) {
      const r = reply(mapAirports(l.version.id, l.lookup));
      cached = { id: l.version.id, reply: { ...r, body: { raw: r.body.raw!, gz: gzipSync(r.body.raw!) } } };
    }
    return cached.reply;
  };
}

export function mapRoutes(deps: MapDeps): Route[] {
  // bundle now: a broken map source fails the server at start-up, not on the first visitor
  const files = buildMapFiles();
  // the page loads nothing but this server's files (server/http/security.ts)
  const page: Reply = { body: staticPayload(Buffer.from(PAGE)), headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': mapPolicy() } };
  const airports = airportsOf(deps.history);
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
  ];
}
