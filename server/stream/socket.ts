// GET /v1/stream: the uWebSockets.js adapter of the push stream (docs/api.md, "Push stream"). the bbox
// and the limits are checked before the upgrade, so a refusal is a plain section-7 answer; after
// it each socket is subscribed to the topics of its cells, and the hub publishes every snapshot
// once per cell. a socket whose unsent bytes pass the limit is closed with a reason, never buffered
// without bound and never silently skipped (uWS skips a socket past maxBackpressure).
import { ApiError } from '../../lib/errors.ts';
import { policyFor, WINDOW_S } from '../../schemas/policy.ts';
import { rateKeyOf } from '../http/client-ip.ts';
import type { SocketEdge } from '../http/uws.ts';
import { parseBboxQuery } from '../live/params.ts';
import type { Bbox } from '../parts/spatial.ts';
import type { LiveState } from '../live/state.ts';
import { CONTROL_TOPIC, StreamHub, type Subscription } from './hub.ts';
import { MAX_CLIENT_MESSAGE_BYTES, STREAM_PATH, errorMessage, parseClientMessage } from './protocol.ts';
import type * as Uws from 'uWebSockets.js';

const BUCKET = 'stream';
/** RFC 6455 1008: the client broke a rule of the service (here: it reads too slowly) */
const CLOSE_POLICY = 1008;
/** a stale snapshot is noticed within a second, as LiveState.watch notices it */
const TICK_MS = 1000;
/** a refusal for the whole server (streams uncountable): when to try again */
const RETRY_BUSY_S = 30;

export interface StreamOptions {
  live: LiveState;
  /** open streams one client address may hold */
  perIp: number;
  /** unsent bytes a socket may hold before it is closed as too slow */
  maxBufferBytes: number;
  /** open streams per client, counted across serving threads (default: this thread's own count) */
  opens?: OpenCounts;
}

/**
 * open streams per client key (ThreadLimits counts them for every serving thread of a process).
 * `reserve` checks and counts in one step, before the upgrade: a check now and a count at open
 * let two threads both pass the check for the last stream of a client (4 opened where 3 were allowed)
 */
interface OpenCounts {
  reserve(key: string, max: number): 'opened' | 'at_cap' | 'uncounted';
  close(key: string): void;
}

/** this thread's own count of open streams per client */
function localOpens(): OpenCounts {
  const perIp = new Map<string, number>();
  return {
    reserve: (key, max) => {
      const n = perIp.get(key) ?? 0;
      if (n >= max) return 'at_cap';
      perIp.set(key, n + 1);
      return 'opened';
    },
    close: (key) => {
      const n = (perIp.get(key) ?? 1) - 1;
      if (n > 0) perIp.set(key, n);
      else perIp.delete(key);
    },
  };
}

interface Client {
  ip: string;
  /** the rate key, counted in `opens` from the upgrade until close */
  key: string;
  /** the box of the upgrade request, until open subscribes it */
  bbox: Bbox | null;
  sub: Subscription | null;
}

export interface Stream {
  hub: StreamHub;
  /** open sockets now */
  readonly clients: number;
  stop(): void;
}

