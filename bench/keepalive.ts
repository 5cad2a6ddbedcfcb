// drives a server's /v1/now over loopback with keep-alive clients, each request as another client
// address (X-Forwarded-For, for a server that trusts 127.0.0.1): req/s and p50/p99 (bench/ratelimit.ts,
// bench/access-log.ts).
import { Agent, request } from 'node:http';

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

export async function drive(port: number, requests: number, connections: number): Promise<{ rps: number; p50: number; p99: number; non200: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const times: number[] = [];
  let next = 0;
  let non200 = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < requests) {
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
  return { rps: requests / secs, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, non200 };
}
