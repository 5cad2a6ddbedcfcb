// the single table of operations: what /openapi.json and /docs are generated from (schemas/openapi.ts).
// response bodies are the JSON Schemas of this folder; limits and cache lifetimes come from
// schemas/policy.ts by bucket name, never copied here. texts follow the spec (sections 1-9).
import { ARTIFACT_KINDS, type ArtifactKindName } from './artifact-kinds.ts';
import type { ErrorCode } from '../lib/errors.ts';

/**
 * spec 9. `stable` and `map` where the spec names them; every other operation, the service's own
 * documents included, is `candidate` (proposed for stable, its shape may still change).
 */
type Stability = 'stable' | 'map' | 'candidate';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  /** JSON Schema of the raw value */
  schema: Record<string, unknown>;
  example: string | number;
}

export interface Operation {
  /** OpenAPI path template, e.g. /v1/trace/{hex} */
  path: string;
  operationId: string;
  tag: 'live' | 'history' | 'refdata' | 'stations' | 'about';
  summary: string;
  description: string;
  parameters: Parameter[];
  /** a schema name in this folder (schemas/<name>.schema.json), or a non-JSON media type */
  response: { schema: string } | { mediaType: 'text/html' | 'application/vnd.apache.parquet' | 'text/plain' } | { openapi: true } | { websocket: string };
  /** rate-limit and cache bucket (schemas/policy.ts) */
  bucket: string;
  stability: Stability;
  /**
   * error codes the handler can answer, each reachable (test/server/contract.slow.test.ts drives the
   * server into every one); rate_limited, internal_error and the router's 422 for a broken
   * percent-encoding are added by schemas/openapi-responses.ts where they apply
   */
  errors: ErrorCode[];
  /** its 200 carries an ETag, and an If-None-Match naming it gets 304 (server/http/pipeline.ts) */
  etag?: true;
  /** a file served as stored, in single byte ranges: 206, 416, Accept-Ranges, Last-Modified, never re-encoded */
  ranges?: true;
}

const pathParam = (name: string, description: string, pattern: string, example: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', pattern },
  example,
});

/** a researchers' file below /v1/bundles (server/handlers/bundles.ts): Parquet or plain text, bucket bundles */
function bundleFileOp(path: string, operationId: string, summary: string, description: string, ...params: Parameter[]) {
  return {
    path,
    operationId,
    tag: 'about',
    summary,
    description,
    parameters: params,
    response: { mediaType: path.includes('/log/') || path.includes('/tables/') ? 'application/vnd.apache.parquet' : 'text/plain' },
    bucket: 'bundles',
    stability: 'candidate',
    errors: ['not_found'],
    etag: true,
    ranges: true,
  } as const satisfies Operation;
}

const hexParam = (what: string) => pathParam('hex', `${what}: ICAO 24-bit address, 6 hex characters, case-insensitive.`, '^[0-9A-Fa-f]{6}$', '4b1814');

const slugParam: Parameter = {
  name: 'slug',
  in: 'path',
  required: true,
  description: 'Alliance slug: lower-case words joined by `-`.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$', maxLength: 64 },
  example: 'star-alliance',
};

const airportParam = (name: string, description: string, example: string) => pathParam(name, description, '^[A-Za-z0-9]{3,4}$', example);

const airlineParam = pathParam('icao', 'Airline ICAO designator, 3 letters.', '^[A-Za-z]{3}$', 'SWR');

const decimal = (name: string, description: string, example: number): Parameter => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'number' },
  example,
});

/** spec 4.1 and 8: the live box, at most 80 characters */
const bboxParam = (more: string): Parameter => ({
  name: 'bbox',
  in: 'query',
  required: false,
  description: `Bounding box \`minLon,minLat,maxLon,maxLat\` in degrees (at most 80 characters)${more}.`,
  schema: { type: 'string', maxLength: 80 },
  example: '5.9,45.8,10.5,47.8',
});

/** a history document keyed by its path: 422 for a malformed key, 404 with the codes its handler tells apart, 503 before the first build */
const historyErrors = (...missing: ('not_found' | 'not_observed')[]): ErrorCode[] => ['invalid_request', ...missing, 'artifact_unavailable'];
const HONESTY = 'History is observation, never an official registry: a gap means the network did not hear the aircraft.';

