// the requests the contract test (test/server/contract.slow.test.ts) sends each route of the route table:
// paths that answer on a server with a fresh feed and a whole published tree (each then sent in every
// variant: methods, encodings, validators, the preflight), and cases with the status and code they
// must get. keyed by the route's pattern: a route with no entry here fails the test, by name.
import type { ErrorCode } from '../../lib/errors.ts';

export interface Case {
  /** the path with its query, percent-encoded as sent */
  path: string;
  method?: string;
  headers?: Record<string, string>;
  expect: number;
  code?: ErrorCode;
}

export interface RouteCases {
  /** paths answered with `ok` on the fresh server, each sent in every variant */
  good: string[];
  /** the status of a plain GET of a good path: 200, or 426 for the WebSocket route */
  ok?: number;
  cases?: Case[];
}

/** what the fixtures hold, for the paths below */
export interface Facts {
  /** an aircraft of the feed with a position, a callsign, a registration, a type and a squawk */
  hex: string;
  flight: string;
  reg: string;
  type: string;
  squawk: string;
  lat: number;
  lon: number;
  /** a station the feeder list shows connected */
  uuid: string;
  /** the researchers' files the bundle index lists */
  logPaths: string[];
  tablePaths: string[];
  /** the flights and points days */
  dayTablePaths: string[];
  docPaths: string[];
}

const e422 = (path: string): Case => ({ path, expect: 422, code: 'invalid_request' });
const e404 = (path: string, code: ErrorCode = 'not_found'): Case => ({ path, expect: 404, code });

/** in a CH block (allocated), in neither the feed nor the tree */
const UNHEARD = '4b1899';
/** in no allocated ICAO block */
const UNALLOCATED = 'ffffff';

const searches = (prefix: string, good: string[], bad: string[]): RouteCases => ({
  good: good.map((g) => `${prefix}/${g}`),
  cases: bad.map((b) => e422(`${prefix}/${b}`)),
});

