// GET /v1/routes?callsigns=A,B,... (spec 2.8): up to 80 callsigns, answered from the routes table
// of the published build, held in memory. Observed routes first, the checked catalog where observation is silent.
import { invalidRequest } from '../../lib/errors.ts';
import { normalise } from '../../artifacts/keys.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { reply, type Route } from '../http/types.ts';

const MAX_CALLSIGNS = 80;
const MAX_QUERY = 2048;

/** Parse `callsigns=A,B,...` (also accepted repeated: callsigns=A&callsigns=B). Throws 422 with the fix. */
function parseCallsigns(query: string): string[] {
  if (query.length > MAX_QUERY) throw invalidRequest(`query longer than ${MAX_QUERY} characters`);
  const params = new URLSearchParams(query);
  const raw = params.getAll('callsigns').flatMap((v) => v.split(','));
  if (raw.length === 0) throw invalidRequest('give callsigns as ?callsigns=SWR123,DLH4AB (up to 80, comma-separated)');
  const out: string[] = [];
  for (const r of raw) {
    const cs = normalise.callsign(r);
    if (!cs) throw invalidRequest(`${JSON.stringify(r)} is not a callsign (2 to 8 letters or digits)`);
    if (!out.includes(cs)) out.push(cs);
  }
  if (out.length > MAX_CALLSIGNS) throw invalidRequest(`at most ${MAX_CALLSIGNS} callsigns per call; got ${out.length}`);
  return out;
}

export function routesRoutes(deps: { history: HistoryStore }): Route[] {
  return [
    {
      pattern: '/v1/routes',
      bucket: 'routes',
      handler: (req) => {
        const callsigns = parseCallsigns(req.query);
        const routes: Record<string, [string | null, string | null] | null> = {};
        for (const cs of callsigns) {
          const r = deps.history.route(cs)?.entry;
          // spec 2.8 pairs are whole: a route with an end nobody could supply answers null
          routes[cs] = r && r[0] && r[1] ? [r[0], r[1]] : null;
        }
        return reply({ routes });
      },
    },
  ];
}
