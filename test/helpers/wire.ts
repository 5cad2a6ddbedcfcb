// HTTP/1.1 on a raw socket (node:net): requests written exactly as given (one write, byte by byte,
// or in pieces), answers parsed off the wire by Content-Length, so a test sees every status line
// the server sent, in order, and whether it closed the connection. no client library in between.
import { connect } from 'node:net';

export interface Answer {
  status: number;
  /** lower-case names; a repeated header keeps its last value */
  headers: Record<string, string>;
  /** header names in the order sent, lower-case, repeats included */
  names: string[];
  body: Buffer;
}

interface Exchange {
  answers: Answer[];
  /** the server closed the connection (or reset it) */
  closed: boolean;
  /** bytes after the last whole answer (a torn answer, or garbage) */
  rest: number;
}

interface ExchangeOptions {
  /** write each request byte by byte, this many ms apart (a slow client) */
  byteDelayMs?: number;
  /** give up after this long without the answers expected (default 5 s) */
  timeoutMs?: number;
}

/** the request line's method of each request in a string of pipelined requests: a HEAD answer has no body */
export const methodsOf = (requests: string): string[] =>
  [...requests.matchAll(/(?:^|\r\n\r\n)([A-Za-z-]+) \S+ HTTP\/1\.[01]\r\n/g)].map((m) => m[1]!.toUpperCase());

/**
 * Write `requests` (pipelined: one write of them all, unless `byteDelayMs`) and read answers until
 * `expect` have arrived, the server closes, or the time runs out. `methods` says which answers
 * have no body (HEAD), in request order.
 */
export function exchange(port: number, requests: string | Buffer, expect: number, methods: string[], o: ExchangeOptions = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let closed = false;
    let done = false;
    const answers: Answer[] = [];
    const parse = () => {
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
        const headers: Record<string, string> = {};
        const names: string[] = [];
        for (const l of lines.slice(1)) {
          const at = l.indexOf(':');
          const k = l.slice(0, at).trim().toLowerCase();
          names.push(k);
          headers[k] = l.slice(at + 1).trim();
        }
        const noBody = methods[answers.length] === 'HEAD' || status === 204 || status === 304 || status === 101;
        const len = noBody ? 0 : Number(headers['content-length'] ?? 0);
        if (buf.length < end + 4 + len) return;
        answers.push({ status, headers, names, body: buf.subarray(end + 4, end + 4 + len) });
        buf = buf.subarray(end + 4 + len);
      }
    };
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve({ answers, closed, rest: buf.length });
    };
    const timer = setTimeout(finish, o.timeoutMs ?? 5000);
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      parse();
      // a little longer after the last expected one: an extra answer would show
      if (answers.length >= expect) setTimeout(finish, 50);
    });
    sock.on('close', () => {
      closed = true;
      finish();
    });
    sock.on('error', () => undefined);
    const bytes = Buffer.isBuffer(requests) ? requests : Buffer.from(requests, 'latin1');
    if (!o.byteDelayMs) {
      sock.write(bytes);
      return;
    }
    let i = 0;
    const next = () => {
      if (done || i >= bytes.length) return;
      sock.write(bytes.subarray(i, ++i));
      setTimeout(next, o.byteDelayMs);
    };
    sock.once('connect', next);
  });
}

/**
 * A client that goes away: writes `requests`, then closes the socket after `afterBytes` of the
 * answer have arrived (0: at once, before any answer). Resolves when the socket is gone.
 */
export function abandon(port: number, requests: string, afterBytes: number): Promise<void> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1', () => {
      sock.write(requests);
      if (afterBytes === 0) sock.destroy();
    });
    let got = 0;
    sock.on('data', (d: Buffer) => {
      got += d.length;
      if (got >= afterBytes) sock.destroy();
    });
    const t = setTimeout(() => sock.destroy(), 3000);
    sock.on('close', () => {
      clearTimeout(t);
      resolve();
    });
    sock.on('error', () => undefined);
  });
}

export const get = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
export const head = (path: string, extra = ''): string => `HEAD ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
