// the access log's cost, run by hand: the real uWebSockets.js server with one small route, its
// answers heard by nothing, or by the access log (--access-log: the entry, pino's JSON line, written
// to a file descriptor as the server writes stdout), in alternating rounds.
//   npx tsx bench/access-log.ts [--requests 20000] [--connections 32] [--rounds 3]
// prints a markdown table: req/s and p50/p99 per round, then the access log's own cost per line.
import './help.ts';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../server/http/uws.ts';
import { reply } from '../server/http/types.ts';
import { accessEntry } from '../server/access-log.ts';
import { createLogger } from '../lib/log.ts';
import { numberFlag } from './flags.ts';
import { drive } from './keepalive.ts';

const REQUESTS = numberFlag('requests', 20_000);
const CONNECTIONS = numberFlag('connections', 32);
const ROUNDS = numberFlag('rounds', 3);
const routes = [{ pattern: '/v1/now', bucket: 'now', handler: () => reply({ ok: true }) }];

const dir = mkdtempSync(join(tmpdir(), 'contrail-access-'));
const fd = openSync(join(dir, 'log'), 'a');
const { event } = createLogger({ logFormat: 'json', logLevel: 'info' }, fd);
try {
  console.log(
    `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${REQUESTS} requests, ${CONNECTIONS} keep-alive connections, client and server in one process\n`,
  );
  console.log('| round | access log | req/s | p50 ms | p99 ms | non-200 |');
  console.log('|---|---|---|---|---|---|');
  for (let round = 1; round <= ROUNDS; round++) {
    for (const on of [false, true]) {
      const s = await startServer(routes, {
        host: '127.0.0.1',
        port: 0,
        trustProxy: ['127.0.0.1'],
        rateLimits: false,
        log: () => {},
        ...(on ? { observe: (route, bucket, status, ms, req) => event('request', accessEntry(route, bucket, status, ms, req, false)) } : {}),
      });
      await drive(s.port, REQUESTS, CONNECTIONS); // warm-up round, not counted
      const r = await drive(s.port, REQUESTS, CONNECTIONS);
      console.log(`| ${round} | ${on ? 'on' : 'off'} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.non200} |`);
      s.close();
    }
  }
  // the line alone, without the server: the entry and its JSON (the loop never yields, so the
  // writes wait until it ends: they are in the rounds above, not here)
  const req = { method: 'GET', path: '/v1/trace/4b1814', ip: '10.0.0.1', bytes: 1234 };
  const N = 200_000;
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) event('request', accessEntry('/v1/trace/:hex', 'trace', 200, i / 1000, req, false));
    times.push(((performance.now() - t0) * 1000) / N);
  }
  times.sort((a, b) => a - b);
  console.log(`\none access line (entry and JSON, before the write): min ${times[0]!.toFixed(2)} µs, median ${times[2]!.toFixed(2)} µs`);
} finally {
  // the descriptor stays open: pino's writer flushes what is left into it at exit
  rmSync(dir, { recursive: true, force: true });
}
