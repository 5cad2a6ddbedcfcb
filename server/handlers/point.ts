// GET /v2/point/{lat}/{lon}/{radius} (spec 4.1): aircraft within the radius (nm, capped at 250),
// nearest first, each with `dst`. now and ctime are unix SECONDS (readsb and adsb.lol send ms).
import type { Route } from '../http/types.ts';
import { parsePoint } from '../live/params.ts';
import type { LiveState } from '../live/state.ts';

/** `timer`: a monotonic millisecond clock for `ptime` (tests pin it). */
export function pointRoutes(live: LiveState, timer: () => number = () => performance.now()): Route[] {
  return [
    {
      pattern: '/v2/point/:lat/:lon/:radius',
      bucket: 'point',
      handler: (req) => {
        const t0 = timer();
        const q = parsePoint(req.params);
        const s = live.current(req.nowMs);
        // ptime covers the query and the sort; the final byte copy follows it
        const tail = (count: number) => {
          const ptime = Math.round((timer() - t0) * 1000) / 1000;
          return `,"msg":"No error","now":${s.now},"total":${count},"ctime":${s.now},"ptime":${ptime}}`;
        };
        return { body: { raw: s.pointBody(q.lat, q.lon, q.radiusNm, '{"ac":', tail) } };
      },
    },
  ];
}
