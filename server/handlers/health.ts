// GET /healthz: the process answers, and says which parts it is configured to serve and their state.
// GET /readyz: it can serve what it is configured to serve: a fresh live snapshot where a feed is
// configured (else 503 stale_snapshot), a loaded history build where an artifact tree is (else 503
// artifact_unavailable). a live-only replica (no --artifacts: history comes from the bucket and
// CDN) is ready while its feed is fresh. for load balancers: outside the rate limits, never cached.
import { staleSnapshot } from '../../lib/errors.ts';
import { reply, type Route } from '../http/types.ts';
import type { LiveState } from '../live/state.ts';
import type { HistoryStore } from '../history/history-store.ts';

export interface HealthDeps {
  live: LiveState;
  history: HistoryStore;
  /** the parts this process serves: a feed (--feed) and a published tree (--artifacts) */
  configured: { live: boolean; history: boolean };
}

type LivePart = 'fresh' | 'stale' | 'waiting' | 'not_configured';
type HistoryPart = 'loaded' | 'unavailable' | 'not_configured';

export function healthRoutes(deps: HealthDeps): Route[] {
  const { live, history, configured } = deps;
  const liveState = (nowMs: number): LivePart => {
    if (!configured.live) return 'not_configured';
    const age = live.ageS(nowMs);
    return age === null ? 'waiting' : age > live.maxAgeS ? 'stale' : 'fresh';
  };
  const historyState = (): HistoryPart => (!configured.history ? 'not_configured' : history.current ? 'loaded' : 'unavailable');
  const status = (nowMs: number) => ({
    status: 'ok' as const,
    snapshot_age_s: ((a) => (a === null ? null : Math.round(a * 10) / 10))(live.ageS(nowMs)),
    history_build: history.current?.version.id ?? null,
    parts: {
      live: { configured: configured.live, state: liveState(nowMs) },
      history: { configured: configured.history, state: historyState() },
    },
  });
  return [
    { pattern: '/healthz', bucket: 'health', handler: (req) => reply(status(req.nowMs)) },
    {
      pattern: '/readyz',
      bucket: 'health',
      handler: (req) => {
        if (!configured.live && !configured.history) {
          throw staleSnapshot('this process has neither a feed (--feed) nor a published tree (--artifacts): it serves nothing', live.retryAfterS);
        }
        // each throws its 503 when its part does not serve
        if (configured.live) live.current(req.nowMs);
        if (configured.history) history.require();
        return reply(status(req.nowMs));
      },
    },
  ];
}
