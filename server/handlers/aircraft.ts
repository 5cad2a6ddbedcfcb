// GET /v1/aircraft[?bbox=minLon,minLat,maxLon,maxLat] (spec 4.1). without a bbox the prepared
// whole-network body (and its gzip, made once per snapshot) is sent as it is.
import type { Reply, Route } from '../http/types.ts';
import { acceptedCodings } from '../http/respond.ts';
import { parseBboxQuery } from '../live/params.ts';
import type { LiveState } from '../live/state.ts';

export function aircraftRoutes(live: LiveState): Route[] {
  return [
    {
      pattern: '/v1/aircraft',
      bucket: 'aircraft',
      handler: (req): Reply => {
        // validate before the staleness check: a malformed request is 422 whatever the feed does
        const bbox = parseBboxQuery(req.query);
        const s = live.current(req.nowMs);
        if (bbox) return { body: s.bboxPayload(bbox) };
        const raw = s.body;
        const ok = acceptedCodings(req.headers['accept-encoding']);
        // brotli is made with the snapshots while clients ask for it: the first asker gets gzip
        const br = ok.br ? s.brotliReady() : undefined;
        if (ok.br) live.noteBrotliWanted(req.nowMs);
        if (br) return { body: { raw, br } };
        // a client that takes brotli alone gets brotli too, never the whole body as it is
        if (ok.br && !ok.gzip) return { body: { raw, br: s.brotliNow() } };
        if (!ok.gzip) return { body: { raw } };
        // never let the boundary compress 2-7 MB per request: the one shared gzip, made before the
        // snapshot went live (LiveState.acceptWhenReady), or once here when it was not (tests, benches)
        return { body: { raw, gz: s.gzipReady() ?? s.gzipNow() } };
      },
    },
  ];
}
