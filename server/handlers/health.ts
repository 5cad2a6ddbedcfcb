// GET /healthz: the process answers. GET /readyz: it can serve, i.e. the live snapshot is fresh
// (else 503 stale_snapshot) and a history build is loaded (else 503 artifact_unavailable). for
// load balancers and orchestrators: outside the rate limits, never cached.
import { reply, type Route } from '../http/types.ts';
import type { LiveState } from '../live/state.ts';
import type { HistoryStore } from '../history/history-store.ts';

export interface HealthDeps {
  live: LiveState;
  history: HistoryStore;
}

export function healthRoutes(deps: HealthDeps): Route[] {
  const status = (nowMs: number) => ({
    status: 'ok' as const,
    snapshot_age_s: ((a) => (a === null ? null : Math.round(a * 10) / 10))(deps.live.ageS(nowMs)),
    history_build: deps.history.current?.version.id ?? null,
  });
  return [
    { pattern: '/healthz', bucket: 'health', handler: (req) => reply(status(req.nowMs)) },
    {
      pattern: '/readyz',
      bucket: 'health',
      handler: (req) => {
        deps.live.current(req.nowMs);
        deps.history.require();
        return reply(status(req.nowMs));
      },
    },
  ];
}
