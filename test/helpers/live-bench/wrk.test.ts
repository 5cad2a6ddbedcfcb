// wrk.ts (the live bench's): wrk's report read back, its command line, the seeded varied points
// and the Lua script that asks about them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../lib/random.ts';
import { parseWrk, pointsScript, samplePoints, wrkArgs, wrkMs } from './wrk.ts';

// a real wrk 4.1 report (against a server answering 404), then one with socket errors
const REPORT = `Running 1s test @ http://127.0.0.1:47999/x
  2 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.08ms    2.20ms  28.44ms   91.21%
    Req/Sec     9.25k     5.00k   16.90k    70.00%
  Latency Distribution
     50%  315.00us
     75%  617.00us
     90%    2.90ms
     99%   10.76ms
  18446 requests in 1.00s, 2.36MB read
  Non-2xx or 3xx responses: 18446
Requests/sec:  18370.33
Transfer/sec:      2.35MB
`;

test('parseWrk reads req/s, p50/p99 in ms, requests, bytes and the non-2xx count', () => {
  assert.deepEqual(parseWrk(REPORT), {
    rps: 18370.33,
    p50: 0.315,
    p99: 10.76,
    requests: 18446,
    bytes: Math.round(2.36 * 1024 * 1024),
    non2xx: 18446,
    errors: 0,
  });
});

test('parseWrk sums socket errors and timeouts, and reads seconds', () => {
  const out = REPORT.replace('  Non-2xx or 3xx responses: 18446\n', '  Socket errors: connect 1, read 2, write 3, timeout 40\n').replace('10.76ms', '1.20s');
  const r = parseWrk(out);
  assert.equal(r.errors, 46);
  assert.equal(r.non2xx, 0);
  assert.equal(r.p99, 1200);
});

test('parseWrk refuses what is not a --latency report, quoting it', () => {
  assert.throws(() => parseWrk(''), /no Requests\/sec line/);
  assert.throws(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused\n'), /Connection refused/);
  assert.throws(() => parseWrk(REPORT.replace(/ {5}99%.*\n/, '')), /no 99% latency/);
  assert.throws(() => parseWrk(REPORT.replace('  18446 requests in 1.00s, 2.36MB read\n', '')), /requests in T, B read/);
  assert.throws(() => parseWrk(REPORT.replace('315.00us', '315.00parsecs')), /not a wrk duration: "315.00parsecs"/);
});

test("wrkMs converts each of wrk's time units and refuses others", () => {
  assert.deepEqual(['900.00us', '1.50ms', '2.00s', '1.00m'].map(wrkMs), [0.9, 1.5, 2000, 60_000]);
  for (const bad of ['', 'ms', '-1ms', '1.2', 'NaNms']) assert.throws(() => wrkMs(bad), /not a wrk duration/);
});

test('wrkArgs: the browser header and the script only when asked', () => {
  const load = { threads: 2, connections: 64, duration: 8, acceptEncoding: '', script: '' };
  assert.deepEqual(wrkArgs('http://h/x', load), ['-t2', '-c64', '-d8s', '--timeout', '5s', '--latency', 'http://h/x']);
  assert.deepEqual(wrkArgs('http://h/', { ...load, acceptEncoding: 'gzip, deflate, br', script: '/t/p.lua' }).slice(6), [
    '-H',
    'Accept-Encoding: gzip, deflate, br',
    '-s',
    '/t/p.lua',
    'http://h/',
  ]);
});

const AIRCRAFT = [
  { lat: 50.1, lon: 8.6 },
  { hex: 'no position' },
  { lat: '50', lon: 8 },
  { lat: 95, lon: 0 },
  { lat: -33.9, lon: 179.999 },
  { lat: NaN, lon: 1 },
  null as unknown as object,
];

test('samplePoints draws only positioned aircraft, jittered by <= 0.005 deg, wrapped at the antimeridian', () => {
  const pts = samplePoints(AIRCRAFT, 400, mulberry32(7));
  assert.equal(pts.length, 400);
  let near = 0;
  for (const p of pts) {
    assert.match(p, /^-?\d+\.\d{4},-?\d+\.\d{4}$/);
    const [lat, lon] = p.split(',').map(Number) as [number, number];
    assert.ok(Math.abs(lon) <= 180, 'Math.abs(lon) <= 180');
    const frankfurt = Math.abs(lat - 50.1) <= 0.0051 && Math.abs(lon - 8.6) <= 0.0051;
    const sydney = Math.abs(lat + 33.9) <= 0.0051 && (Math.abs(lon - 179.999) <= 0.0051 || Math.abs(lon + 180.001) <= 0.0051);
    assert.ok(frankfurt || sydney, p);
    if (frankfurt) near++;
  }
  assert.ok(near > 100 && near < 300, `both aircraft drawn: ${near} of 400 at the first`);
  assert.ok(new Set(pts).size > 390, 'repeated draws of one aircraft still differ');
});

test('samplePoints is seeded: the same seed, the same points; another seed, others', () => {
  assert.deepEqual(samplePoints(AIRCRAFT, 50, mulberry32(7)), samplePoints(AIRCRAFT, 50, mulberry32(7)));
  assert.notDeepEqual(samplePoints(AIRCRAFT, 50, mulberry32(7)), samplePoints(AIRCRAFT, 50, mulberry32(8)));
});

test('samplePoints refuses a snapshot without positions and a bad count', () => {
  assert.throws(() => samplePoints([{ hex: 'a' }, { lat: 91, lon: 0 }], 10, mulberry32(1)), /no aircraft with a position/);
  for (const n of [0, -1, 1.5, NaN]) assert.throws(() => samplePoints(AIRCRAFT, n, mulberry32(1)), /--points must be a positive integer/);
});

test('pointsScript asks each server its own way, threads spread over the list', () => {
  const c = pointsScript('/tmp/x/points.txt', 'contrail', 25, 2);
  assert.match(c, /io\.lines\("\/tmp\/x\/points\.txt"\)/);
  assert.match(c, /"\/v2\/point\/" \.\. p\[1\] \.\. "\/" \.\. p\[2\] \.\. "\/25"/);
  assert.match(c, /\* #paths \/ 2\)/);
  const r = pointsScript('/tmp/x/points.txt', 'readsb', 250, 4);
  assert.match(r, /"\/re-api\/\?circle=" \.\. p\[1\] \.\. "," \.\. p\[2\] \.\. ",250"/);
  assert.match(r, /\* #paths \/ 4\)/);
  assert.doesNotMatch(r, /math\.random/);
});
