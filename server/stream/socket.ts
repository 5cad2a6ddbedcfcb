// GET /v1/stream: the uWebSockets.js adapter of the push stream (docs/api.md, "Push stream"). the bbox
// and the limits are checked before the upgrade, so a refusal is a plain section-7 answer; after
// it each socket is subscribed to the topics of its cells, and the hub publishes every snapshot
// once per cell. a socket whose unsent bytes pass the limit is closed with a reason, never buffered
// without bound and never silently skipped (uWS skips a socket past maxBackpressure); and all the
// sockets' unsent bytes together, on every serving thread, stay within one budget (budget.ts): past
// it upgrades are refused and the slowest clients closed.
import { ApiError } from '../../lib/errors.ts';
import { policyFor, WINDOW_S } from '../../schemas/policy.ts';
import { rateKeyOf } from '../http/client-ip.ts';
import type { SocketEdge } from '../http/uws.ts';
import { parseBboxQuery } from '../live/params.ts';
import type { Bbox } from '../parts/spatial.ts';
import type { LiveState } from '../live/state.ts';
import { slowestOver, type StreamBudget } from './budget.ts';
import { CONTROL_TOPIC, StreamHub, type Subscription } from './hub.ts';
import { MAX_CLIENT_MESSAGE_BYTES, STREAM_PATH, errorMessage, parseClientMessage } from './protocol.ts';
import type * as Uws from 'uWebSockets.js';

const BUCKET = 'stream';
/** RFC 6455 1008: the client broke a rule of the service (here: it reads too slowly) */
const CLOSE_POLICY = 1008;
/**
 * a socket closed with a close frame (end) keeps what it had not sent until uWS gives up on it,
 * 15.5 s after the end on this build (measured, docs/perf-log/stream.md): counted in the budget that long
 */
const ENDING_HOLD_MS = 16_000;
/** a refusal for the whole server (budget spent, streams uncountable): when to try again */
const RETRY_BUSY_S = 30;
/** a stale snapshot is noticed within a second, as LiveState.watch notices it */
const TICK_MS = 1000;

