// GET /v1/now: the counts object (spec 2.2). small, so built per request from prepared counts.
import { reply, type Route } from '../http/types.ts';
import type { LiveState } from '../live/state.ts';

export interface NowDeps {
  live: LiveState;
  /** feeders connected now; null while presence is unavailable (never 0 for that case) */
  stationCount: () => number | null;
  /** newest day in the history archive (YYYY-MM-DD); null while the archive is unavailable */
  archiveThrough: () => string | null;
}

export function nowRoutes(deps: NowDeps): Route[] {
  return [
    {
      pattern: '/v1/now',
      bucket: 'now',
      handler: (req) => {
        const s = deps.live.current(req.nowMs);
        return reply({
          aircraft_count: s.total,
          aircraft_with_pos: s.withPosition,
          station_count: deps.stationCount(),
          generated_at: s.now,
          archive_through: deps.archiveThrough(),
        });
      },
    },
  ];
}
