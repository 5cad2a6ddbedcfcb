// the live sky for the view: the push stream /v1/stream where it can (one box change only when the
// view leaves the padded box it follows), else polling /v1/aircraft for the view every 5 s, trying
// the stream again every minute. a stale feed (the stream's `stale`, or a 503 stale_snapshot) is
// reported as stale, never as an empty sky. the stream's messages are parsed and kept by a sink:
// here on the page (Sky, sky.ts), or in the sky worker (sky-layer.ts) where the page has one.
import { getJson } from './api.ts';
import { bboxParam, covers, viewBox, type Box, type View } from './bbox.ts';
import { Sky } from './sky.ts';
import type { Aircraft } from './types.ts';

export type Via = 'stream' | 'polling';

export interface LiveHandlers {
  /** a whole, current picture of the followed area; `now` is the snapshot time (unix s) */
  sky(aircraft: Aircraft[], now: number, via: Via): void;
  /** the live routes are stale (503 stale_snapshot): what is held is not the sky now */
  stale(detail: string): void;
  /** how the map is fed now, for the status line */
  mode(via: Via | 'connecting', why: string): void;
}

export interface LiveOptions {
  pollMs: number;
  streamRetryMs: number;
  /** the followed box is the view padded by this share of its size on each side */
  pad: number;
  /** false: poll only (a page opened with #poll) */
  stream: boolean;
}

const DEFAULTS: LiveOptions = { pollMs: 5000, streamRetryMs: 60_000, pad: 0.5, stream: true };

/** a stream message once applied: its type and what the rule reads, never its aircraft */
export type StreamControl = { type: string; bbox?: unknown; cells?: { cell: string }[]; now?: number; detail?: string };

/** where the stream's messages are parsed and held (docs/ARCHITECTURE.md "The map's sky worker") */
export interface StreamSink {
  /** a new connection: forget what the last one sent */
  reset(): void;
  /** one message, as the text it came as */
  feed(text: string): void;
  /** set by Live: each message once applied, in order; at an `end`, the records the map now holds */
  onMessage: (m: StreamControl, records: Aircraft[] | null) => void;
}

/** the sink on the page: JSON.parse and the client rule here */
export class LocalSink implements StreamSink {
  private readonly sky = new Sky();
  onMessage: StreamSink['onMessage'] = () => {};

  reset(): void {
    this.sky.replace([]);
  }

  feed(text: string): void {
    const m = JSON.parse(text);
    if (m.type === 'subscribed') this.sky.subscribed((m.cells as { cell: string }[]).map((c) => c.cell));
    else if (m.type === 'full') this.sky.full(m.cell, m.aircraft);
    else if (m.type === 'diff') this.sky.diff(m.cell, m.upsert, m.gone);
    this.onMessage(m, m.type === 'end' ? this.sky.records() : null);
  }
}

export class Live {
  /** polling's picture (the stream's is the sink's) */
  private readonly sky = new Sky();
  private readonly sink: StreamSink;
  private ended = false;
  private ws: WebSocket | null = null;
  /** the box the server says it follows (its last `subscribed`), and one asked for and not yet answered */
  private followed: Box | null = null;
  private asked: Box | null | undefined = undefined;
  private via: Via | 'connecting' = 'connecting';
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly o: LiveOptions;

  constructor(
    private readonly view: () => View,
    private readonly h: LiveHandlers,
    options: Partial<LiveOptions> = {},
    sink: StreamSink | null = null,
  ) {
    this.o = { ...DEFAULTS, ...options };
    this.sink = sink ?? new LocalSink();
    this.sink.onMessage = (m, records) => this.onMessage(m, records);
  }

  start(): void {
    if (this.o.stream && typeof WebSocket === 'function') this.connect();
    else this.poll('polling: the stream is switched off');
  }

  get mode(): Via | 'connecting' {
    return this.via;
  }

  /** the view moved: follow it (a box change on the stream only when the view left the followed box) */
  viewChanged(): void {
    if (this.via === 'stream' && this.ws?.readyState === WebSocket.OPEN) {
      if (covers(this.asked === undefined ? this.followed : this.asked, this.view())) return;
      this.asked = viewBox(this.view(), this.o.pad);
      this.ws.send(JSON.stringify({ bbox: this.asked }));
    } else if (this.via === 'polling') {
      void this.pollOnce();
    }
  }

  private connect(): void {
    this.followed = viewBox(this.view(), this.o.pad);
    this.asked = undefined;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}/v1/stream${this.followed ? `?bbox=${bboxParam(this.followed)}` : ''}`;
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      this.poll(`polling: the stream could not be opened (${(e as Error).message})`);
      return;
    }
    this.ws = ws;
    this.ended = false;
    this.sink.reset();
    ws.onmessage = (e) => this.sink.feed(String(e.data));
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.poll(this.ended ? `polling: the stream closed (${e.code}${e.reason ? ` ${e.reason}` : ''})` : 'polling: the stream was refused');
    };
  }

  /** a message of the open connection, applied by the sink (a worker's may arrive after the close: dropped) */
  private onMessage(m: StreamControl, records: Aircraft[] | null): void {
    if (!this.ws) return;
    if (m.type === 'end' && !this.ended) {
      this.ended = true;
      this.stopPolling();
      this.via = 'stream';
      this.h.mode('stream', 'live via the push stream');
    }
    switch (m.type) {
      case 'subscribed':
        this.followed = m.bbox as Box;
        this.asked = undefined;
        break;
      case 'end':
        this.h.sky(records ?? [], m.now!, 'stream');
        break;
      case 'stale':
        this.h.stale(m.detail!);
        break;
      case 'error':
        // a refused box change (rate_limited): the stream goes on with the box it had; the next
        // move that leaves it asks again
        this.asked = undefined;
        break;
    }
  }

  private poll(why: string): void {
    this.via = 'polling';
    this.h.mode('polling', why);
    void this.pollOnce();
    if (this.o.stream && typeof WebSocket === 'function' && !this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (this.via === 'polling') this.connect();
      }, this.o.streamRetryMs);
    }
  }

  private stopPolling(): void {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  private async pollOnce(): Promise<void> {
    this.stopPolling();
    const box = viewBox(this.view(), 0.1);
    const r = await getJson<{ generated_at: number; aircraft: Aircraft[] }>(`/v1/aircraft${box ? `?bbox=${bboxParam(box)}` : ''}`);
    if (this.via !== 'polling') return;
    let nextMs = this.o.pollMs;
    if (r.ok) {
      this.sky.replace(r.body.aircraft);
      this.h.sky(this.sky.records(), r.body.generated_at, 'polling');
    } else {
      if (r.error === 'stale_snapshot') this.h.stale(r.detail);
      if (r.retryAfterS) nextMs = Math.max(nextMs, r.retryAfterS * 1000);
    }
    this.stopPolling();
    this.pollTimer = setTimeout(() => void this.pollOnce(), nextMs);
  }
}
