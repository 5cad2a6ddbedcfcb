// --serve-threads: several threads answer on one port (the kernel spreads connections) from one
// shared snapshot; what only the main thread holds is forwarded to it; the rate limits and the
// open-stream counts are one budget per client whichever thread a connection lands on; the
// process stops cleanly. the real server process, real sockets, a connection per request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/processes.ts';
import { httpGet } from '../helpers/http.ts';
import { connect, open, type Refused } from '../helpers/ws-client.ts';
import { policyFor } from '../../schemas/policy.ts';

const REQUESTS = 48;

function feedDir(): { dir: string; feed: string } {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-serve-threads-'));
  const feed = join(dir, 'aircraft.json');
  writeFileSync(feed, readFileSync(join(ROOT, 'test/fixtures/feed/readsb_sample.json')));
  return { dir, feed };
}

async function start(args: string[]): Promise<{ s: ServerProcess; dir: string }> {
  const { dir, feed } = feedDir();
  // the sample's clock is old: the stale rule is moved out of the way, the snapshot is the same
  const s = await startServerProcess(['--feed', feed, '--max-age', '2000000000', '--state', join(dir, 'state'), '--log-format', 'json', ...args]);
  for (let i = 0; i < 100 && (await httpGet(`${s.base}/v1/now`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
  return { s, dir };
}

const answersByThread = (metrics: string) => {
  const out: Record<string, number> = {};
  for (const m of metrics.matchAll(/^contrail_http_answers_by_thread_total\{thread="(\d+)"\} (\d+)/gm)) out[m[1]!] = Number(m[2]);
  return out;
};

test('two serving threads: the same snapshot on every connection, forwarded routes answered, both threads serve, a clean stop', async () => {
  const { s, dir } = await start(['--serve-threads', '2', '--no-rate-limits']);
  try {
    assert.match(s.output(), /listening on http:\/\/127\.0\.0\.1:\d+ .*serving threads: 2\)/);
    const first = await httpGet(`${s.base}/v1/aircraft`);
    assert.equal(first.status, 200);
    const hex = (first.json as { aircraft: { hex: string; lat?: number; lon?: number }[] }).aircraft.find((a) => a.lat !== undefined)!;
    const traceHere = await httpGet(`${s.base}/v1/trace/${hex.hex}`);
    const estimatedHere = await httpGet(`${s.base}/v1/estimated`);
    assert.equal(estimatedHere.status, 200);
    // each request on a connection of its own: the kernel spreads them over the two threads
    const got = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => [
        await httpGet(`${s.base}/v1/aircraft`, { headers: i % 2 ? { 'accept-encoding': 'gzip' } : {} }),
        await httpGet(`${s.base}/v2/point/${hex.lat}/${hex.lon}/250`),
        await httpGet(`${s.base}/v2/hex/${hex.hex}`),
        // answered by the main thread wherever the connection landed
        await httpGet(`${s.base}/v1/now`),
        await httpGet(`${s.base}/v1/trace/${hex.hex}`),
        await httpGet(`${s.base}/v1/estimated`),
        await httpGet(`${s.base}/no/such/route`),
      ]),
    );
    for (const [aircraft, point, search, now, trace, estimated, missing] of got) {
      assert.equal(aircraft!.text, first.text, 'one snapshot, byte for byte, on every thread (gzip or not)');
      assert.equal(point!.status, 200);
      assert.equal((point!.json as { ac: { hex: string }[] }).ac[0]!.hex, hex.hex, 'nearest first: the aircraft itself');
      assert.equal((search!.json as { ac: unknown[] }).ac.length, 1);
      assert.equal(now!.status, 200);
      assert.equal((now!.json as { aircraft_count: number }).aircraft_count, (first.json as { total: number }).total);
      // the main thread's answers, the same whichever thread the connection reached
      assert.deepEqual([trace!.status, trace!.text], [traceHere.status, traceHere.text]);
      assert.deepEqual([estimated!.status, estimated!.text], [estimatedHere.status, estimatedHere.text]);
      assert.equal(missing!.status, 404);
      assert.equal((missing!.json as { error: string }).error, 'not_found');
    }
    // the workers hand their counts over every 100 ms; /metrics renders every 5 s
    let by: Record<string, number> = {};
    // each thread's event-loop stall too: a worker reports its window every 5 s
    let stalls: string[] = [];
    for (let i = 0; i < 150 && !(by['0'] && by['1'] && stalls.length === 4); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const m = (await httpGet(`${s.base}/metrics`)).text;
      by = answersByThread(m);
      stalls = [...m.matchAll(/^contrail_event_loop_stall_seconds\{thread="(\d+)",stat="(max|p99)"\} [\d.e-]+$/gm)].map((x) => `${x[1]} ${x[2]}`).sort();
    }
    assert.ok(by['0']! > 0 && by['1']! > 0, `both threads answered: ${JSON.stringify(by)}`);
    assert.deepEqual(stalls, ['0 max', '0 p99', '1 max', '1 p99'], "both serving threads' event-loop stalls are in /metrics");
    const m = (await httpGet(`${s.base}/metrics`)).text;
    assert.match(m, /^contrail_snapshot_blocking_seconds\{thread="1",step="arrival"\} [\d.e-]+$/m, "the worker's own time taking a snapshot is in /metrics");
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(s.child.exitCode, 0, `a clean exit (a thread ended with open sockets would abort): ${s.output().slice(-500)}`);
});

test('two serving threads: each next snapshot reaches the worker too (its copy sent from the ingest thread)', async () => {
  const { s, dir } = await start(['--serve-threads', '2', '--no-rate-limits']);
  try {
    const sample = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/feed/readsb_sample.json'), 'utf8')) as { now: number; aircraft: { hex: string }[] };
    const kept = sample.aircraft.slice(0, 10);
    const gone = sample.aircraft[20]!.hex;
    const feed = join(dir, 'aircraft.json');
    writeFileSync(`${feed}.tmp`, JSON.stringify({ ...sample, now: sample.now + 1, aircraft: kept }));
    renameSync(`${feed}.tmp`, feed);
    for (let i = 0; i < 100 && (await httpGet(`${s.base}/v1/now`)).json?.aircraft_count !== 10; i++) await new Promise((r) => setTimeout(r, 100));
    const before = answersByThread((await httpGet(`${s.base}/metrics`)).text)['1'] ?? 0;
    // the worker may take the copy a moment after the main thread: wait until a worker's answer is the new one
    const got = await Promise.all(Array.from({ length: REQUESTS }, () => httpGet(`${s.base}/v1/aircraft`)));
    for (const r of got) assert.equal((r.json as { total: number }).total, 10, 'every thread serves the new snapshot');
    const searched = await Promise.all(Array.from({ length: REQUESTS }, () => httpGet(`${s.base}/v2/hex/${gone}`)));
    for (const r of searched) assert.equal((r.json as { ac: unknown[] }).ac.length, 0, 'an aircraft gone from the feed is gone on every thread');
    let after = before;
    for (let i = 0; i < 80 && after === before; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = answersByThread((await httpGet(`${s.base}/metrics`)).text)['1'] ?? 0;
    }
    assert.ok(after > before, 'the worker answered some of them');
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two serving threads: one rate-limit budget and one open-stream count per client across both', async () => {
  const { s, dir } = await start(['--serve-threads', '2', '--stream-per-ip', '3']);
  try {
    const limit = policyFor('search').limit;
    const statuses: number[] = [];
    // a connection per request, a few at a time
    for (let i = 0; i < limit + 12; i += 6) {
      const batch = await Promise.all(Array.from({ length: Math.min(6, limit + 12 - i) }, () => httpGet(`${s.base}/v2/hex/abcdef`)));
      statuses.push(...batch.map((g) => g.status));
    }
    assert.equal(statuses.filter((x) => x === 200).length, limit, `exactly the ${limit} of the search bucket are allowed`);
    assert.equal(statuses.filter((x) => x === 429).length, 12);

    const tries = await Promise.all(Array.from({ length: 6 }, () => connect(`${s.base}/v1/stream`)));
    const opened = tries.filter((t) => !('status' in t));
    const refused = tries.filter((t): t is Refused => 'status' in t);
    assert.equal(opened.length, 3, 'three streams per address, counted across the threads');
    assert.ok(
      refused.every((r) => r.status === 429 && /3 streams are open/.test(r.body)),
      JSON.stringify(refused.map((r) => r.body)),
    );
    // a stream on either thread gets the snapshot
    for (const c of opened) assert.equal(((await (c as Awaited<ReturnType<typeof open>>).next()) as { type: string }).type, 'subscribed');
    for (const c of opened) (c as Awaited<ReturnType<typeof open>>).close();
    // the count is checked and taken in one step (a check at the upgrade and a count at open let
    // both threads pass the check for the last stream: 4 opened once where 3 were allowed)
    // the server has run its close handler once it closes the connection after the close frames
    await Promise.all(opened.map((c) => (c as Awaited<ReturnType<typeof open>>).closed));
    for (let round = 0; round < 3; round++) {
      const burst = await Promise.all(Array.from({ length: 12 }, () => connect(`${s.base}/v1/stream`)));
      const got = burst.filter((t) => !('status' in t)) as Awaited<ReturnType<typeof open>>[];
      assert.equal(got.length, 3, `round ${round}: 12 upgrades at once, ${got.length} opened where 3 are allowed`);
      for (const c of got) c.close();
      await Promise.all(got.map((c) => c.closed));
    }
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(s.child.exitCode, 0);
});
