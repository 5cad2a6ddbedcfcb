// the live server's whole configuration: one typed object, commented defaults,
// every setting a flag (--port) and an environment variable (CONTRAIL_PORT).
import { type Specs, parseConfig } from '../lib/cli.ts';
import { creditsOptions, type CreditsConfig } from './credits.ts';
import { installed } from '../lib/install.ts';
import { STATIONS_FORMATS, type StationsFormat } from './stations/source.ts';
import { logOptions, type LogConfig } from '../lib/log.ts';

export interface ServerConfig extends CreditsConfig, LogConfig {
  host: string;
  port: number;
  feed: string;
  artifacts: string;
  bundles: string;
  stations: string;
  stationsFormat: StationsFormat;
  state: string;
  trustProxy: string[];
  maxAgeS: number;
  feedMaxAheadS: number;
  feedMaxAircraft: number;
  feedInterval: number;
  traceMinutes: number;
  streamPerIp: number;
  streamMaxBuffer: number;
  streamMaxUnsent: number;
  gzipOffLoop: number;
  shedCompressionAt: number;
  serveThreads: number;
  listenThread: number;
  forwardTimeoutMs: number;
  heapGrowthPercent: number;
  rateLimits: boolean;
  rateLimitRedis: string;
  baseUrl: string;
  accessLog: boolean;
  logIps: boolean;
  mapTiles: string;
  mapTilesName: string;
  mapTilesAttribution: string;
}

const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0');

