// the nightly accuracy: hidden gaps on observed tracks, scored against the observed position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearingDeg, destinationPoint } from '../../../lib/geo.ts';
import { problems } from '../../../schemas/index.ts';
import { evaluate, listedAges, medianKm, samplesOf, type TrackPoint } from '../../../lib/estimate/accuracy.ts';
import { accuracyDocument, servedAccuracy } from '../../../artifacts/estimate-accuracy.ts';
import { METHOD_ID } from '../../../lib/estimate/fly.ts';
import { main } from '../../../build/accuracy/cli.ts';

const T = 1_790_000_000;
const HISTORY = new URL('../../../data/sample/globe_history', import.meta.url).pathname;

/** a track flown as great-circle legs [initial track, minutes], sampled every `step` s, at 450 kt */
function flown(legs: [number, number][], step = 20, alt: (s: number) => number | 'ground' = () => 36000): TrackPoint[] {
  const pts: TrackPoint[] = [];
  let from = { lat: 50, lon: 0 };
  let t = T;
  for (const [track, minutes] of legs) {
    for (let s = 0; s < minutes * 60; s += step) {
      const p = destinationPoint(from.lat, from.lon, track, (450 * s) / 3600);
      const ahead = destinationPoint(from.lat, from.lon, track, (450 * (s + 1)) / 3600);
      pts.push({ t, lat: p.lat, lon: p.lon, alt: alt(t - T), gs: 450, track: bearingDeg(p.lat, p.lon, ahead.lat, ahead.lon), rate: 0, callsign: 'TST1' });
      t += step;
    }
    from = destinationPoint(from.lat, from.lon, track, (450 * minutes * 60) / 3600);
  }
  const last = pts[pts.length - 1]!;
  pts.push({ ...last, t, lat: from.lat, lon: from.lon, alt: alt(t - T) });
  return pts;
}

/** the routes table of the test: TST1 flies to the airport at `to` */
const routeTo = (to: { lat: number; lon: number }) => ({ destinationOf: (cs: string) => (cs === 'TST1' ? to : null) });
const endOf = (pts: TrackPoint[]) => ({ lat: pts[pts.length - 1]!.lat, lon: pts[pts.length - 1]!.lon });

test('a straight flight is estimated with no error at every gap length, in the spec 2.3 buckets', () => {
  const pts = flown([[90, 130]]);
  const ev = evaluate('2026-09-20', [{ hex: 'abc123', points: pts }], routeTo(endOf(pts)));
  assert.deepEqual(Object.keys(ev.method.by_gap_min), ['0-5', '5-15', '15-30', '30-60', '60-120']);
  assert.equal(ev.method.day, '2026-09-20');
  assert.ok(ev.method.n > 20, 'ev.method.n > 20');
  // the held great circle and the turn toward a destination on it are both exact here
  assert.ok(ev.method.median_km <= 0.1, `median ${ev.method.median_km}`);
  for (const b of Object.values(ev.method.by_gap_min)) assert.ok(b.median_km <= 0.1, 'b.median_km <= 0.1');
  assert.deepEqual(ev.straight.n, ev.method.n, 'the baseline is scored on the same samples');
});

test('when the last track does not point at the destination, the turn beats straight-line dead reckoning', () => {
  // a departure routing at 40 deg for 25 minutes, then direct to the destination
  const pts = flown([
    [40, 25],
    [100, 40],
  ]);
  const ev = evaluate('2026-09-20', [{ hex: 'abc123', points: pts }], routeTo(endOf(pts)));
  const m = ev.method.by_gap_min['30-60']!;
  const s = ev.straight.by_gap_min['30-60']!;
  assert.equal(m.n, s.n);
  assert.ok(m.median_km < s.median_km / 2, `method ${m.median_km} km vs straight ${s.median_km} km`);
  // up to 10 minutes both hold the track: same figures
  assert.deepEqual(ev.method.by_gap_min['0-5'], ev.straight.by_gap_min['0-5']);
});

