// a small RFC 6455 client over node:http's upgrade, for the stream's tests and bench (Node 20 has no
// global WebSocket without a flag). it reads text, close and ping frames (fragmented or not), sends
// masked text or binary frames, and can stop reading to play a slow consumer.
import { request } from 'node:http';
import type { Socket } from 'node:net';

export interface Refused {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Closed {
  code: number;
  reason: string;
}

export interface ClientOptions {
  /** false (a bench with many clients): messages are not queued, onMessage hears their type alone */
  parse?: boolean;
  /** hears every message from the first (those that came with the upgrade answer too) */
  onMessage?: (m: any) => void;
}

// a fixed masking key: the server unmasks whatever it is; tests stay deterministic
const MASK = Buffer.from([0x1f, 0x2e, 0x3d, 0x4c]);

export class WsClient {
  /** text messages received and not yet taken, parsed as JSON */
  private readonly queue: any[] = [];
  private waiter: (() => void) | null = null;
  private buf: Buffer = Buffer.alloc(0);
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** bytes `buf` must hold before the frame at its start is whole */
  private need = 0;
  private fragments: Buffer[] = [];
  /** settles when the server closes (with its close frame's code and reason) or the TCP connection ends */
  readonly closed: Promise<Closed>;
  private settle!: (c: Closed) => void;
  /** bytes of message payload read so far */
  received = 0;
  /** hears every message as it arrives (a test checks each against its schema) */
  onMessage: ((m: any) => void) | null;

  private readonly parse: boolean;

  constructor(
    private readonly socket: Socket,
    head: Buffer,
    o: ClientOptions = {},
  ) {
    this.parse = o.parse ?? true;
    this.onMessage = o.onMessage ?? null;
    this.closed = new Promise((r) => (this.settle = r));
    socket.on('data', (d: Buffer) => this.read(d));
    socket.on('close', () => this.finish({ code: 1006, reason: 'connection closed without a close frame' }));
    socket.on('error', () => {});
    if (head.length) this.read(head);
  }

  /** The next message (optionally the next one `want` accepts, dropping the others); fails after `ms`. */
  async next(want: (m: any) => boolean = () => true, ms = 5000): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.queue.length) {
        const m = this.queue.shift();
        if (want(m)) return m;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no wanted message within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  /** Every message up to and including the next `end` (or `stale`). */
  async untilEnd(ms = 5000): Promise<any[]> {
    const out: any[] = [];
    for (;;) {
      const m = await this.next(() => true, ms);
      out.push(m);
      if (m.type === 'end' || m.type === 'stale') return out;
    }
  }

  send(text: string | Buffer, binary = false): void {
    this.frame(binary ? 0x2 : 0x1, Buffer.isBuffer(text) ? text : Buffer.from(text));
  }

  close(): void {
    this.frame(0x8, Buffer.from([0x03, 0xe8]));
    this.socket.end();
  }

  /** Stop reading: the server's bytes pile up in its buffers (a slow consumer). */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  /** Drop the connection at once, unread bytes and all (a client that goes away without a close frame). */
  destroy(): void {
    this.socket.destroy();
  }

  private frame(opcode: number, payload: Buffer): void {
    const n = payload.length;
    const len =
      n < 126
        ? Buffer.from([0x80 | n])
        : n < 65536
          ? Buffer.from([0x80 | 126, n >> 8, n & 0xff])
          : Buffer.concat([Buffer.from([0x80 | 127, 0, 0, 0, 0]), Buffer.from([(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])]);
    const masked = Buffer.alloc(n);
    for (let i = 0; i < n; i++) masked[i] = payload[i]! ^ MASK[i & 3]!;
    this.socket.write(Buffer.concat([Buffer.from([0x80 | opcode]), len, MASK, masked]));
  }

  private read(d: Buffer): void {
    // a big frame arrives in many chunks: gather them and join once it is whole (not once per chunk)
    this.pending.push(d);
    this.pendingBytes += d.length;
    if (this.buf.length + this.pendingBytes < this.need) return;
    this.buf = Buffer.concat([this.buf, ...this.pending]);
    this.pending = [];
    this.pendingBytes = 0;
    this.need = 0;
    for (;;) {
      if (this.buf.length < 2) return;
      const fin = (this.buf[0]! & 0x80) !== 0;
      const opcode = this.buf[0]! & 0x0f;
      let len = this.buf[1]! & 0x7f;
      let at = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2));
        at = 10;
      }
      if (this.buf.length < at + len) {
        this.need = at + len;
        return;
      }
      const payload = this.buf.subarray(at, at + len);
      this.buf = this.buf.subarray(at + len);
      if (opcode === 0x8) {
        this.finish({ code: len >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString() });
        this.socket.end();
        return;
      }
      if (opcode === 0x9) this.frame(0xa, Buffer.from(payload));
      if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        this.fragments.push(Buffer.from(payload));
        if (!fin) continue;
        const whole = Buffer.concat(this.fragments);
        this.fragments = [];
        this.received += whole.length;
        const m = this.parse ? JSON.parse(whole.toString('utf8')) : { type: /"type":"(\w+)"/.exec(whole.subarray(0, 24).toString('latin1'))?.[1] };
        this.onMessage?.(m);
        if (!this.parse) continue;
        this.queue.push(m);
        this.waiter?.();
      }
    }
  }

  private finish(c: Closed): void {
    this.settle(c);
    this.waiter?.();
  }
}

/** Open a WebSocket to `url` (http://...), or get the HTTP answer that refused it. */
export function connect(url: string, headers: Record<string, string> = {}, o: ClientOptions = {}): Promise<WsClient | Refused> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      agent: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    req.on('upgrade', (_res, socket, head) => resolve(new WsClient(socket, head, o)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to the upgrade of ${url} in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The socket, or a failed assertion naming the refusal. */
export async function open(url: string, headers: Record<string, string> = {}, o: ClientOptions = {}): Promise<WsClient> {
  const c = await connect(url, headers, o);
  if (!(c instanceof WsClient)) throw new Error(`the upgrade was refused: ${c.status} ${c.body}`);
  return c;
}
