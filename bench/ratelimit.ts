// rate-limit cost, run by hand: the real uWebSockets.js server with one small route, its limits
// counted in this process's memory or in a real Redis (Debian's redis-server on loopback, started
// here), driven over loopback by keep-alive clients, each request as another client address
// (X-Forwarded-For from a trusted proxy) so every answer is a 200 that was counted.
//   npx tsx bench/ratelimit.ts [--requests 20000] [--connections 32]
// prints a markdown table: req/s and p50/p99 per mode.
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { startServer } from '../server/http/uws.ts';
import { SharedLimits } from '../server/http/shared-limits.ts';
import { reply } from '../server/http/types.ts';
import { WINDOW_S } from '../schemas/policy.ts';
import { startRedis } from '../test/helpers/redis.ts';
import { numberFlag } from './flags.ts';

const REQUESTS = numberFlag('requests', 20_000);
const CONNECTIONS = numberFlag('connections', 32);
const routes = [{ pattern: '/v1/now', bucket: 'now', handler: () => reply({ ok: true }) }];

function get(agent: Agent, port: number, client: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/now', agent, headers: { 'x-forwarded-for': client } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function drive(port: number): Promise<{ rps: number; p50: number; p99: number; non200: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const times: number[] = [];
  let next = 0;
  let non200 = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        // 10.x.y.z: each address asks a few times, far below any limit
        const client = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const s = performance.now();
        if ((await get(agent, port, client)) !== 200) non200++;
        times.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  return { rps: REQUESTS / secs, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, non200 };
}

const redis = await startRedis();
try {
  console.log(`node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${REQUESTS} requests, ${CONNECTIONS} keep-alive connections, client and server in one process\n`);
  console.log('| limits | req/s | p50 ms | p99 ms | non-200 |');
  console.log('|---|---|---|---|---|');
  for (const mode of ['off', 'memory', 'redis'] as const) {
    const shared = mode === 'redis' ? new SharedLimits({ url: redis.url, windowS: WINDOW_S, log: (l) => console.error(l) }) : null;
    await shared?.ready();
    const s = await startServer(routes, { host: '127.0.0.1', port: 0, trustProxy: ['127.0.0.1'], rateLimits: mode !== 'off', ...(shared ? { shared } : {}), log: () => {} });
    await drive(s.port); // warm-up round, not counted
    const r = await drive(s.port);
    console.log(`| ${mode === 'redis' ? 'Redis (--rate-limit-redis)' : mode === 'memory' ? 'in memory (default)' : 'none (--no-rate-limits)'} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.non200} |`);
    s.close();
    shared?.close();
  }
} finally {
  await redis.stop();
}
