// GET /v1/stations (the public roster, spec 2.7) and GET /v1/stations/{uuid} (a station's private status).
import { gzipSync } from 'node:zlib';
import { invalidRequest, notFound } from '../../lib/errors.ts';
import type { Payload, Route } from '../http/types.ts';
import { reply } from '../http/types.ts';
import { canonicalUuid, type StationKeys } from '../stations/ids.ts';
import type { Roster } from '../stations/roster.ts';

export interface StationRouteDeps {
  roster: Roster;
  keys: StationKeys;
}

export function stationRoutes(deps: StationRouteDeps): Route[] {
  const { roster, keys } = deps;
  // the roster body changes only with the roster's version or when presence turns stale: prepare it once per state
  let cached: { tag: string; body: Payload } | null = null;

  return [
    {
      pattern: '/v1/stations',
      bucket: 'stations',
      handler: (req) => {
        const tag = `${roster.version}:${roster.presenceAvailable(req.nowMs)}`;
        if (cached?.tag !== tag) {
          const raw = Buffer.from(JSON.stringify({ stations: roster.publicList(req.nowMs) }));
          cached = { tag, body: { raw, gz: gzipSync(raw) } };
        }
        return { body: cached.body };
      },
    },
    {
      pattern: '/v1/stations/:uuid',
      bucket: 'station',
      handler: (req) => {
        // the detail never echoes the input: it is meant to be a secret
        const uuid = canonicalUuid(req.params.uuid ?? '');
        if (uuid === null) throw invalidRequest("uuid must be the station's full UUID: 32 hex digits, as 8-4-4-4-12 with dashes or without");
        // hash first, then a scan over every stored key: the same work for a known and an unknown UUID
        const status = roster.status(keys.key(uuid), req.nowMs);
        if (status === null) throw notFound('no station with this UUID; a station is known once the feeder list has listed it as connected');
        return reply(status, { cacheControl: 'private, no-store' });
      },
    },
  ];
}
