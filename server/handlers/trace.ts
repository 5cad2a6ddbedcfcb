// GET /v1/trace/{hex}: the last ~30 minutes of one aircraft (spec 2.4, 4.1), from the live trace store.
// 404 is not_observed for a real ICAO address the network has not heard lately, not_found for an
// address in no allocated block (the same rule as the history routes).
import { invalidRequest, notFound, notObserved } from '../../lib/errors.ts';
import { normalise } from '../../artifacts/keys.ts';
import { reply, type Route } from '../http/types.ts';
import type { TraceStore } from '../trace/trace-store.ts';

export interface TraceDeps {
  traces: TraceStore;
  /** true when the hex lies in an allocated ICAO address block; without it every miss is not_observed */
  isKnownHex?: (hex: string) => boolean;
  /** throws 503 stale_snapshot when the live snapshot is stale: a trace is live data too (spec 1 rule 5) */
  assertFresh?: (nowMs: number) => void;
}

export function traceRoutes(deps: TraceDeps): Route[] {
  return [
    {
      pattern: '/v1/trace/:hex',
      bucket: 'trace',
      handler: (req) => {
        const raw = req.params.hex ?? '';
        const hex = normalise.hex(raw);
        if (hex === null) throw invalidRequest(`hex must be 6 hexadecimal characters, e.g. 4b1814; got ${JSON.stringify(raw)}`);
        deps.assertFresh?.(req.nowMs);
        const doc = deps.traces.get(hex, req.nowMs / 1000);
        if (doc) return reply(doc);
        const known = deps.isKnownHex ? deps.isKnownHex(hex) : true;
        const window = `the trace holds the last ${deps.traces.minutes} minutes; a restart forgets`;
        throw known ? notObserved(`${hex}: no position heard recently (${window})`) : notFound(`${hex}: in no allocated ICAO address block`);
      },
    },
  ];
}
