// rate-limit cost, run by hand: the real uWebSockets.js server with one small route, its limits
// counted in this process's memory or in a real Redis (Debian's redis-server on loopback, started
// here), driven over loopback by keep-alive clients, each request as another client address
// (X-Forwarded-For from a trusted proxy) so every answer is a 200 that was counted.
//   npx tsx bench/ratelimit.ts [--requests 20000] [--connections 32]
// prints a markdown table: req/s and p50/p99 per mode.
import './help.ts';
import { cpus } from 'node:os';
import { startServer } from '../server/http/uws.ts';
import { SharedLimits } from '../server/http/shared-limits.ts';
import { reply } from '../server/http/types.ts';
import { WINDOW_S } from '../schemas/policy.ts';
import { startRedis } from '../test/helpers/redis.ts';
import { numberFlag } from './flags.ts';
import { drive as driveWith } from './keepalive.ts';

const REQUESTS = numberFlag('requests', 20_000);
const CONNECTIONS = numberFlag('connections', 32);
const drive = (port: number) => driveWith(port, REQUESTS, CONNECTIONS);
const routes = [{ pattern: '/v1/now', bucket: 'now', handler: () => reply({ ok: true }) }];

const redis = await startRedis();
try {
  console.log(
    `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${REQUESTS} requests, ${CONNECTIONS} keep-alive connections, client and server in one process\n`,
  );
  console.log('| limits | req/s | p50 ms | p99 ms | non-200 |');
  console.log('|---|---|---|---|---|');
  for (const mode of ['off', 'memory', 'redis'] as const) {
    const shared = mode === 'redis' ? new SharedLimits({ url: redis.url, windowS: WINDOW_S, log: (l) => console.error(l) }) : null;
    await shared?.ready();
    const s = await startServer(routes, {
      host: '127.0.0.1',
      port: 0,
      trustProxy: ['127.0.0.1'],
      rateLimits: mode !== 'off',
      ...(shared ? { shared } : {}),
      log: () => {},
    });
    await drive(s.port); // warm-up round, not counted
    const r = await drive(s.port);
    console.log(
      `| ${mode === 'redis' ? 'Redis (--rate-limit-redis)' : mode === 'memory' ? 'in memory (default)' : 'none (--no-rate-limits)'} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.non200} |`,
    );
    s.close();
    shared?.close();
  }
} finally {
  await redis.stop();
}
