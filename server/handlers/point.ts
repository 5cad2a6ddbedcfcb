// GET /v2/point/{lat}/{lon}/{radius} (spec 4.1): aircraft within the radius (nm, capped at 250),
// nearest first, each with `dst`. now and ctime are unix SECONDS (readsb and adsb.lol send ms).
import type { Route } from '../http/types.ts';
import { parsePoint } from '../live/params.ts';
import type { LiveState } from '../live/state.ts';

/** `timer`: a monotonic millisecond clock for `ptime` (tests pin it). */
export function pointRoutes(live: LiveState, timer: () => number = () => performance.now()): Route[] {
  // the request being answered (handlers run one at a time, to the end): the tail reads it, so no
  // closure is made per request
  let t0 = 0;
  let now = 0;
  // ptime covers the query and the sort; the final byte copy follows it
  const tail = (count: number) => `,"msg":"No error","now":${now},"total":${count},"ctime":${now},"ptime":${Math.round((timer() - t0) * 1000) / 1000}}`;
  return [
    {
      pattern: '/v2/point/:lat/:lon/:radius',
      bucket: 'point',
      handler: (req) => {
        t0 = timer();
        const q = parsePoint(req.params);
        const s = live.current(req.nowMs);
        now = s.now;
        // a view of the thread's scratch buffer (Payload.transient)
        return { body: { raw: s.pointBody(q.lat, q.lon, q.radiusNm, '{"ac":', tail), transient: true } };
      },
    },
  ];
}
