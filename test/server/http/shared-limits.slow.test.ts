// rate limits shared through a real Redis (Debian's redis-server on loopback): two real uWebSockets.js
// servers in this process, each with its own SharedLimits, count ONE budget per client; when Redis
// is away each counts in its own memory with one warning, and sharing resumes when Redis is back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { policyFor, WINDOW_S } from '../../../schemas/policy.ts';
import { reply, type Route } from '../../../server/http/types.ts';
import { SharedLimits, redactedUrl } from '../../../server/http/shared-limits.ts';
import { eventually } from '../../helpers/processes.ts';
import { redisCommand, startRedis } from '../../helpers/redis.ts';
import { freePort } from '../../helpers/ports.ts';
import { serve } from '../../helpers/http.ts';

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
const routes: Route[] = [
  { pattern: '/v1/airports/:code', bucket: 'airport', handler: (req) => reply({ code: req.params.code }) },
  { pattern: '/v1/route/:callsign', bucket: 'route', handler: (req) => reply({ callsign: req.params.callsign }) },
  { pattern: '/healthz', bucket: 'health', handler: () => reply({ ok: true }) },
];
const LIMIT = policyFor('airport').limit;

async function pair(url: string) {
  const logs: string[] = [];
  const levels: string[] = [];
  const log = (l: string, level = 'info') => {
    logs.push(l);
    levels.push(level);
  };
  const limits = [new SharedLimits({ url, windowS: WINDOW_S, log }), new SharedLimits({ url, windowS: WINDOW_S, log })];
  await Promise.all(limits.map((l) => l.ready()));
  const servers = await Promise.all(limits.map((shared) => serve(routes, { clock: () => T0, shared, log })));
  return {
    logs,
    levels,
    servers,
    close() {
      for (const s of servers) s.close();
      for (const l of limits) l.close();
    },
  };
}

test('two servers sharing one Redis count one budget: the request past the limit is refused by either, with right headers', async () => {
  const redis = await startRedis();
  const p = await pair(redis.url);
  try {
    for (let i = 1; i <= LIMIT; i++) {
      const r = await p.servers[i % 2]!.get('/v1/airports/ZRH');
      assert.equal(r.status, 200, `request ${i}`);
      assert.equal(r.headers['ratelimit-limit'], String(LIMIT));
      assert.equal(r.headers['ratelimit-remaining'], String(LIMIT - i), `request ${i}: one count over both servers`);
      const reset = Number(r.headers['ratelimit-reset']);
      assert.ok(reset >= 1 && reset <= WINDOW_S, `reset ${reset}`);
    }
    for (const s of p.servers) {
      const r = await s.get('/v1/airports/ZRH');
      assert.equal(r.status, 429);
      assert.equal(r.json.error, 'rate_limited');
      assert.equal(r.headers['ratelimit-remaining'], '0');
      const retry = Number(r.headers['retry-after']);
      assert.ok(retry >= 1 && retry <= WINDOW_S, 'retry >= 1 && retry <= WINDOW_S');
      assert.equal(r.headers['ratelimit-reset'], r.headers['retry-after']);
    }
    // an unlimited bucket never asks Redis and carries no RateLimit headers
    const h = await p.servers[0]!.get('/healthz');
    assert.equal(h.status, 200);
    assert.equal(h.headers['ratelimit-limit'], undefined);
    assert.deepEqual(p.logs, [], 'nothing to warn about while Redis answers');
  } finally {
    p.close();
    await redis.stop();
  }
});

test('Redis away at start and in between: requests are served, counted per server, one warning; sharing resumes when it is back', async () => {
  const port = await freePort();
  const p = await pair(`redis://127.0.0.1:${port}`);
  let redis: Awaited<ReturnType<typeof startRedis>> | null = null;
  try {
    for (let i = 1; i <= 20; i++) {
      const r = await p.servers[i % 2]!.get('/v1/airports/GVA');
      assert.equal(r.status, 200, `request ${i} is served, not failed`);
      // each server counts alone: the second request on a server sees its own second count
      assert.equal(r.headers['ratelimit-remaining'], String(LIMIT - Math.ceil(i / 2)), `request ${i}`);
    }
    assert.equal(p.logs.length, 2, `one warning per server, not one per request: ${p.logs.join(' | ')}`);
    for (const l of p.logs) assert.match(l, new RegExp(`Redis at redis://127\\.0\\.0\\.1:${port} does not answer.*counting in this process`));
    assert.deepEqual(p.levels, ['warn', 'warn'], 'the fallback is a warning');

    redis = await startRedis(port);
    await eventually(async () => assert.equal(p.logs.filter((l) => l.includes('answers again')).length, 2));
    const a = await p.servers[0]!.get('/v1/airports/BRN');
    const b = await p.servers[1]!.get('/v1/airports/BRN');
    assert.deepEqual([a.headers['ratelimit-remaining'], b.headers['ratelimit-remaining']], [String(LIMIT - 1), String(LIMIT - 2)], 'one count again');

    await redis.stop();
    const c = await p.servers[0]!.get('/v1/airports/BRN');
    assert.equal(c.status, 200, 'served while Redis is gone again');
    await eventually(async () => assert.equal(p.logs.filter((l) => l.includes('does not answer')).length, 4));
  } finally {
    p.close();
    await redis?.stop();
  }
});