/** path, response schema and bucket of an operation that answers an artifact, from the contract */
function artifactOp(kind: ArtifactKindName, path = ARTIFACT_KINDS[kind].url) {
  const { schema, bucket } = ARTIFACT_KINDS[kind];
  if (!path || !bucket) throw new Error(`artifact kind ${kind} has no public URL`);
  return { path, response: { schema }, bucket, etag: true } as const;
}

/** one readsb-dialect search route (`/v2/<key>/{param}`): same envelope, bucket, tier and errors for all */
function searchOp(path: string, operationId: string, what: string, paramDescription: string, example: string): Operation {
  const name = /\{(\w+)\}/.exec(path)![1]!;
  return {
    path,
    operationId,
    tag: 'live',
    summary: `${what} (readsb /v2 dialect)`,
    description:
      'The live records whose key matches, in the envelope of `/v2/point` without `dst`, so clients written for readsb-style APIs work unchanged. 422 on malformed input; 503 when stale.',
    parameters: [{ name, in: 'path', required: true, description: paramDescription, schema: { type: 'string', maxLength: 64 }, example }],
    response: { schema: 'search' },
    bucket: 'search',
    stability: 'candidate',
    errors: ['invalid_request', 'stale_snapshot'],
  };
}

export const OPERATIONS: readonly Operation[] = [
  // 4.1 live
  {
    path: '/v1/now',
    operationId: 'getNow',
    tag: 'live',
    summary: 'Counts of the live snapshot',
    description:
      'Aircraft in the current snapshot, how many have a position, feeders connected now, and the newest archived day. 503 `stale_snapshot` when the snapshot is older than 60 s.',
    parameters: [],
    response: { schema: 'now' },
    bucket: 'now',
    stability: 'stable',
    errors: ['stale_snapshot'],
  },
  {
    path: '/v1/aircraft',
    operationId: 'listAircraft',
    tag: 'live',
    summary: 'Every aircraft heard now (decoder dialect)',
    description:
      "The live sky in the ADS-B decoder dialect (`hex`, `t`, `r`, `gs`, ...). With `bbox` only aircraft with a position inside the box are listed; a box whose west edge lies east of its east edge crosses the antimeridian. `total` stays the whole network's count. 422 on malformed input; 503 when stale.",
    parameters: [bboxParam('')],
    response: { schema: 'aircraft-list' },
    bucket: 'aircraft',
    stability: 'stable',
    errors: ['invalid_request', 'stale_snapshot'],
  },
  {
    path: '/v1/stream',
    operationId: 'streamAircraft',
    tag: 'live',
    summary: 'Push stream of the live sky (WebSocket)',
    description:
      'Upgrades to a WebSocket (101) that pushes what entered, changed in or left the box with every snapshot, in the decoder dialect of `/v1/aircraft`, after the full state on connect. The box (the `/v1/aircraft` bbox; none = the whole sky) is followed as the grid cells it touches (2 or 10 degrees; a box over 36 cells follows the whole sky), so messages may hold aircraft outside the box: clip. Change the box by sending `{"bbox":[minLon,minLat,maxLon,maxLat]}` or `{"bbox":null}`. Each text message the server sends is one `stream-message` (in `x-websocket-messages`); while the snapshot is older than 60 s a `stale` message says so instead of an empty sky. A malformed bbox is refused before the upgrade (422), as is a client past the `stream` bucket or holding as many streams as the server allows per address, 8 by default, and any client while the server holds as much unread stream data as it allows for all clients (429, `Retry-After`); a client that leaves more than the server\'s limit unread (8 MiB by default) is closed with code 1008. A plain GET without `Upgrade: websocket` answers 426. OpenAPI cannot describe WebSocket messages beyond this: docs/api.md, "Push stream", has the client rules.',
    parameters: [bboxParam(', as for /v1/aircraft; none = the whole sky')],
    response: { websocket: 'stream-message' },
    bucket: 'stream',
    stability: 'candidate',
    errors: ['invalid_request'],
  },
  {
    path: '/v1/estimated',
    operationId: 'listEstimated',
    tag: 'live',
    summary: 'Estimated positions of aircraft that left coverage',
    description:
      "Aircraft last heard while cruising, 90 s or more ago, flown on from the last observed position toward the destination of the callsign's route at the last observed speed (the last track for 10 minutes, then toward the destination). Every entry is an estimate, never an observation; estimates are kept in memory only.",
    parameters: [],
    response: { schema: 'estimated' },
    bucket: 'estimated',
    stability: 'map',
    errors: ['stale_snapshot'],
  },
  {
    path: '/v1/trace/{hex}',
    operationId: 'getTrace',
    tag: 'live',
    summary: 'Recent trace of one aircraft',
    description:
      'About the last 30 minutes of positions, oldest first, held in memory (a restart forgets and trails regrow). 404 when there are no points ' +
      '(`not_observed` for an address in an allocated block, `not_found` otherwise); 422 on invalid path input; 503 when stale.',
    parameters: [hexParam('Aircraft address')],
    response: { schema: 'trace' },
    bucket: 'trace',
    stability: 'stable',
    errors: ['invalid_request', 'not_found', 'not_observed', 'stale_snapshot'],
  },
  {
    path: '/v2/point/{lat}/{lon}/{radius}',
    operationId: 'listAircraftAroundPoint',
    tag: 'live',
    summary: 'Aircraft within a radius of a point (decoder dialect)',
    description:
      'Aircraft within `radius` nautical miles (capped at 250), nearest first, each with `dst`. `msg` is always `No error` on 200; `now` and `ctime` are the snapshot time in unix seconds; `ptime` is processing time in milliseconds. 422 on malformed input; 503 when stale.',
    parameters: [
      decimal('lat', 'Latitude, degrees (-90 to 90).', 47.45),
      decimal('lon', 'Longitude, degrees (-180 to 180).', 8.56),
      decimal('radius', 'Radius, nautical miles; larger values are capped at 250.', 25),
    ],
    response: { schema: 'point' },
    bucket: 'point',
    stability: 'stable',
    errors: ['invalid_request', 'stale_snapshot'],
  },
  searchOp('/v2/hex/{hex}', 'searchHex', 'Aircraft by ICAO address', '6 hexadecimal characters, case-insensitive', '4b1814'),
  searchOp('/v2/callsign/{callsign}', 'searchCallsign', 'Aircraft by callsign', '1 to 8 letters or digits, case-insensitive', 'SWR100'),
  searchOp('/v2/reg/{reg}', 'searchReg', 'Aircraft by registration', '1 to 10 letters, digits or dashes, case-insensitive', 'HB-JVL'),
  searchOp('/v2/type/{designator}', 'searchType', 'Aircraft by ICAO type designator', '2 to 4 letters or digits, case-insensitive', 'A320'),
  searchOp('/v2/sqk/{squawk}', 'searchSquawk', 'Aircraft by transponder code', '4 octal digits', '7700'),
  {
    path: '/v2/mil',
    operationId: 'searchMilitary',
    tag: 'live',
    summary: 'Aircraft in military ICAO address blocks (readsb /v2 dialect)',
    description:
      'The live records whose address lies in a block the shipped code-block table marks military, in the envelope of `/v2/point` without `dst`. 503 when stale.',
    parameters: [],
    response: { schema: 'search' },
    bucket: 'search',
    stability: 'candidate',
    errors: ['stale_snapshot'],
  },
  // 4.2 history and reference
  {
    ...artifactOp('airframe'),
    operationId: 'getAirframe',
    tag: 'history',
    summary: 'One airframe and its observed legs',
    description: `Who the aircraft is and its observed legs, newest first, at most 200. ${HONESTY} \`legs\` is null while the flight log is not loaded. 404 if nothing is known.`,
    parameters: [hexParam('Aircraft address')],
    stability: 'stable',
    errors: historyErrors('not_found', 'not_observed'),
  },
  {
    ...artifactOp('flights'),
    operationId: 'getFlights',
    tag: 'history',
    summary: "One airframe's flights on one UTC day",
    description: `Every flight the network heard the airframe make on that UTC day (the day of each flight's first heard point), oldest first: callsign, ends with route_source, take-off and landing (time, position, airport, runway), first and last seen, km flown, highest altitude, circuit, and the track thinned as the live trace is. ${HONESTY} 404 not_observed for a day without heard flights of an airframe the archive knows, not_found for an address it does not; 422 for a malformed hex or date. A closed day's document never changes.`,
    parameters: [hexParam('Aircraft address'), pathParam('date', 'The UTC day, YYYY-MM-DD.', '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', '2025-02-05')],
    stability: 'candidate',
    errors: historyErrors('not_found', 'not_observed'),
  },
  {
    ...artifactOp('airframe', '/v1/airframe/{hex}'),
    operationId: 'getAirframeSingular',
    tag: 'history',
    summary: 'One airframe (singular spelling)',
    description: "The same operation as `/v1/airframes/{hex}`: the spec's overview spells it singular, so both spellings are served with the same answer.",
    parameters: [hexParam('Aircraft address')],
    stability: 'stable',
    errors: historyErrors('not_found', 'not_observed'),
  },
  {
    ...artifactOp('airport'),
    operationId: 'getAirport',
    tag: 'history',
    summary: 'One airport: observed totals and boards',
    description:
      "Observed totals (circuits excluded), the published board for the local day when one is held, and inferred typical departures and arrivals in the airport's local time. Board rows carry their own `source` (`observed`, `published` or `both`): a `published` row is not a receiver observation. 404 if unknown.",
    parameters: [airportParam('code', 'Airport code, IATA (3) or ICAO (4), case-insensitive.', 'ZRH')],
    stability: 'candidate',
    errors: historyErrors('not_found'),
  },
  {
    ...artifactOp('movements'),
    operationId: 'getAirportMovements',
    tag: 'history',
    summary: "One airport's take-offs and landings on one UTC day",
    description: `Every take-off and landing the network heard at the airport on that UTC day, in time order: unix seconds and the airport's local time, kind, runway, callsign, hex, reg, type, the other end (dst of a take-off, org of a landing) with the flight's route_source, circuit; and the day's counts per runway and per UTC hour. ${HONESTY} 404 not_observed for a day without heard movements at an airport the archive serves, not_found for a code it does not; 422 for a malformed code or date. A closed day's document never changes.`,
    parameters: [
      airportParam('code', 'Airport code, IATA (3) or ICAO (4), case-insensitive.', 'ZRH'),
      pathParam('date', 'The UTC day, YYYY-MM-DD.', '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', '2025-02-05'),
    ],
    stability: 'candidate',
    errors: historyErrors('not_found', 'not_observed'),
  },
  {
    ...artifactOp('alliance'),
    operationId: 'getAlliance',
    tag: 'history',
    summary: 'One alliance: memberships and observed coverage',
    description: "Sourced memberships of the alliance and the network's observed coverage of its current member brands.",
    parameters: [slugParam],
    stability: 'candidate',
    errors: historyErrors('not_found'),
  },
  {
    ...artifactOp('allianceRoutes'),
    operationId: 'getAllianceRoutes',
    tag: 'history',
    summary: 'Observed legs of an alliance',
    description: 'Observed legs across the current member brands, undirected, `org`/`dst` in alphabetical order. 422 on invalid input.',
    parameters: [slugParam],
    stability: 'candidate',
    errors: historyErrors('not_found'),
  },
  {
    path: '/v1/routes',
    operationId: 'getRoutes',
    tag: 'history',
    summary: 'Origin and destination of many callsigns',
    description:
      'Up to 80 callsigns per call. Each answers `[org, dst]` (IATA) or null for a callsign never observed. Observed routes first, the reviewed community catalog where observation is silent.',
    parameters: [
      {
        name: 'callsigns',
        in: 'query',
        required: true,
        description: 'Comma-separated callsigns, up to 80 (2 to 8 letters or digits each; also accepted repeated: `callsigns=A&callsigns=B`).',
        schema: { type: 'string', pattern: '^\\s*[A-Za-z0-9]{2,8}\\s*(,\\s*[A-Za-z0-9]{2,8}\\s*)*$', maxLength: 2048 },
        example: 'SWR123,DLH4AB',
      },
    ],
    response: { schema: 'routes' },
    bucket: 'routes',
    stability: 'candidate',
    errors: ['invalid_request', 'artifact_unavailable'],
  },
  {
    ...artifactOp('route'),
    operationId: 'getRoute',
    tag: 'history',
    summary: 'Origin and destination of one callsign',
    description:
      'From the derived routes table, with `route_source`: `observed` (both ends seen), `observed+catalog` or `catalog`. Observation outranks the catalog whenever it speaks.',
    parameters: [pathParam('callsign', 'Callsign, 2 to 8 letters or digits, case-insensitive.', '^[A-Za-z0-9]{2,8}$', 'SWR123')],
    stability: 'candidate',
    errors: historyErrors('not_found', 'not_observed'),
  },
  {
    ...artifactOp('refAircraft'),
    operationId: 'getRefAircraft',
    tag: 'refdata',
    summary: 'Registration, type and operator of an airframe',
    description: 'Reference data for one ICAO address.',
    parameters: [hexParam('Aircraft address')],
    stability: 'candidate',
    errors: historyErrors('not_found', 'not_observed'),
  },
  {
    ...artifactOp('refAirlines'),
    operationId: 'listRefAirlines',
    tag: 'refdata',
    summary: 'The airlines the network observes',
    description: 'Airlines seen in the archive window, by callsign prefix.',
    parameters: [],
    stability: 'candidate',
    errors: ['not_found', 'artifact_unavailable'],
  },
  {
    ...artifactOp('refAirline'),
    operationId: 'getRefAirline',
    tag: 'refdata',
    summary: 'One airline: fleet, routes, countries',
    description: 'One airline from the reference data with what the network observed of it.',
    parameters: [airlineParam],
    stability: 'candidate',
    errors: historyErrors('not_found'),
  },
  {
    ...artifactOp('refSchedule'),
    operationId: 'getRefSchedule',
    tag: 'refdata',
    summary: 'Observed departure pattern for one leg',
    description: "When one airline was observed departing on one leg; times are `HH:MM` in the origin airport's local time.",
    parameters: [airlineParam, airportParam('org', 'Origin airport, IATA code.', 'ZRH'), airportParam('dst', 'Destination airport, IATA code.', 'JFK')],
    stability: 'candidate',
    errors: historyErrors('not_observed'),
  },
  {
    ...artifactOp('refType'),
    operationId: 'getRefType',
    tag: 'refdata',
    summary: 'An aircraft type spelled out',
    description: 'One ICAO type designator from the reference data.',
    parameters: [pathParam('designator', 'ICAO type designator, 2 to 4 letters or digits.', '^[A-Za-z0-9]{2,4}$', 'A320')],
    stability: 'candidate',
    errors: historyErrors('not_found'),
  },
  {
    ...artifactOp('refAirport'),
    operationId: 'getRefAirport',
    tag: 'refdata',
    summary: 'One airport from the reference data',
    description: 'One airport by its OurAirports ident.',
    parameters: [pathParam('ident', 'OurAirports ident (usually the ICAO code), 2 to 12 letters, digits or `-`.', '^[A-Za-z0-9-]{2,12}$', 'LSZH')],
    stability: 'candidate',
    errors: historyErrors('not_found'),
  },
  // 4.3 stations
  {
    path: '/v1/stations',
    operationId: 'listStations',
    tag: 'stations',
    summary: 'The public roster of receiving stations',
    description: 'Every station with a public id, a location rounded to about 11 km and whether it is online. IPs are never stored or shown.',
    parameters: [],
    response: { schema: 'stations' },
    bucket: 'stations',
    stability: 'candidate',
    errors: [],
  },
  {
    path: '/v1/stations/{uuid}',
    operationId: 'getStationStatus',
    tag: 'stations',
    summary: "One station's private status",
    description:
      'Protected by knowledge of the full UUID: the UUID is the key, and the service stores only its hash. Sent with `Cache-Control: private, no-store`.',
    parameters: [
      pathParam(
        'uuid',
        "The station's full UUID, 8-4-4-4-12 with dashes or 32 hex digits without.",
        '^([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|[0-9A-Fa-f]{32})$',
        '3f2b8c1e-5a7d-4e9b-8c6f-1d2e3a4b5c6d',
      ),
    ],
    response: { schema: 'station-status' },
    bucket: 'station',
    stability: 'candidate',
    errors: ['invalid_request', 'not_found'],
  },
  // the service's own documents
  {
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'about',
    summary: 'Liveness: the process answers',
    description:
      'Always 200 while the process runs, with the snapshot age, the history build served, and which parts (live, history) it is configured to serve with the state of each. Outside the rate limits, never cached.',
    parameters: [],
    response: { schema: 'health' },
    bucket: 'health',
    stability: 'candidate',
    errors: [],
  },
  {
    path: '/readyz',
    operationId: 'getReady',
    tag: 'about',
    summary: 'Readiness: what this process is configured to serve, it serves',
    description:
      '200 when every part this process is configured to serve serves: a fresh live snapshot where a feed is configured, a loaded history build where an artifact tree is (a live-only replica is ready while its feed is fresh); 503 `stale_snapshot` or `artifact_unavailable` otherwise, and `stale_snapshot` for a process configured with neither. Outside the rate limits, never cached.',
    parameters: [],
    response: { schema: 'health' },
    bucket: 'health',
    stability: 'candidate',
    errors: ['stale_snapshot', 'artifact_unavailable'],
  },
  {
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'about',
    summary: 'Operational metrics in the Prometheus text format',
    description:
      'Snapshot age and size, feed errors by kind, requests and latency by route and status, 429s by bucket, the history build served and its age. Rendered every 5 s; outside the rate limits, never cached.',
    parameters: [],
    response: { mediaType: 'text/plain' },
    bucket: 'health',
    stability: 'candidate',
    errors: [],
  },
  {
    path: '/v1/credits',
    operationId: 'getCredits',
    tag: 'about',
    summary: 'Data sources, the credit each asks for, and the terms',
    description: "Data is ODbL 1.0. Credit the network's feeders and link the credits page; republishing carries these credits.",
    parameters: [],
    response: { schema: 'credits' },
    bucket: 'docs',
    stability: 'candidate',
    errors: [],
  },
  {
    path: '/v1/bundles',
    operationId: 'getBundles',
    tag: 'about',
    summary: "Researchers' data: the index",
    description:
      'Every file below /v1/bundles with its URL, size, rows and sha256: the flight log as a Hive-partitioned Parquet tree (one file per UTC day), the derived tables of the current build as Parquet, and README, LICENSE (ODbL 1.0), CREDITS, SHA256SUMS. DuckDB reads the files in place over HTTP range requests: `read_parquet([...the log paths...], hive_partitioning = true)` gives a DATE column `day` from the path.',
    parameters: [],
    response: { schema: 'bundles-index' },
    bucket: 'docs',
    stability: 'candidate',
    errors: ['not_found'],
  },
  bundleFileOp(
    '/v1/bundles/log/{partition}/legs.parquet',
    'getLogDay',
    'One day of the flight log (Parquet)',
    'The legs whose first heard point is on this UTC day, Parquet (zstd), columns as schemas/flight-log; the day is in the path (Hive layout), not in the file. HEAD and single byte ranges are served (206 with Content-Range; 416 when the range is malformed or starts past the end; several ranges get the whole file). The URL is stable: the file is replaced atomically when the day changes (the ETag changes with it).',
    pathParam('partition', 'The Hive partition of a log day, day=YYYY-MM-DD, as listed in the index.', '^day=[0-9]{4}-[0-9]{2}-[0-9]{2}$', 'day=2026-11-21'),
  ),
  bundleFileOp(
    '/v1/bundles/tables/{table}',
    'getTable',
    'A derived table of the current build (Parquet)',
    "airframes.parquet (one row per airframe with its legs), airports.parquet (observed totals per airport), routes.parquet (each callsign's route with its route_source). Range requests as for the log days; replaced each night when its content changes.",
    pathParam('table', "The table's file name.", '^(airframes|airports|routes)\\.parquet$', 'routes.parquet'),
  ),
  bundleFileOp(
    '/v1/bundles/tables/{table}/{partition}/{file}',
    'getTableDay',
    'One day of the flights or points table (Parquet)',
    "flights/date=YYYY-MM-DD/flights.parquet: one row per flight of /v1/flights/{hex}/{date} on that UTC day, its ends flattened (dep_at, dep_lat, dep_lon, dep_runway, arr_...); points/date=YYYY-MM-DD/points.parquet: their thinned tracks, one row a point, keyed by hex and first_ts (the flight's first_seen). The day is in the path (Hive layout): `read_parquet('.../tables/flights/*/*.parquet', hive_partitioning = true)` gives a DATE column `date`. Range requests as for the log days; a day's file is replaced when its content changes.",
    pathParam('table', 'flights or points.', '^(flights|points)$', 'flights'),
    pathParam('partition', 'The Hive partition of a day, date=YYYY-MM-DD, as listed in the index.', '^date=[0-9]{4}-[0-9]{2}-[0-9]{2}$', 'date=2026-11-21'),
    pathParam('file', 'The file: flights.parquet in flights/, points.parquet in points/.', '^(flights|points)\\.parquet$', 'flights.parquet'),
  ),
  bundleFileOp(
    '/v1/bundles/{doc}',
    'getBundleText',
    "README, LICENSE, CREDITS or SHA256SUMS of the researchers' data",
    'Plain text beside the Parquet files: how to read them, the ODbL 1.0, the credits of every source the files draw on, and their checksums.',
    pathParam('doc', 'One of README, LICENSE, CREDITS, SHA256SUMS.', '^(README|LICENSE|CREDITS|SHA256SUMS)$', 'CREDITS'),
  ),
  {
    path: '/openapi.json',
    operationId: 'getOpenApi',
    tag: 'about',
    summary: 'This description (OpenAPI 3.1)',
    description: 'Generated from the JSON Schemas of the contract; the same document /docs renders.',
    parameters: [],
    response: { openapi: true },
    bucket: 'docs',
    stability: 'candidate',
    errors: [],
  },
  {
    path: '/docs',
    operationId: 'getDocs',
    tag: 'about',
    summary: 'Interactive API documentation (HTML)',
    description: 'Swagger UI served from the service itself (no CDN, works offline), with try-it-out against this server.',
    parameters: [],
    response: { mediaType: 'text/html' },
    bucket: 'docs',
    stability: 'candidate',
    errors: [],
  },
  // spec 9: the `map` tier exists for the first-party map and can change with it
  {
    path: '/',
    operationId: 'getMap',
    tag: 'about',
    summary: 'The live map (HTML)',
    description:
      'The first-party map: the live sky from `/v1/stream` (polling `/v1/aircraft` where the stream is refused), estimates from `/v1/estimated` drawn as estimates, traces, airframe and airport history on click. Its script, styles and Natural Earth basemap are served under `/map/` from the service itself (no CDN, no tracking, works offline).',
    parameters: [],
    response: { mediaType: 'text/html' },
    bucket: 'map',
    stability: 'map',
    errors: [],
  },
  {
    path: '/v1/map/airports',
    operationId: 'getMapAirports',
    tag: 'history',
    summary: 'The airports the map draws',
    description:
      'Every airport the published build wrote a `/v1/airports/{code}` document for, as compact rows `[iata, icao, lat, lon]`, for the first-party map. 503 `artifact_unavailable` before the first build.',
    parameters: [],
    response: { schema: 'map-airports' },
    bucket: 'map',
    stability: 'map',
    errors: ['artifact_unavailable'],
  },
  {
    path: '/v1/map/config',
    operationId: 'getMapConfig',
    tag: 'about',
    summary: 'The basemaps the map offers',
    description:
      "The raster tile layer the server is configured with (`--map-tiles`, OpenStreetMap's by default; null when configured offline) and the bundled offline basemap (Natural Earth 1:10m with country and city names), for the first-party map.",
    parameters: [],
    response: { schema: 'map-config' },
    bucket: 'map',
    stability: 'map',
    errors: [],
  },
  {
    path: '/v1/map/types',
    operationId: 'getMapTypes',
    tag: 'about',
    summary: 'Aircraft silhouettes and names by type designator',
    description:
      'Every ICAO type designator of the shipped VRS model-type table with the silhouette the first-party map draws for it (airliner, heavy, regional, business, turboprop, light, helicopter, glider, balloon, military, ground, or null) and its name spelled out.',
    parameters: [],
    response: { schema: 'map-types' },
    bucket: 'map',
    stability: 'map',
    errors: [],
  },
  {
    path: '/v1/map/extent',
    operationId: 'getMapExtent',
    tag: 'live',
    summary: "Where the network's aircraft are",
    description:
      "The box holding all but 2 % of the aircraft with a position at each edge (west > east crosses the antimeridian), for the first-party map's first view. 503 `stale_snapshot` when the live snapshot is older than 60 s.",
    parameters: [],
    response: { schema: 'map-extent' },
    bucket: 'map',
    stability: 'map',
    errors: ['stale_snapshot'],
  },
];

/** status of each error code (lib/errors.ts decides; the spec leaves upstream_unavailable's open: 503, docs/api.md) */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  not_found: 404,
  not_observed: 404,
  invalid_request: 422,
  rate_limited: 429,
  stale_snapshot: 503,
  artifact_unavailable: 503,
  upstream_unavailable: 503,
  internal_error: 500,
};
