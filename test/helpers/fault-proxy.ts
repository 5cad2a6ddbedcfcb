// a small HTTP proxy in front of the real S3 server that injects the failures of a real network and
// a real store: a throttling or error answer instead of forwarding (503 SlowDown, 429, 500), or a
// connection reset; everything else is forwarded as it is. it counts what it forwarded, per method.
import { createServer, request, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** what to do with one request: forward it, answer with an S3 error, or drop the connection */
export type Fault = null | 'reset' | { status: number; code: string };

export interface FaultProxy {
  endpoint: string;
  /** requests forwarded to the store (and answered by it), by method */
  forwarded: Record<string, number>;
  /** keys of the objects whose PUT the store answered 200 (whole objects, not parts) */
  stored: string[];
  /** faults injected so far */
  injected: number;
  close(): Promise<void>;
}

/** `decide` sees each request (method, path without the bucket, query) before it is forwarded. */
export async function faultProxy(target: string, decide: (req: IncomingMessage, path: string) => Fault = () => null): Promise<FaultProxy> {
  const up = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const p: Omit<FaultProxy, 'endpoint' | 'close'> = { forwarded: {}, stored: [], injected: 0 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
    const fault = decide(req, path);
    if (fault === 'reset') {
      p.injected++;
      req.socket.destroy();
      return;
    }
    if (fault) {
      p.injected++;
      req.resume();
      req.on('end', () => {
        res.writeHead(fault.status, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${fault.code}</Code><Message>injected by the test proxy</Message></Error>`);
      });
      return;
    }
    const fwd = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers, agent }, (r) => {
      // counted when the store answers, before the client can see the answer
      p.forwarded[req.method ?? '?'] = (p.forwarded[req.method ?? '?'] ?? 0) + 1;
      const wholeObject = req.method === 'PUT' && !url.searchParams.has('partNumber');
      const completed = req.method === 'POST' && url.searchParams.has('uploadId');
      if (r.statusCode === 200 && (wholeObject || completed)) p.stored.push(path);
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    fwd.on('error', () => req.socket.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(p, {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