test('a Redis that hangs (CLIENT PAUSE) is not waited on request after request: counted here, one warning, shared again after', async () => {
  const redis = await startRedis();
  const p = await pair(redis.url);
  try {
    const [a, b] = p.servers;
    assert.equal((await a!.get('/v1/airports/LUG')).headers['ratelimit-remaining'], String(LIMIT - 1));
    assert.equal(await redisCommand(redis.port, ['CLIENT', 'PAUSE', '1500', 'ALL']), '+OK');
    // the first request waits for the command timeout, then is counted here; the next ones at once
    for (let i = 1; i <= 3; i++) {
      const r = await a!.get('/v1/airports/LUG');
      assert.equal(r.status, 200, `request ${i} while Redis hangs`);
      assert.equal(r.headers['ratelimit-remaining'], String(LIMIT - i), `request ${i}: this server's own count`);
    }
    assert.equal(p.logs.length, 1, p.logs.join(' | '));
    assert.match(p.logs[0]!, /does not answer \(Command timed out\)/);
    await eventually(async () => {
      await a!.get('/v1/route/SWR1');
      assert.ok(
        p.logs.some((l) => l.includes('answers again')),
        "p.logs.some((l) => l.includes('answers again'))",
      );
    });
    // Redis saw the airport request before the pause and the one that timed out (run once the pause
    // ended), not the two after it: those were counted here without asking
    assert.equal(await redisCommand(redis.port, ['INCRBY', 'contrail:rl:airport:127.0.0.1', '0']), ':2');
    const x = Number((await b!.get('/v1/route/SWR2')).headers['ratelimit-remaining']);
    const y = Number((await a!.get('/v1/route/SWR3')).headers['ratelimit-remaining']);
    assert.equal(y, x - 1, 'one count across both servers again');
  } finally {
    p.close();
    await redis.stop();
  }
});

test('a client pipelining straight to a server that counts in Redis has its connection closed by uWebSockets.js: the front must be in between', async () => {
  // uWS refuses a request that arrives while an earlier answer on the connection is pending
  // ("async pipelining"); nginx never pipelines to its upstream, so behind the front every request
  // is answered (test/deploy/replicas.slow.test.ts sends a pipelined burst through it). documented in deploy/README.md
  const redis = await startRedis();
  const p = await pair(redis.url);
  try {
    const burst = ['AAA', 'BBB', 'CCC'].map((c) => `GET /v1/airports/${c} HTTP/1.1\r\nHost: x\r\n\r\n`).join('');
    const got = await new Promise<{ text: string; closedByServer: boolean }>((resolve) => {
      const sock = connect(p.servers[0]!.port, '127.0.0.1');
      let text = '';
      let timedOut = false;
      sock.on('data', (d) => (text += d.toString()));
      sock.on('close', () => resolve({ text, closedByServer: !timedOut }));
      sock.setTimeout(3000, () => {
        timedOut = true;
        sock.destroy();
      });
      sock.write(burst);
    });
    assert.equal(got.closedByServer, true);
    assert.ok(!got.text.includes('"code":"BBB"'), 'the pipelined request is not answered');
    // one request at a time on a connection is answered as usual
    assert.equal((await p.servers[0]!.get('/v1/airports/AAA')).status, 200);
  } finally {
    p.close();
    await redis.stop();
  }
});

test('the Redis URL is logged without its password', () => {
  assert.equal(redactedUrl('redis://user:secret@10.0.0.5:6379/2'), 'redis://user:***@10.0.0.5:6379/2');
  assert.equal(redactedUrl('not a url'), '(unparsable URL)');
});