export const serverOptions: Specs<ServerConfig> = {
  // loopback by default: exposing the server is a deliberate act
  host: { flag: 'host', env: 'CONTRAIL_HOST', kind: 'string', default: '127.0.0.1', help: 'address to listen on' },
  port: {
    flag: 'port',
    env: 'CONTRAIL_PORT',
    kind: 'int',
    default: 8080,
    help: 'TCP port to listen on (0 picks a free port)',
    check: (v) => (v >= 0 && v <= 65535 ? undefined : 'must be 0..65535'),
  },
  // readsb writes aircraft.json atomically once a second; a file is re-read when it changes,
  // a URL polled once a second
  feed: {
    flag: 'feed',
    env: 'CONTRAIL_FEED',
    kind: 'string',
    default: '',
    help: 'live input: path to a decoder aircraft.json, or an http(s) URL serving one (empty: no live data, live routes answer 503)',
  },
  artifacts: {
    flag: 'artifacts',
    env: 'CONTRAIL_ARTIFACTS',
    kind: 'string',
    default: '',
    help: 'root of the published artifact tree written by `npm run nightly` (empty: history routes answer 503 artifact_unavailable)',
  },
  bundles: {
    flag: 'bundles',
    env: 'CONTRAIL_BUNDLES',
    kind: 'string',
    default: '',
    help: "folder of researchers' data written by the nightly (--bundles there); served at /v1/bundles with byte ranges (empty: 404)",
  },
  stations: {
    flag: 'stations',
    env: 'CONTRAIL_STATIONS',
    kind: 'string',
    default: '',
    help: 'connected-feeders list: file path or http(s) URL, polled (empty: station presence unavailable)',
    doc: "connected-feeders list: file path or http(s) URL, polled (empty: station presence unavailable); our feeder list, or readsb's own `clients.json`",
  },
  // auto: a document with a `clients` array is readsb's clients.json, anything else our own list
  stationsFormat: {
    flag: 'stations-format',
    env: 'CONTRAIL_STATIONS_FORMAT',
    kind: 'string',
    default: 'auto',
    help: "format of --stations: contrail (the feeder list of server/stations/README.md), readsb (readsb's clients.json, joined with the receivers.json beside it), auto (by content)",
    check: (v) => (STATIONS_FORMATS.includes(v as StationsFormat) ? undefined : `must be one of ${STATIONS_FORMATS.join(', ')}`),
  },
  state: {
    flag: 'state',
    env: 'CONTRAIL_STATE',
    kind: 'string',
    default: installed('var/state'),
    help: "directory for the server's small persistent state (the station roster)",
  },
  // the client IP is the socket peer unless the peer is one of these; then the right-most
  // X-Forwarded-For hop that is not itself trusted
  trustProxy: {
    flag: 'trust-proxy',
    env: 'CONTRAIL_TRUST_PROXY',
    kind: 'list',
    default: [],
    help: 'comma-separated IPs or CIDRs of reverse proxies whose X-Forwarded-For is believed',
  },
  // spec 1 rule 5 and 8: 60 s
  maxAgeS: {
    flag: 'max-age',
    env: 'CONTRAIL_MAX_AGE',
    kind: 'number',
    default: 60,
    check: positive,
    help: 'seconds after which a live snapshot is stale and live routes answer 503',
  },
  feedMaxAheadS: {
    flag: 'feed-max-ahead',
    env: 'CONTRAIL_FEED_MAX_AHEAD',
    kind: 'number',
    default: 5,
    check: positive,
    help: 'seconds a feed\'s "now" may run ahead of this server\'s clock before the snapshot is refused (a future clock would hide an outage)',
    doc: "seconds a feed's `now` may run ahead of this server's clock; a snapshot further ahead is refused and logged (a future clock would hide an outage)",
  },
  feedMaxAircraft: {
    flag: 'feed-max-aircraft',
    env: 'CONTRAIL_FEED_MAX_AIRCRAFT',
    kind: 'int',
    default: 50_000,
    check: positive,
    help: 'aircraft kept per snapshot at most, the most recently heard first (logged when it bites)',
    doc: 'aircraft kept per snapshot, the most recently heard first (counted and logged when it bites)',
  },
  // readsb writes aircraft.json once a second unless told otherwise (its --write-json-every)
  feedInterval: {
    flag: 'feed-interval',
    env: 'CONTRAIL_FEED_INTERVAL',
    kind: 'number',
    default: 1,
    check: (v) => (v >= 0.05 && v <= 60 ? undefined : 'must be 0.05..60'),
    help: "seconds between reads of --feed (a URL fetched, a file checked for a change): the decoder's write period (readsb --write-json-every, 1 s by default)",
    doc: "seconds between reads of `--feed` (a URL fetched, a file checked for a change): the decoder's write period, readsb's `--write-json-every` (0.05..60; the demo reads its catch-up at 0.25)",
  },
  // spec 8: about 30 minutes
  traceMinutes: {
    flag: 'trace-minutes',
    env: 'CONTRAIL_TRACE_MINUTES',
    kind: 'number',
    default: 30,
    check: positive,
    help: 'minutes of trace kept in memory per aircraft',
  },
  // a person with a few map tabs open; one stream can follow any box, so more is rarely needed
  streamPerIp: {
    flag: 'stream-per-ip',
    env: 'CONTRAIL_STREAM_PER_IP',
    kind: 'int',
    default: 8,
    check: positive,
    help: 'open /v1/stream WebSockets one client address (an IPv6 /64) may hold',
  },
  // the whole sky's full state is about 2.7 MB at 12k aircraft: 8 MiB leaves room for it and a
  // few diffs behind it; a client further behind than that cannot catch up
  streamMaxBuffer: {
    flag: 'stream-max-buffer',
    env: 'CONTRAIL_STREAM_MAX_BUFFER',
    kind: 'int',
    default: 8 * 1024 * 1024,
    check: positive,
    help: 'bytes a /v1/stream client may leave unread before it is closed (code 1008, "too slow")',
  },
  // all clients together, every serving thread: what a paused client costs is its unread bytes, so
  // without a ceiling 300 of them cost 1.7 GB (docs/perf-log/stream.md). 256 MiB holds the whole
  // sky in full (2.7 MB) about a hundred times over, far more than healthy readers leave unread
  streamMaxUnsent: {
    flag: 'stream-max-unsent',
    env: 'CONTRAIL_STREAM_MAX_UNSENT',
    kind: 'int',
    default: 256 * 1024 * 1024,
    help: 'bytes all /v1/stream clients together may leave unread (every serving thread); past it upgrades get 429 and the slowest clients are closed (0: no limit)',
    doc: 'bytes all `/v1/stream` clients together may leave unread, counted over every serving thread; past it upgrades are refused (429) and the slowest clients closed until the rest fit (`0`: no limit; see [Push stream](api.md#push-stream))',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  // a 250 nm point or a country's bbox is 100-500 KB: gzip costs 2-6 ms of CPU a request. from this
  // size up it may run on the libuv pool instead, so the serving thread goes on answering meanwhile;
  // but an answer made later loses a client that pipelines straight to the server (uWebSockets.js
  // closes a connection whose next request arrives while an answer is pending: both are lost), so
  // it is off unless the server sits behind a front that never pipelines (the nginx front;
  // docs/operating.md, docs/perf-log/serving-threads.md for what it costs)
  gzipOffLoop: {
    flag: 'gzip-off-loop',
    env: 'CONTRAIL_GZIP_OFF_LOOP',
    kind: 'int',
    default: 0,
    help: 'bytes from which an answer compressed per request is gzipped off the serving thread (0: never, the default; only behind a front that never pipelines, such as deploy/nginx)',
    doc:
      'bytes from which an answer compressed per request (a 250 nm point, a bbox) is gzipped on the libuv pool instead of the serving thread; `0` (the default) keeps all on it. ' +
      'A client pipelining straight to the server loses its connection on such an answer (uWebSockets.js closes a connection whose next request arrives while an answer is pending): ' +
      'set it only behind a front that never pipelines, such as the nginx front',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  // a serving thread busy this share of its time (event-loop utilisation over 0.5 s windows) stops
  // compressing answers made for one request (points, varied boxes) and sends them as they are,
  // until it falls 20 points below; shared answers keep their prepared gzip (server/http/compress-shed.ts).
  // 90: only a saturated thread sheds. 0: always compress, whatever the load
  shedCompressionAt: {
    flag: 'shed-compression-at',
    env: 'CONTRAIL_SHED_COMPRESSION_AT',
    kind: 'int',
    default: 90,
    help: "percent of a serving thread's time busy from which answers made for one request go out uncompressed (0: never)",
    doc:
      "percent of a serving thread's time busy (event-loop utilisation, two 0.5 s windows in a row) from which answers made for one request (points, varied boxes) " +
      'go out uncompressed, until it falls 20 points below; also while 8 of its gzips wait on the libuv pool. Answers made once per snapshot keep their prepared gzip or brotli. ' +
      "Under saturation a gzip delays every other request; HAProxy's `maxcompcpuusage` does the same. `0`: always compress ([figures](performance.md#live-api-npx-tsx-benchlivets))",
    check: (v) => (v >= 0 && v <= 100 ? undefined : 'must be 0..100'),
  },
  // the main thread plus workers on the same port (SO_REUSEPORT), each answering from its copy of
  // the snapshot; the limits are one table for all of them. 2 on this 2-core machine: faster in
  // most cases of the live bench, 453 against 371 MB with a full trace store (docs/perf-log/live-api.md, memory.md)
  serveThreads: {
    flag: 'serve-threads',
    env: 'CONTRAIL_SERVE_THREADS',
    kind: 'int',
    default: 2,
    help: 'threads answering HTTP and WebSocket requests on the one port (the main thread counts as one; 1..16)',
    doc: 'threads answering HTTP and WebSocket requests on the one port, the main thread included (1..16; see [Serving threads](#serving-threads))',
    check: (v) => (v >= 1 && v <= 16 ? undefined : 'must be 1..16'),
  },
  // for tests (test/server/edge/): every connection lands on one chosen thread, so a suite can
  // hold each thread to the same cases; the other threads run as ever but accept no connection
  listenThread: {
    flag: 'listen-thread',
    env: 'CONTRAIL_LISTEN_THREAD',
    kind: 'int',
    default: -1,
    help: 'for tests: only this serving thread accepts connections (0: the main thread, 1..: a worker; -1: all of them)',
    check: (v) => (v >= -1 && v < 16 ? undefined : 'must be -1..15'),
  },
  // a worker answers what only the main thread holds by waiting for its reply inside the request
  // (server/serve/forward.ts): this long at most, then 503 upstream_unavailable. the main thread
  // answers in well under a millisecond; 2 s covers its longest pause seen (a full GC, a build swap)
  forwardTimeoutMs: {
    flag: 'forward-timeout-ms',
    env: 'CONTRAIL_FORWARD_TIMEOUT_MS',
    kind: 'int',
    default: 2000,
    help: "milliseconds a serving worker waits for the main thread's answer to a route only it holds before answering 503 upstream_unavailable",
    check: (v) => (v >= 1 && v <= 60_000 ? undefined : 'must be 1..60000'),
  },
  // how far V8 lets the old generation grow past what a full collection left before it starts the
  // next one. V8's own choice here was about 50 %: the serving thread's ~45 MB heap then came within
  // a young generation's size of its limit, so marking restarted at once and a full collection (its
  // final pause 6-60 ms) ran every 2.5 s. 100 % spaces them 10 s apart for ~20 MB more heap
  // (docs/perf-log/stalls.md). process-wide (every thread's heap); set once at start.
  heapGrowthPercent: {
    flag: 'heap-growth-percent',
    env: 'CONTRAIL_HEAP_GROWTH_PERCENT',
    kind: 'int',
    default: 100,
    help: "old-generation growth allowed between V8's full collections, percent (0: V8's own heuristic; 1..400)",
    doc: "old-generation growth V8 allows between full collections, percent (0: V8's own heuristic; 0..400; see [the stalls' log](perf-log/stalls.md))",
    check: (v) => (v >= 0 && v <= 400 ? undefined : 'must be 0..400'),
  },
  rateLimits: {
    flag: 'rate-limits',
    env: 'CONTRAIL_RATE_LIMITS',
    kind: 'bool',
    default: true,
    help: 'enforce the per-IP limits of spec section 8 (--no-rate-limits for benchmarks)',
  },
  // several live servers behind one front must count one budget per client: in Redis. empty: each
  // process counts in its own memory (the single-server default)
  rateLimitRedis: {
    flag: 'rate-limit-redis',
    env: 'CONTRAIL_RATE_LIMIT_REDIS',
    kind: 'string',
    default: '',
    help: 'redis:// URL where replicas behind one front share the rate-limit counters (empty: counted in this process; while Redis is away, counted here with one logged warning)',
    check: (v) => (v === '' || /^rediss?:\/\/[^\s]+$/.test(v) ? undefined : 'must be a redis:// or rediss:// URL, or empty'),
  },
  baseUrl: {
    flag: 'base-url',
    env: 'CONTRAIL_BASE_URL',
    kind: 'string',
    default: '',
    help: 'public base URL, used in /openapi.json and the credits (empty: links relative to this server)',
    check: (v) => (v === '' || /^https?:\/\/[^\s/]+/.test(v) ? undefined : 'must be an http(s) URL or empty'),
  },
  // credits, terms and contribution URLs (spec 1): configuration, not code
  ...creditsOptions,
  // --log-format, --log-level (lib/log.ts)
  ...logOptions,
  // off: at thousands of requests a second the lines cost more than /metrics, which counts the same
  accessLog: {
    flag: 'access-log',
    env: 'CONTRAIL_ACCESS_LOG',
    kind: 'bool',
    default: false,
    help: 'one log line per HTTP request: method, route, path (never the query), status, bucket, ms, bytes',
    doc: 'one line per HTTP answer: method, route, path (never the query), status, bucket, ms, bytes (see [Logs](#logs))',
  },
  // a client's address is personal data: no log line holds one unless the operator says so
  logIps: {
    flag: 'log-ips',
    env: 'CONTRAIL_LOG_IPS',
    kind: 'bool',
    default: false,
    help: 'put the client IP (as the rate limits see it) in access-log lines',
    doc: 'put the client IP (as the rate limits see it) in access-log lines; no line holds one otherwise',
  },
  // the map's raster basemap (docs/operating.md "Map tiles"): OpenStreetMap's own tiles by default,
  // which their usage policy allows for light use with the attribution below; a busy map runs its
  // own tile server. offline (or empty): the bundled Natural Earth basemap alone (tests, make demo)
  mapTiles: {
    flag: 'map-tiles',
    env: 'CONTRAIL_MAP_TILES',
    kind: 'string',
    default: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    help: "URL template of the map's raster tiles ({z}/{x}/{y}, optionally {s}), or offline for the bundled vector basemap alone",
    check: (v) =>
      MAP_TILES_OFFLINE.includes(v) || (/^https?:\/\/[^\s]+$/.test(v) && ['{z}', '{x}', '{y}'].every((k) => v.includes(k)))
        ? undefined
        : 'must be an http(s) URL template with {z}, {x} and {y}, or offline',
  },
  mapTilesName: {
    flag: 'map-tiles-name',
    env: 'CONTRAIL_MAP_TILES_NAME',
    kind: 'string',
    default: 'OpenStreetMap',
    help: "the raster tiles' name in the map's layer switcher",
    check: (v) => (v.trim() ? undefined : 'must not be empty'),
  },
  mapTilesAttribution: {
    flag: 'map-tiles-attribution',
    env: 'CONTRAIL_MAP_TILES_ATTRIBUTION',
    kind: 'string',
    default: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    help: "the credit the tiles' provider asks for, shown in the map's corner (HTML; OpenStreetMap's by default)",
  },
};

/** --map-tiles values that mean "no raster tiles: the bundled offline basemap alone" */
export const MAP_TILES_OFFLINE = ['', 'offline'];

export const serverUsage =
  'Usage: npm run --silent serve -- [options]\n\nContrail live server: the live routes from a decoder feed, and the history routes from a published artifact tree.';

export function loadServerConfig(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  return parseConfig(serverOptions, argv, env);
}