export interface StreamOptions {
  live: LiveState;
  /** open streams one client address may hold */
  perIp: number;
  /** unsent bytes a socket may hold before it is closed as too slow */
  maxBufferBytes: number;
  /** open streams per client, counted across serving threads (default: this thread's own count) */
  opens?: OpenCounts;
  /** unsent bytes of every client of every serving thread (--stream-max-unsent; absent: no budget) */
  budget?: StreamBudget;
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
  /** this thread's unsent bytes at the last count */
  readonly unsent: number;
  /** clients closed, and upgrades refused, for the budget since start */
  readonly shed: { closed: number; refused: number };
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
  const budget = o.budget ?? null;
  // this thread's unsent bytes at the last count, and what the budget made it do
  let unsent = 0;
  const shed = { closed: 0, refused: 0 };
  // sockets ended with a reason, whose unsent bytes uWS still holds: until when, and how many
  let ending: { untilMs: number; bytes: number }[] = [];
  const endingBytes = () => {
    const now = edge.clock();
    if (ending.length && ending[0]!.untilMs <= now) ending = ending.filter((e) => e.untilMs > now);
    let n = 0;
    for (const e of ending) n += e.bytes;
    return n;
  };
  const tooSlow = (ws: Uws.WebSocket<Client>, buffered = ws.getBufferedAmount()) => {
    if (buffered <= o.maxBufferBytes) return false;
    ending.push({ untilMs: edge.clock() + ENDING_HOLD_MS, bytes: buffered });
    edge.log(`stream: closed a slow client (${buffered} bytes unsent, limit ${o.maxBufferBytes})`);
    ws.end(CLOSE_POLICY, `too slow: ${Math.ceil(buffered / 1024)} KiB unsent (limit ${Math.floor(o.maxBufferBytes / 1024)}); reconnect, or take a smaller box`);
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
    const buffered = ws.getBufferedAmount();
    if (tooSlow(ws, buffered)) return;
    // counted at once, so that the next upgrade (on any thread) sees it; recounted after each publish
    unsent += buffered;
    budget?.set(unsent);
  };
  const limited = (key: string): { rl: [string, string][]; refusal: ApiError | null } => {
    const policy = policyFor(BUCKET);
    if (!edge.rateLimits || policy.limit <= 0) return { rl: [], refusal: null };
    const d = edge.limiter.hit(BUCKET, key, policy.limit, edge.clock());
    const rl: [string, string][] = [
      ['RateLimit-Limit', String(d.limit)],
      ['RateLimit-Remaining', String(d.remaining)],
      ['RateLimit-Reset', String(d.resetS)],
    ];
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
      if (budget?.full()) {
        shed.refused++;
        const detail = `the server holds as much unsent stream data as it allows (--stream-max-unsent, ${mib(budget.limit)} MiB, for all clients); retry in ${RETRY_BUSY_S} s, or poll /v1/aircraft`;
        return edge.refuse(res, new ApiError(429, 'rate_limited', detail, { 'Retry-After': String(RETRY_BUSY_S) }), rl);
      }
      // checked and counted at once (fail closed: a stream that cannot be counted does not open)
      const reserved = opens.reserve(rateKey, o.perIp);
      if (reserved === 'at_cap') {
        return edge.refuse(
          res,
          new ApiError(429, 'rate_limited', `${o.perIp} streams are open from your address already; close one first (one stream can follow any box)`, {
            'Retry-After': '60',
          }),
          rl,
        );
      }
      if (reserved === 'uncounted') {
        // logged once when it starts and once when it ends, never per refusal (a flood would fill the log)
        if (!uncounted)
          edge.log('stream: refusing upgrades: the open-stream table has no room to count their addresses (a flood of addresses holding streams?)', 'warn');
        uncounted = true;
        return edge.refuse(
          res,
          new ApiError(429, 'rate_limited', `the server cannot count open streams for more addresses now; retry in ${RETRY_BUSY_S} s`, {
            'Retry-After': String(RETRY_BUSY_S),
          }),
          rl,
        );
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

  // every socket's unsent bytes, after each publish and once a second: a socket past its own limit
  // is closed; past the budget, the slowest go until this thread holds its share of it
  const checkAll = () => {
    const open: Uws.WebSocket<Client>[] = [];
    const sizes: number[] = [];
    let sum = 0;
    for (const ws of sockets) {
      const b = ws.getBufferedAmount();
      if (tooSlow(ws, b)) continue;
      open.push(ws);
      sizes.push(b);
      sum += b;
    }
    const held = endingBytes();
    unsent = sum + held;
    if (!budget) return;
    budget.set(unsent);
    const keep = budget.keep(unsent);
    if (keep === null) return;
    const drop = slowestOver(sizes, Math.max(0, keep - held));
    let freed = 0;
    for (const i of drop) {
      freed += sizes[i]!;
      // closed at once, without a close frame: queued behind what it has not read, it would hold
      // the bytes until the connection timed out (the reason is in the log and the docs)
      open[i]!.close();
    }
    shed.closed += drop.length;
    unsent -= freed;
    budget.set(unsent);
    edge.log(
      `stream: over the unsent budget (${mib(budget.total() + freed)} MiB of ${mib(budget.limit)} MiB across threads): closed the ${drop.length} slowest of ${open.length} clients here (${mib(freed)} MiB)`,
      'warn',
    );
  };
  // indexed and diffed in slices between requests: a whole-sky subscriber makes the diff cover
  // every aircraft, 15-80 ms a snapshot in one piece on this machine
  o.live.onLive((snap) => guarded('publish', () => hub.acceptSliced(snap, staleDetail(), (next) => setImmediate(() => guarded('publish', next)), checkAll)));
  const timer = setInterval(() => {
    guarded('tick', () => hub.tick(staleDetail()));
    // clients that read again free their part of the budget between snapshots too
    guarded('count', checkAll);
  }, TICK_MS);
  timer.unref();
  return {
    hub,
    get clients() {
      return sockets.size;
    },
    get unsent() {
      return unsent;
    },
    shed,
    stop: () => {
      clearInterval(timer);
      budget?.set(0);
    },
  };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0);