export function contractCases(f: Facts): Record<string, RouteCases> {
  const airframe = (base: string): RouteCases => ({
    good: [`${base}/4b1814`, `${base}/4B1815`, `${base}/a1b2c3`],
    cases: [e404(`${base}/${UNHEARD}`, 'not_observed'), e404(`${base}/${UNALLOCATED}`), e422(`${base}/zzzzzz`), e422(`${base}/4b18`), e422(`${base}/4b18140`)],
  });
  const range = (path: string): Case[] => [
    { path, headers: { range: 'bytes=-4' }, expect: 206 },
    { path, headers: { range: 'bytes=0-9' }, expect: 206 },
    // several ranges: the whole file
    { path, headers: { range: 'bytes=0-1,4-5' }, expect: 200 },
    { path, headers: { range: 'bytes=999999999-' }, expect: 416, code: 'invalid_request' },
    { path, headers: { range: 'bytes=x-y' }, expect: 416, code: 'invalid_request' },
  ];
  return {
    '/v1/now': { good: ['/v1/now', '/v1/now?probe=1'] },
    '/v1/aircraft': {
      good: ['/v1/aircraft', '/v1/aircraft?bbox=-180,-90,180,90', '/v1/aircraft?bbox=170,60,-170,80'],
      cases: [
        e422('/v1/aircraft?bbox=1,2,3'),
        e422('/v1/aircraft?bbox=a,b,c,d'),
        e422('/v1/aircraft?bbox=1,2,3,4,5'),
        e422(`/v1/aircraft?bbox=${'1'.repeat(81)}`),
        e422('/v1/aircraft?bbox=0,95,1,96'),
      ],
    },
    // a plain GET is refused with 426; the upgrade itself (101) and its refusals are driven apart
    '/v1/stream': { good: ['/v1/stream', '/v1/stream?bbox=5,45,15,55'], ok: 426, cases: [e422('/v1/stream?bbox=1,2,3'), e422('/v1/stream?bbox=x')] },
    '/v1/estimated': { good: ['/v1/estimated', '/v1/estimated?probe=1'] },
    '/v1/trace/:hex': {
      good: [`/v1/trace/${f.hex}`, `/v1/trace/${f.hex.toUpperCase()}`],
      cases: [
        e404(`/v1/trace/${UNHEARD}`, 'not_observed'),
        e404(`/v1/trace/${UNALLOCATED}`),
        e422('/v1/trace/zzzzzz'),
        e422('/v1/trace/12345'),
        e422('/v1/trace/1234567'),
      ],
    },
    '/v2/point/:lat/:lon/:radius': {
      good: [`/v2/point/${f.lat}/${f.lon}/50`, '/v2/point/0/0/1', `/v2/point/${f.lat}/${f.lon}/1000`],
      cases: [e422('/v2/point/91/0/10'), e422('/v2/point/0/181/10'), e422('/v2/point/0/0/-1'), e422('/v2/point/abc/0/10'), e422('/v2/point/0/0/NaN')],
    },
    '/v2/hex/:hex': searches('/v2/hex', [f.hex, '000000'], ['xyz', '1234567']),
    '/v2/callsign/:callsign': searches('/v2/callsign', [f.flight, 'ZZZ1'], ['ABCDEFGHI', 'SWR_1']),
    '/v2/reg/:reg': searches('/v2/reg', [f.reg, 'HB-JVL'], ['HB_JVL', 'ABCDEFGHIJK']),
    '/v2/type/:designator': searches('/v2/type', [f.type, 'c172'], ['A', 'ABCDE']),
    '/v2/sqk/:squawk': searches('/v2/sqk', [f.squawk, '7700'], ['8888', '123']),
    '/v2/mil': { good: ['/v2/mil', '/v2/mil?probe=1'] },
    '/v1/airframes/:hex': airframe('/v1/airframes'),
    '/v1/airframe/:hex': airframe('/v1/airframe'),
    // 4b1814 flies on both days of the contract tree (test/helpers/publish-fixture.ts, seeded)
    '/v1/flights/:hex/:date': {
      good: ['/v1/flights/4b1814/2026-11-20', '/v1/flights/4B1814/2026-11-21'],
      cases: [
        e404('/v1/flights/4b1814/2020-01-01', 'not_observed'),
        e404(`/v1/flights/${UNHEARD}/2026-11-20`),
        e404(`/v1/flights/${UNALLOCATED}/2026-11-20`),
        e422('/v1/flights/zzzzzz/2026-11-20'),
        e422('/v1/flights/4b1814/2026-13-01'),
        e422('/v1/flights/4b1814/2026-02-30'),
        e422('/v1/flights/4b1814/20261120'),
      ],
    },
    // Zurich has movements on both days of the contract tree, under either spelling
    '/v1/airports/:code/movements/:date': {
      good: ['/v1/airports/ZRH/movements/2026-11-20', '/v1/airports/lszh/movements/2026-11-21'],
      cases: [
        e404('/v1/airports/ZRH/movements/2020-01-01', 'not_observed'),
        e404('/v1/airports/XQX/movements/2026-11-20'),
        e404('/v1/airports/KJFK/movements/2026-11-20'),
        e422('/v1/airports/A/movements/2026-11-20'),
        e422('/v1/airports/ABCDE/movements/2026-11-20'),
        e422('/v1/airports/ZRH/movements/2026-02-30'),
        e422('/v1/airports/ZRH/movements/20261120'),
      ],
    },
    '/v1/airports/:code': {
      good: ['/v1/airports/ZRH', '/v1/airports/LSZH', '/v1/airports/lhr'],
      cases: [e404('/v1/airports/XQX'), e404('/v1/airports/KJFK'), e422('/v1/airports/A'), e422('/v1/airports/ABCDE')],
    },
    '/v1/alliances/:slug': {
      good: ['/v1/alliances/star-alliance', '/v1/alliances/oneworld'],
      cases: [e404('/v1/alliances/skyteam'), e422('/v1/alliances/Star_Alliance'), e422('/v1/alliances/-a')],
    },
    '/v1/alliances/:slug/routes': {
      good: ['/v1/alliances/star-alliance/routes', '/v1/alliances/oneworld/routes'],
      cases: [e404('/v1/alliances/skyteam/routes'), e422('/v1/alliances/Star_Alliance/routes')],
    },
    '/v1/routes': {
      good: ['/v1/routes?callsigns=SWR100,BAW201', '/v1/routes?callsigns=SWR100&callsigns=ZZZ999', '/v1/routes?callsigns=swr100'],
      cases: [
        e422('/v1/routes'),
        e422('/v1/routes?callsigns=SWR-1'),
        e422(`/v1/routes?callsigns=${Array.from({ length: 81 }, (_, i) => `AB${i}`).join(',')}`),
        e422(`/v1/routes?callsigns=${'A'.repeat(2100)}`),
      ],
    },
    '/v1/route/:callsign': {
      good: ['/v1/route/SWR100', '/v1/route/baw201'],
      cases: [e404('/v1/route/SWR999', 'not_observed'), e404('/v1/route/ZZZ999'), e422('/v1/route/A'), e422('/v1/route/ABCDEFGHI')],
    },
    '/v1/refdata/aircraft/:hex': {
      good: ['/v1/refdata/aircraft/4b1814', '/v1/refdata/aircraft/400ABC'],
      cases: [e404(`/v1/refdata/aircraft/${UNHEARD}`, 'not_observed'), e404(`/v1/refdata/aircraft/${UNALLOCATED}`), e422('/v1/refdata/aircraft/4b18')],
    },
    '/v1/refdata/airlines': { good: ['/v1/refdata/airlines', '/v1/refdata/airlines?probe=1'] },
    '/v1/refdata/airlines/:icao': {
      good: ['/v1/refdata/airlines/SWR', '/v1/refdata/airlines/baw'],
      cases: [e404('/v1/refdata/airlines/EZY'), e422('/v1/refdata/airlines/SW'), e422('/v1/refdata/airlines/SW1')],
    },
    '/v1/refdata/airlines/:icao/schedule/:org/:dst': {
      good: ['/v1/refdata/airlines/SWR/schedule/ZRH/LHR', '/v1/refdata/airlines/baw/schedule/lhr/zrh'],
      cases: [
        e404('/v1/refdata/airlines/SWR/schedule/ZRH/JFK', 'not_observed'),
        e422('/v1/refdata/airlines/SW/schedule/ZRH/LHR'),
        e422('/v1/refdata/airlines/SWR/schedule/Z/LHR'),
        e422('/v1/refdata/airlines/SWR/schedule/ZRH/LHRXX'),
      ],
    },
    '/v1/refdata/types/:designator': {
      good: ['/v1/refdata/types/A320', '/v1/refdata/types/b77w'],
      cases: [e404('/v1/refdata/types/C172'), e422('/v1/refdata/types/A'), e422('/v1/refdata/types/ABCDE')],
    },
    '/v1/refdata/airports/:ident': {
      good: ['/v1/refdata/airports/LSZH', '/v1/refdata/airports/egll'],
      cases: [e404('/v1/refdata/airports/KJFK'), e422('/v1/refdata/airports/L'), e422('/v1/refdata/airports/ABCDEFGHIJKLM')],
    },
    '/v1/stations': { good: ['/v1/stations', '/v1/stations?probe=1'] },
    '/v1/stations/:uuid': {
      good: [`/v1/stations/${f.uuid}`, `/v1/stations/${f.uuid.replace(/-/g, '').toUpperCase()}`],
      cases: [e404('/v1/stations/0d6e3a51-7c2b-4f19-a8e4-93b1c5d7e2f0'), e422('/v1/stations/abc'), e422(`/v1/stations/${f.uuid}0`)],
    },
    '/healthz': { good: ['/healthz', '/healthz?probe=1'] },
    '/readyz': { good: ['/readyz', '/readyz?probe=1'] },
    '/metrics': { good: ['/metrics', '/metrics?probe=1'] },
    '/v1/credits': { good: ['/v1/credits', '/v1/credits?probe=1'] },
    '/openapi.json': { good: ['/openapi.json', '/openapi.json?probe=1'] },
    '/docs': { good: ['/docs', '/docs?probe=1'] },
    '/docs/*': { good: ['/docs/swagger-ui.css', '/docs/swagger-initializer.js'], cases: [e404('/docs/nope.js'), e404('/docs/a/b')] },
    '/v1/bundles': { good: ['/v1/bundles', '/v1/bundles?probe=1'] },
    '/v1/bundles/log/:partition/legs.parquet': {
      good: f.logPaths,
      cases: [
        ...range(f.logPaths[0]!),
        e404('/v1/bundles/log/day=2020-01-01/legs.parquet'),
        e404('/v1/bundles/log/day=2026-02-30/legs.parquet'),
        e404('/v1/bundles/log/2026-11-20/legs.parquet'),
      ],
    },
    '/v1/bundles/tables/:table': {
      good: f.tablePaths,
      cases: [...range(f.tablePaths[0]!), e404('/v1/bundles/tables/nope.parquet'), e404('/v1/bundles/tables/routes.csv')],
    },
    '/v1/bundles/tables/:table/:partition/:file': {
      good: f.dayTablePaths,
      cases: [
        ...range(f.dayTablePaths[0]!),
        e404('/v1/bundles/tables/flights/date=2020-01-01/flights.parquet'),
        e404('/v1/bundles/tables/flights/date=2026-02-30/flights.parquet'),
        e404('/v1/bundles/tables/flights/day=2026-11-20/flights.parquet'),
        e404('/v1/bundles/tables/points/date=2026-11-20/flights.parquet'),
        e404('/v1/bundles/tables/routes/date=2026-11-20/routes.parquet'),
      ],
    },
    '/v1/bundles/:doc': { good: f.docPaths, cases: [...range(f.docPaths[0]!), e404('/v1/bundles/NOPE'), e404('/v1/bundles/readme')] },
    '/': { good: ['/', '/?probe=1'] },
    '/map/*': { good: ['/map/map.js', '/map/map.css'], cases: [e404('/map/nope.js'), e404('/map/a/b')] },
    '/v1/map/airports': { good: ['/v1/map/airports', '/v1/map/airports?probe=1'] },
    '/v1/map/config': { good: ['/v1/map/config', '/v1/map/config?probe=1'] },
    '/v1/map/types': { good: ['/v1/map/types', '/v1/map/types?probe=1'] },
    '/v1/map/extent': { good: ['/v1/map/extent', '/v1/map/extent?probe=1'] },
  };
}

/** route patterns served but left out of the document on purpose, each with the reason */
export const UNDOCUMENTED: Record<string, string> = {
  '/docs/*': "the files of the /docs page itself (Swagger UI's own script and styles), named by that page, not an API",
  '/map/*': 'the files of the map page at / (its bundled script, styles and basemap), named by that page, not an API',
};

/** documented answers no request can bring about, each with the reason (`<path> <method> <status> [code]`) */
export const UNREACHABLE: Record<string, string> = {
  '* * 500 internal_error': 'a fault inside the service: no request causes one on purpose (respond.ts maps an unknown throw to it)',
  '* get 503 upstream_unavailable':
    'a serving worker whose wait for the main thread runs out (--forward-timeout-ms): the contract app serves on one thread; driven in test/server/serve/forward.test.ts',
  '/v1/refdata/airlines get 404 not_found': 'every build writes the airline list; a tree without it (a partial copy) would answer it',
};
