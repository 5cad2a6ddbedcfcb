// GET /v1/estimated (spec 2.3, 4.1; tier map): aircraft that dropped out of coverage while
// cruising, flown on by the estimate method. the list is derived from the live feed, so a stale
// feed is a 503 stale_snapshot like every live route: otherwise an outage would show the whole sky
// as estimated 90 s later. the body is built once per snapshot and shared by every request.
import { gzipSync } from 'node:zlib';
import { staleSnapshot } from '../../lib/errors.ts';
import type { Accuracy } from '../../lib/estimate/accuracy.ts';
import { METHOD_ID, METHOD_NOTE } from '../../lib/estimate/fly.ts';
import type { Tracker } from '../estimate/tracker.ts';
import { GZIP_MIN_BYTES } from '../http/respond.ts';
import type { Payload, Route } from '../http/types.ts';

export interface EstimatedDeps {
  tracker: Tracker;
  /** the latest night's accuracy for the method in use; null before the first night */
  accuracy: () => Accuracy | null;
  /** throws 503 stale_snapshot when the live snapshot is too old (e.g. `(ms) => void live.current(ms)`) */
  assertFresh: (nowMs: number) => void;
}

/** The envelope of spec 2.3 at the tracker's newest snapshot time. */
function estimatedDocument(tracker: Tracker, accuracy: Accuracy | null, generatedAt: number) {
  return {
    generated_at: generatedAt,
    method: METHOD_ID,
    // spec 2.3 makes `method` a string: the words travel in an added field
    method_note: METHOD_NOTE,
    accuracy,
    aircraft: tracker.list(generatedAt),
  };
}

export function estimatedRoutes(deps: EstimatedDeps): Route[] {
  let cached: { at: number; accuracy: Accuracy | null; body: Payload } | null = null;
  return [
    {
      pattern: '/v1/estimated',
      bucket: 'estimated',
      handler: (req) => {
        deps.assertFresh(req.nowMs);
        const at = deps.tracker.lastSnapshotS;
        if (at === null) throw staleSnapshot('no live snapshot has reached the estimator yet; retry shortly', 5);
        const accuracy = deps.accuracy();
        if (!cached || cached.at !== at || cached.accuracy !== accuracy) {
          const raw = Buffer.from(JSON.stringify(estimatedDocument(deps.tracker, accuracy, at)));
          cached = { at, accuracy, body: raw.length >= GZIP_MIN_BYTES ? { raw, gz: gzipSync(raw) } : { raw } };
        }
        return { body: cached.body };
      },
    },
  ];
}