/** Registers /v1/stream on the app; the hub hears every snapshot that goes live. */
export function attachStream(app: Uws.TemplatedApp, edge: SocketEdge, o: StreamOptions): Stream {
  const hub = new StreamHub({ publish: (topic, m) => void app.publish(topic, m) });
  const sockets = new Set<Uws.WebSocket<Client>>();
  const opens = o.opens ?? localOpens();
  // the live routes' 503 detail now, or null while they would answer 200
  const staleDetail = (): string | null => {
    try {
      o.live.current(edge.clock());
      return null;
    } catch (e) {
      if (e instanceof ApiError) return e.detail;
      throw e;
    }
  };
  const tooSlow = (ws: Uws.WebSocket<Client>) => {
    const unsent = ws.getBufferedAmount();
    if (unsent <= o.maxBufferBytes) return false;
    edge.log(`stream: closed a slow client (${unsent} bytes unsent, limit ${o.maxBufferBytes})`);
    ws.end(CLOSE_POLICY, `too slow: ${Math.ceil(unsent / 1024)} KiB unsent (limit ${Math.floor(o.maxBufferBytes / 1024)}); reconnect, or take a smaller box`);
    return true;
  };
  const guarded = (what: string, f: () => void) => {
    try {
      f();
    } catch (e) {
      edge.log(`stream: ${what} failed: ${(e as Error)?.stack ?? String(e)}`, 'error');
    }
  };
  const subscribe = (ws: Uws.WebSocket<Client>, bbox: Bbox | null) => {
    const c = ws.getUserData();
    const r = hub.subscribe(c.sub, bbox, staleDetail());
    c.sub = r.sub;
    ws.cork(() => {
      for (const t of r.remove) ws.unsubscribe(t);
      for (const t of r.add) ws.subscribe(t);
      for (const m of r.messages) ws.send(m, false);
    });
    tooSlow(ws);
  };
  const limited = (key: string): { rl: [string, string][]; refusal: ApiError | null } => {
    const policy = policyFor(BUCKET);
    if (!edge.rateLimits || policy.limit <= 0) return { rl: [], refusal: null };
    const d = edge.limiter.hit(BUCKET, key, policy.limit, edge.clock());
    const rl: [string, string][] = [['RateLimit-Limit', String(d.limit)], ['RateLimit-Remaining', String(d.remaining)], ['RateLimit-Reset', String(d.resetS)]];
    const detail = `more than ${d.limit} stream connections and box changes in ${WINDOW_S} s; wait ${d.resetS} s`;
    return { rl, refusal: d.allowed ? null : new ApiError(429, 'rate_limited', detail, { 'Retry-After': String(d.resetS) }) };
  };

  /** sockets opened on this thread so far (upgrade checks that its socket opened) */
  let openedHere = 0;
  /** upgrades are being refused because the open-stream table cannot count them (logged once) */
  let uncounted = false;
  app.ws<Client>(STREAM_PATH, {
    maxPayloadLength: MAX_CLIENT_MESSAGE_BYTES,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    // a hard ceiling above our own limit: tooSlow closes with a reason first; past this uWS closes
    // (instead of skipping messages, which would leave the client's copy silently wrong)
    maxBackpressure: o.maxBufferBytes + 16 * 1024 * 1024,
    closeOnBackpressureLimit: 1,
    upgrade: (res, req, context) => {
      // read everything from req now: it dies with this callback
      const query = req.getQuery() ?? '';
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const ip = edge.ipOf(res, req.getHeader('x-forwarded-for'));
      let bbox: Bbox | null;
      try {
        bbox = parseBboxQuery(query);
      } catch (e) {
        return edge.refuse(res, e, []);
      }
      const rateKey = rateKeyOf(ip);
      const { rl, refusal } = limited(rateKey);
      if (refusal) return edge.refuse(res, refusal, rl);
      // checked and counted at once (fail closed: a stream that cannot be counted does not open)
      const reserved = opens.reserve(rateKey, o.perIp);
      if (reserved === 'at_cap') {
        return edge.refuse(res, new ApiError(429, 'rate_limited', `${o.perIp} streams are open from your address already; close one first (one stream can follow any box)`, { 'Retry-After': '60' }), rl);
      }
      if (reserved === 'uncounted') {
        // logged once when it starts and once when it ends, never per refusal (a flood would fill the log)
        if (!uncounted) edge.log('stream: refusing upgrades: the open-stream table has no room to count their addresses (a flood of addresses holding streams?)', 'warn');
        uncounted = true;
        return edge.refuse(res, new ApiError(429, 'rate_limited', `the server cannot count open streams for more addresses now; retry in ${RETRY_BUSY_S} s`, { 'Retry-After': String(RETRY_BUSY_S) }), rl);
      }
      if (uncounted) edge.log('stream: the open-stream table counts new addresses again', 'warn');
      uncounted = false;
      // uws opens the socket within upgrade(): if it did not (the client went away, or it threw),
      // the place is given back; once open, close() gives it back
      const before = openedHere;
      try {
        res.upgrade<Client>({ ip, key: rateKey, bbox, sub: null }, key, protocol, extensions, context);
      } finally {
        if (openedHere === before) opens.close(rateKey);
      }
    },
    open: (ws) => {
      openedHere++;
      const c = ws.getUserData();
      sockets.add(ws);
      ws.subscribe(CONTROL_TOPIC);
      guarded('subscribe', () => subscribe(ws, c.bbox));
    },
    message: (ws, data, isBinary) => {
      const c = ws.getUserData();
      let bbox: Bbox | null;
      try {
        bbox = parseClientMessage(Buffer.from(data), isBinary);
        const { refusal } = limited(c.key);
        if (refusal) throw refusal;
      } catch (e) {
        ws.send(errorMessage(e), false);
        return;
      }
      guarded('box change', () => subscribe(ws, bbox));
    },
    close: (ws) => {
      const c = ws.getUserData();
      sockets.delete(ws);
      opens.close(c.key);
      if (c.sub) hub.unsubscribe(c.sub);
    },
  });

  const checkAll = () => {
    for (const ws of sockets) tooSlow(ws);
  };
  // indexed and diffed in slices between requests: a whole-sky subscriber makes the diff cover
  // every aircraft, 15-80 ms a snapshot in one piece on this machine
  o.live.onLive((snap) =>
    guarded('publish', () => hub.acceptSliced(snap, staleDetail(), (next) => setImmediate(() => guarded('publish', next)), checkAll)),
  );
  const timer = setInterval(() => guarded('tick', () => hub.tick(staleDetail())), TICK_MS);
  timer.unref();
  return {
    hub,
    get clients() {
      return sockets.size;
    },
    stop: () => clearInterval(timer),
  };
}