test('only stretches heard throughout are hidden, and only from cruising states', () => {
  const pts = flown([[90, 60]]);
  // a 3-minute silence in the middle: no 20-minute gap may span it
  const holed = pts.filter((p) => p.t < T + 1800 || p.t > T + 1980);
  const whole = evaluate('d', [{ hex: 'abc123', points: pts }]).method.by_gap_min['15-30']!.n;
  const broken = evaluate('d', [{ hex: 'abc123', points: holed }]).method.by_gap_min['15-30']!.n;
  assert.ok(broken < whole, `${broken} < ${whole}`);
  const climbing = flown([[90, 60]]).map((p) => ({ ...p, rate: 2000 }));
  assert.equal(evaluate('d', [{ hex: 'abc123', points: climbing }]).method.n, 0);
  const low = flown([[90, 60]], 20, () => 8000);
  assert.equal(evaluate('d', [{ hex: 'abc123', points: low }]).method.n, 0);
  const junk = [
    { t: Number.NaN, lat: 1, lon: 2, alt: 36000, gs: 450, track: 90 },
    { t: T, lat: Number.NaN, lon: 2, alt: null, gs: null, track: null },
  ];
  assert.equal(evaluate('d', [{ hex: 'abc123', points: junk as TrackPoint[] }]).method.n, 0);
});

test("estimates are dropped near the route's destination (top of descent), as the live list does", () => {
  const pts = flown([[90, 60]]);
  const near = evaluate('d', [{ hex: 'abc123', points: pts }], routeTo(endOf(pts))).method.n;
  const far = evaluate('d', [{ hex: 'abc123', points: pts }], routeTo(destinationPoint(50, 0, 90, 2000))).method.n;
  assert.ok(near > 0 && near < far, `near ${near} < far ${far}: samples inside the top of descent are left out`);
});

test("the replay never sees the flight's own future: poisoning every later point leaves every estimate as it was", () => {
  // east for an hour; the poisoned copy turns north after 30 minutes and lands somewhere else
  const pts = flown([[90, 60]]);
  const cut = T + 1800;
  const poisoned = [
    ...flown(
      [
        [90, 30],
        [0, 30],
      ],
      20,
      (s) => (s >= 3580 ? 'ground' : 36000),
    ),
  ];
  const opts = routeTo({ lat: 50, lon: 12 });
  const key = (x: { startT: number; gapMin: number }) => `${x.startT}:${x.gapMin.toFixed(3)}`;
  const before = new Map(
    samplesOf([{ hex: 'abc123', points: pts }], opts)
      .filter((x) => x.startT < cut)
      .map((x) => [key(x), x.estimate]),
  );
  const after = samplesOf([{ hex: 'abc123', points: poisoned }], opts).filter((x) => x.startT < cut);
  let compared = 0;
  for (const x of after) {
    const was = before.get(key(x));
    if (!was) continue;
    compared++;
    assert.deepEqual(x.estimate, was, `start ${x.startT - T} s, gap ${x.gapMin.toFixed(1)} min`);
  }
  assert.ok(compared >= 5, `${compared} estimates compared`);
  // without a route the estimate holds the track: no destination is taken from anywhere else
  const none = samplesOf([{ hex: 'abc123', points: pts }]);
  assert.ok(none.length > 0 && none.every((x) => x.gapMin <= 31), 'held 30 minutes, then dropped');
});

test('the median of an even count is the mean of the middle two; an empty list gives 0', () => {
  assert.equal(medianKm([3, 1, 2]), 2);
  assert.equal(medianKm([4, 1, 3, 2]), 2.5);
  assert.equal(medianKm([0.123]), 0.1);
  assert.equal(medianKm([]), 0);
});

