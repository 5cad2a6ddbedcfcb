// scale-out on real parts: two live server processes (npm run serve) reading one readsb feed file,
// behind the shipped nginx front with an upstream of both, counting rate limits in one real Redis
// (Debian's redis-server on loopback). a client's budget is one, whichever replica answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policyFor, WINDOW_S } from '../../schemas/policy.ts';
import { httpGet } from '../helpers/http.ts';
import { startFront, type Front } from '../helpers/nginx.ts';
import { ROOT, eventually, startServerProcess, type ServerProcess } from '../helpers/processes.ts';
import { startRedis, type RedisServer } from '../helpers/redis.ts';

const LIMIT = policyFor('aircraft').limit;
const tmp = mkdtempSync(join(tmpdir(), 'contrail-replicas-'));
const feed = join(tmp, 'aircraft.json');
let redis: RedisServer;
let front: Front;
let replicas: ServerProcess[] = [];

before(async () => {
  redis = await startRedis();
  const sample = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/feed/readsb_sample.json'), 'utf8'));
  // the feed must be fresh for the live routes: stamped with the current time (only freshness depends on it)
  writeFileSync(`${feed}.tmp`, JSON.stringify({ ...sample, now: Date.now() / 1000 }));
  renameSync(`${feed}.tmp`, feed);
  replicas = await Promise.all(
    ['a', 'b'].map((name) =>
      startServerProcess([
        '--feed',
        feed,
        '--max-age',
        '3600',
        '--state',
        join(tmp, `state-${name}`),
        '--rate-limit-redis',
        redis.url,
        '--trust-proxy',
        '127.0.0.1',
      ]),
    ),
  );
  // each replica has taken the feed (a live route answers 200) before the count starts
  for (const r of replicas) await eventually(async () => assert.equal((await httpGet(`${r.base}/v1/now`)).status, 200));
  front = await startFront({ live: replicas.map((r) => `127.0.0.1:${r.port}`), artifacts: join(tmp, 'artifacts'), bundles: join(tmp, 'bundles') });
});

after(async () => {
  front?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  await redis?.stop();
});

/** a request through the front as `client` (the front appends its peer to X-Forwarded-For; the replicas trust the front) */
const via = (base: string, client: string) => httpGet(`${base}/v1/aircraft`, { headers: { 'x-forwarded-for': client } });

/** requests counted by one replica, from its /metrics (rendered every 5 s) */
async function answered(r: ServerProcess, status: number): Promise<number> {
  const m = await httpGet(`${r.base}/metrics`);
  const line = m.text.split('\n').find((l) => l.startsWith(`contrail_http_requests_total{route="/v1/aircraft",status="${status}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

test(`a client's request past the aircraft limit (${LIMIT}) within the window gets 429 whichever replica answers`, async () => {
  const client = '203.0.113.7';
  for (let i = 1; i <= LIMIT; i++) {
    const r = await via(front.base, client);
    assert.equal(r.status, 200, `request ${i}`);
    assert.equal(r.headers['ratelimit-remaining'], String(LIMIT - i), `request ${i}: one budget across the replicas`);
  }
  // round-robin: the next two go to one replica each
  for (const n of [LIMIT + 1, LIMIT + 2]) {
    const r = await via(front.base, client);
    assert.equal(r.status, 429, `request ${n}`);
    assert.equal(r.json.error, 'rate_limited');
    const retry = Number(r.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= WINDOW_S, `Retry-After ${retry}`);
  }
  // each replica, asked directly as the front would (peer 127.0.0.1 is trusted), refuses the client too
  for (const rep of replicas) assert.equal((await via(rep.base, client)).status, 429, `replica on port ${rep.port}`);
  // another client has a budget of its own
  const other = await via(front.base, '198.51.100.9');
  assert.equal(other.status, 200);
  assert.equal(other.headers['ratelimit-remaining'], String(LIMIT - 1));
  // and both replicas did answer: the budget was counted across two processes
  await eventually(async () => {
    for (const rep of replicas) {
      assert.ok((await answered(rep, 200)) > LIMIT / 4, `replica on port ${rep.port} served its share`);
      assert.ok((await answered(rep, 429)) >= 2, `replica on port ${rep.port} refused`);
    }
  });
});

test('requests a client pipelines to the front are each answered (nginx never pipelines to the replicas)', async () => {
  const burst = ['192.0.2.1', '192.0.2.2', '192.0.2.3'].map((ip) => `GET /v1/aircraft HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${ip}\r\n\r\n`).join('');
  const text = await new Promise<string>((resolve) => {
    const sock = connect(front.port, '127.0.0.1');
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      if ((buf.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= 3 && buf.endsWith('}')) sock.end();
    });
    sock.on('close', () => resolve(buf));
    sock.setTimeout(5000, () => sock.destroy());
    sock.write(burst);
  });
  assert.deepEqual(
    [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]),
    ['200', '200', '200'],
  );
});

test('with Redis gone the replicas keep answering (never a 500), each warning once; sharing resumes when Redis is back', async () => {
  await redis.stop();
  const client = '203.0.113.50';
  for (let i = 1; i <= 10; i++) {
    const r = await via(front.base, client);
    assert.equal(r.status, 200, `request ${i} while Redis is gone`);
    assert.ok(r.headers['ratelimit-limit'], 'still limited, by each replica alone');
  }
  const warnings = (rep: ServerProcess) =>
    rep
      .output()
      .split('\n')
      .filter((l) => l.includes('does not answer'));
  // each serving thread holds its own Redis connection (--serve-threads), so each one that
  // notices the outage warns once: at most one line per thread, never one per request
  const threadOf = (line: string) => /serving thread (\d+):/.exec(line)?.[1] ?? '0';
  for (const rep of replicas) {
    const lines = warnings(rep);
    const byThread = new Map<string, number>();
    for (const l of lines) byThread.set(threadOf(l), (byThread.get(threadOf(l)) ?? 0) + 1);
    assert.ok(
      lines.length >= 1 && [...byThread.values()].every((n) => n === 1),
      `one warning per serving thread at most, not one per request:\n${rep.output()}`,
    );
  }
  assert.match(warnings(replicas[0]!)[0]!, /rate limits: Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer/);

  await redis.start();
  await eventually(async () => {
    for (const rep of replicas) assert.match(rep.output(), /Redis at \S+ answers again; limits are shared again/);
  });
  const fresh = '203.0.113.51';
  const a = await via(front.base, fresh);
  const b = await via(front.base, fresh);
  assert.deepEqual([a.headers['ratelimit-remaining'], b.headers['ratelimit-remaining']], [String(LIMIT - 1), String(LIMIT - 2)]);
});
