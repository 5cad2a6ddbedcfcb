// the readsb /v2 search dialect, as adsb.lol, airplanes.live and adsb.fi serve it, so clients
// written for them work unchanged: /v2/hex/{hex}, /v2/callsign/{callsign}, /v2/reg/{reg},
// /v2/type/{designator}, /v2/sqk/{squawk}, /v2/mil. the envelope of /v2/point (ac, msg, now,
// total, ctime, ptime; now and ctime in unix SECONDS), without dst. case-insensitive; keys found
// by the snapshot's prepared index (parts/search-index.ts). tier candidate, bucket `search`.
import { invalidRequest } from '../../lib/errors.ts';
import type { Route } from '../http/types.ts';
import type { LiveState } from '../live/state.ts';
import type { PreparedSnapshot } from '../live/snapshot.ts';
import type { SearchField } from '../parts/search-index.ts';

export interface SearchDeps {
  live: LiveState;
  /** true when the hex lies in a military ICAO address block (the shipped code blocks) */
  isMilitaryHex: (hex: string) => boolean;
  /** a monotonic millisecond clock for `ptime` (tests pin it) */
  timer?: () => number;
}

interface Key {
  field: SearchField;
  param: string;
  /** the normalised key, or null when malformed */
  norm: (s: string) => string | null;
  example: string;
  what: string;
}

const KEYS: Key[] = [
  { field: 'hex', param: 'hex', norm: (s) => (/^[0-9a-f]{6}$/i.test(s) ? s.toLowerCase() : null), example: '4b1814', what: '6 hexadecimal characters' },
  {
    field: 'callsign',
    param: 'callsign',
    norm: (s) => (/^[A-Z0-9]{1,8}$/i.test(s) ? s.toUpperCase() : null),
    example: 'SWR100',
    what: '1 to 8 letters or digits',
  },
  {
    field: 'reg',
    param: 'reg',
    norm: (s) => (/^[A-Z0-9-]{1,10}$/i.test(s) ? s.toUpperCase() : null),
    example: 'HB-JVL',
    what: '1 to 10 letters, digits or dashes',
  },
  {
    field: 'type',
    param: 'designator',
    norm: (s) => (/^[A-Z0-9]{2,4}$/i.test(s) ? s.toUpperCase() : null),
    example: 'A320',
    what: 'an ICAO type designator of 2 to 4 letters or digits',
  },
  { field: 'squawk', param: 'squawk', norm: (s) => (/^[0-7]{4}$/.test(s) ? s : null), example: '7700', what: '4 octal digits' },
];
const PATHS: Record<SearchField, string> = {
  hex: '/v2/hex/:hex',
  callsign: '/v2/callsign/:callsign',
  reg: '/v2/reg/:reg',
  type: '/v2/type/:designator',
  squawk: '/v2/sqk/:squawk',
};

export function searchRoutes(deps: SearchDeps): Route[] {
  const timer = deps.timer ?? (() => performance.now());
  // the military list of a snapshot, made once for it
  const military = new WeakMap<PreparedSnapshot, number[]>();
  const militaryOf = (s: PreparedSnapshot) => {
    let ids = military.get(s);
    if (!ids) {
      ids = [];
      for (let i = 0; i < s.total; i++) if (deps.isMilitaryHex(s.hexOf(i))) ids.push(i);
      military.set(s, ids);
    }
    return ids;
  };
  const answer = (s: PreparedSnapshot, ids: readonly number[], t0: number) => {
    const ptime = Math.round((timer() - t0) * 1000) / 1000;
    return { body: { raw: s.listBody(ids, '{"ac":[', `],"msg":"No error","now":${s.now},"total":${ids.length},"ctime":${s.now},"ptime":${ptime}}`) } };
  };
  return [
    ...KEYS.map(
      (k): Route => ({
        pattern: PATHS[k.field],
        bucket: 'search',
        handler: (req) => {
          const t0 = timer();
          const raw = req.params[k.param] ?? '';
          const key = k.norm(raw);
          if (key === null) throw invalidRequest(`${k.param} must be ${k.what}, e.g. ${k.example}; got ${JSON.stringify(raw.slice(0, 40))}`);
          const s = deps.live.current(req.nowMs);
          return answer(s, s.search.find(k.field, key), t0);
        },
      }),
    ),
    {
      pattern: '/v2/mil',
      bucket: 'search',
      handler: (req) => {
        const t0 = timer();
        const s = deps.live.current(req.nowMs);
        return answer(s, militaryOf(s), t0);
      },
    },
  ];
}