test('the nightly step on real readsb traces writes the figures for both methods', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-acc-'));
  try {
    const out = join(dir, 'estimate-accuracy.json');
    const logged: string[] = [];
    assert.equal(await main(['--history', HISTORY, '--day', '2023-08-30', '--out', out], (l) => logged.push(l)), 0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(problems('estimate-accuracy', doc), []);
    // golden figures for the 22 committed traces (adsb.lol, 2023-08-30), replayed with no routes
    // table (no --artifacts): every estimate holds its track, so it equals the baseline
    assert.equal(doc.day, '2023-08-30');
    assert.equal(doc.method, METHOD_ID);
    assert.equal(doc.n, 2660);
    assert.equal(doc.median_km, 1.4);
    assert.deepEqual(doc.by_gap_min['15-30'], { n: 685, median_km: 7.6 });
    assert.deepEqual(doc.baseline.by_gap_min['15-30'], { n: 685, median_km: 7.6 });
    assert.deepEqual(doc.traces, { read: 22, skipped: 0 });
    assert.deepEqual(servedAccuracy(doc), { day: doc.day, n: doc.n, median_km: doc.median_km, by_gap_min: doc.by_gap_min });
    assert.ok(
      logged.some((l) => l.includes('n=2660')),
      "logged.some((l) => l.includes('n=2660'))",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the nightly step skips corrupt files, picks the newest day, and writes nothing for a day without cruise', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-acc-'));
  try {
    const day = join(dir, 'hist', '2023', '08', '21', 'traces', '8c');
    mkdirSync(day, { recursive: true });
    copyFileSync(join(HISTORY, '2023/08/30/traces/8c/trace_full_ab7b8c.json'), join(day, 'trace_full_ab7b8c.json'));
    writeFileSync(join(day, 'trace_full_ac138c.json'), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    writeFileSync(join(day, 'notes.txt'), 'not a trace');
    const out = join(dir, 'a.json');
    const logged: string[] = [];
    assert.equal(await main(['--history', join(dir, 'hist'), '--out', out], (l) => logged.push(l)), 0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(doc.day, '2023-08-21', 'the newest day by default');
    assert.deepEqual(doc.traces, { read: 1, skipped: 2 });
    assert.ok(
      logged.some((l) => l.includes('trace_full_ac138c.json') && l.includes('corrupt')),
      "logged.some((l) => l.includes('trace_full_ac138c.json') && l.includes('corrupt'))",
    );

    // the C172's day: pattern work below 6,000 ft, nothing cruising
    const quiet = join(dir, 'quiet', '2023', '08', '22', 'traces', '8d');
    mkdirSync(quiet, { recursive: true });
    copyFileSync(join(HISTORY, '2023/08/30/traces/8d/trace_full_aa178d.json'), join(quiet, 'trace_full_aa178d.json'));
    const none = join(dir, 'none.json');
    assert.equal(await main(['--history', join(dir, 'quiet'), '--out', none], () => {}), 3);
    assert.equal(existsSync(none), false, "nothing written: yesterday's figures stay");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the nightly step rejects malformed flags and an empty tree with exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-acc-'));
  try {
    const out = join(dir, 'a.json');
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    assert.equal(await main(['--history', HISTORY, '--day', '2023-02-30', '--out', out], log), 2);
    assert.equal(await main(['--history', HISTORY, '--day', '20230820', '--out', out], log), 2);
    assert.equal(await main(['--history', HISTORY], log), 2, '--out is required');
    assert.equal(await main(['--out', out], log), 2, '--history is required');
    assert.equal(await main(['--history', HISTORY, '--out', out, '--bogus'], log), 2);
    assert.equal(await main(['--history', HISTORY, '--out', out, 'extra'], log), 2);
    assert.equal(await main(['--history', dir, '--out', out], log), 2, 'no day folders');
    assert.ok(
      lines.every((l) => l.startsWith('accuracy: ')),
      lines.join('\n'),
    );
    assert.ok(lines[0]!.includes('YYYY-MM-DD'), "lines[0]!.includes('YYYY-MM-DD')");
    assert.equal(existsSync(out), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the served accuracy is null for a malformed or other-method document, and says why', () => {
  const warned: string[] = [];
  const warn = (m: string) => warned.push(m);
  assert.equal(servedAccuracy(null, warn), null);
  assert.equal(warned.length, 0, 'no document yet is the normal state before the first night');
  const good = accuracyDocument(
    {
      method: { day: '2026-09-20', n: 3, median_km: 4.2, by_gap_min: { '0-5': { n: 3, median_km: 4.2 } } },
      straight: { day: '2026-09-20', n: 3, median_km: 5, by_gap_min: { '0-5': { n: 3, median_km: 5 } } },
    },
    { read: 1, skipped: 0 },
  );
  assert.equal(servedAccuracy({ ...good, n: -1 }, warn), null);
  assert.equal(servedAccuracy({ ...good, by_gap_min: { '5-10': { n: 1, median_km: 1 } } }, warn), null, 'unknown gap range');
  assert.equal(servedAccuracy({ ...good, method: 'dr-10m-gc/0' }, warn), null);
  assert.equal(warned.length, 3);
  assert.ok(warned[2]!.includes('dr-10m-gc/0'), "warned[2]!.includes('dr-10m-gc/0')");
  assert.deepEqual(servedAccuracy(good, warn), { day: '2026-09-20', n: 3, median_km: 4.2, by_gap_min: { '0-5': { n: 3, median_km: 4.2 } } });
});

test('a gap range with fewer than 30 samples says so beside its median', () => {
  const pts = flown([[90, 25]]);
  const ev = evaluate('d', [{ hex: 'abc123', points: pts }], routeTo(endOf(pts)));
  for (const b of Object.values(ev.method.by_gap_min)) assert.equal(b.too_few_samples, b.n < 30 ? true : undefined, JSON.stringify(b));
  assert.ok(
    Object.values(ev.method.by_gap_min).some((b) => b.too_few_samples),
    'one short track gives thin ranges',
  );
  const many = Array.from({ length: 12 }, (_, i) => ({ hex: `abc12${i}`, points: pts }));
  assert.ok(
    Object.values(evaluate('d', many, routeTo(endOf(pts))).method.by_gap_min).every((b) => b.n >= 30 && b.too_few_samples === undefined),
    "Object.values(evaluate('d', many, routeTo(endOf(pts))).method.by_gap_min).every((b) => b.n >= 30 && b.too_few_samples === undefined)",
  );
});

test('start points are the first point at or after each 5 minutes of the clock, never the first point of a leg off that grid', () => {
  // points every 20 s from 150 s past a multiple of 300 s: the old rule started at the leg's first
  // point and every 5 minutes after it (150 s off the grid), over-sampling where coverage begins
  const t0 = Math.floor(T / 300) * 300 + 150;
  const pts = flown([[90, 60]]).map((p) => ({ ...p, t: p.t - T + t0 }));
  const starts = [...new Set(samplesOf([{ hex: 'abc123', points: pts }]).map((x) => x.startT))];
  assert.ok(starts.length >= 10, `${starts.length} starts`);
  assert.ok(!starts.includes(t0), "the leg's first point is off the grid");
  for (const s of starts) assert.ok(s % 300 < 20, `start ${s - t0} s after the first point is ${s % 300} s past the grid`);
  // a stretch that is not cruising is skipped whole: the next start is the next grid point, not the first cruising point
  const climbUntil = t0 + 1000;
  const climbing = pts.map((p) => (p.t < climbUntil ? { ...p, rate: 2000 } : p));
  const after = [...new Set(samplesOf([{ hex: 'abc123', points: climbing }]).map((x) => x.startT))];
  assert.equal(Math.min(...after) % 300 < 20, true, 'the first start after the climb is on the grid');
});

test('each start is scored every 30 s from the moment it is listed while it is listed, each range in proportion to its listed time', () => {
  assert.deepEqual(listedAges(60, 330), [90, 150, 210, 270]);
  assert.deepEqual(listedAges(60, 90), []);
  // points every 10 s: the ages are the listed moments themselves
  const pts = flown([[90, 60]], 10);
  const samples = samplesOf([{ hex: 'abc123', points: pts }]);
  const first = samples.filter((x) => x.startT === samples[0]!.startT).map((x) => Math.round(x.gapMin * 10) / 10);
  // no route: listed from 90 s until 30 minutes after last heard
  assert.deepEqual(
    first,
    Array.from({ length: 57 }, (_, i) => 1.5 + i / 2),
  );
  // 3.5 listed minutes in 0-5, 10 in 5-15: 7 and 20 samples
  assert.equal(first.filter((a) => a < 5).length, 7);
  assert.equal(first.filter((a) => a >= 5 && a < 15).length, 20);
  // fixed gap lengths are still there to ask for
  const fixed = samplesOf([{ hex: 'abc123', points: pts }], { gapsMin: [2, 10] });
  assert.deepEqual([...new Set(fixed.map((x) => Math.round(x.gapMin)))], [2, 10]);
});
