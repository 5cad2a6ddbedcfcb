// what the writer validates when (build/publish/validate-sample.ts, docs/operating.md, "What is validated
// when"): every document in tests and with CONTRAIL_VALIDATE_ALL; in the nightly the first of each
// kind and a seeded sample. a builder that makes a malformed document of a hot kind still fails the build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VALIDATE_FIRST, VALIDATE_SHARE, validationSampler } from '../../../build/publish/validate-sample.ts';
import { ArtifactWriter } from '../../../build/publish/writer.ts';
import { keys } from '../../../artifacts/keys.ts';

const route = (cs: string) => ({
  callsign: cs,
  org: 'ZRH',
  dst: 'LHR',
  route_source: 'catalog',
  flight: null,
  airline: null,
  observed: null,
  catalog: { stops: ['ZRH', 'LHR'], review: 'auto', reviewer: null, reviewed_on: null },
  coverage: 'observed',
});
const callsign = (i: number) => `SWR${i}`;

test('all: every document; sample: the first of each kind, then a seeded share of the same documents whatever the order', () => {
  const all = validationSampler('all', 1);
  assert.ok(
    Array.from({ length: 1000 }, (_, i) => all('route', `k${i}`)).every(Boolean),
    "Array.from({ length: 1000 }, (_, i) => all('route', `k${i}`)).every(Boolean)",
  );
  const picks = (seed: number, order: number[]) => {
    const s = validationSampler('sample', seed);
    s('airframe', 'x'); // another kind does not use up this kind's first documents
    const taken = new Set<number>();
    for (const i of order) if (s('route', `v1/route/${callsign(i)}`)) taken.add(i);
    return taken;
  };
  const n = 20_000;
  const forward = Array.from({ length: n }, (_, i) => i);
  const a = picks(7, forward);
  for (let i = 0; i < VALIDATE_FIRST; i++) assert.ok(a.has(i), `document ${i} is among the first`);
  const later = [...a].filter((i) => i >= VALIDATE_FIRST).length;
  const expected = (n - VALIDATE_FIRST) * VALIDATE_SHARE;
  assert.ok(Math.abs(later - expected) < expected * 0.15, `${later} sampled after the first, about ${expected} expected`);
  // the sample is a function of (seed, key): the same documents on a replay, others on another night
  assert.deepEqual(picks(7, forward), a);
  // in reverse order other documents come first; the rest of the sample is the same documents
  const middle = (set: Set<number>) => [...set].filter((i) => i >= VALIDATE_FIRST && i < n - VALIDATE_FIRST).sort((x, y) => x - y);
  assert.deepEqual(middle(picks(7, [...forward].reverse())), middle(a));
  assert.notDeepEqual(picks(8, forward), a);
});

test('sampled: a malformed document of each hot kind fails the build, with its key and schema named', () => {
  const hot: [string, (w: ArtifactWriter) => void][] = [
    ['airframe', (w) => w.putJson(keys.airframe('4b1814'), '{"hex":"4b1814","legs":[{"date":"yesterday"}],"coverage":"observed"}')],
    ['refdata-aircraft', (w) => w.put(keys.refAircraft('4b1814'), { hex: '4b1814', reg: 7 })],
    ['route', (w) => w.put(keys.route('SWR100'), { ...route('SWR100'), route_source: 'guess' })],
    ['refdata-airport', (w) => w.put(keys.refAirport('LSZH'), { ident: 'LSZH' })],
    ['airport', (w) => w.putJson(keys.airport('ZRH'), '{"iata":"ZRH"}')],
    ['refdata-type', (w) => w.put(keys.refType('A320'), { designator: 'A320', observed: 'many' })],
    ['refdata-airline', (w) => w.put(keys.refAirline('SWR'), { icao: 'SWR' })],
    ['refdata-schedule', (w) => w.put(keys.refSchedule('SWR', 'ZRH', 'LHR'), { departures: -1 })],
  ];
  for (const [schema, put] of hot) {
    const w = new ArtifactWriter(mkdtempSync(join(tmpdir(), 'contrail-sample-')), null, { validate: 'sample', seed: 1 });
    assert.throws(() => put(w), new RegExp(`^SchemaError: v1/.+ does not match schemas/${schema}\\.schema\\.json`), schema);
    assert.equal(w.stats.objects, 0, `${schema}: nothing stored`);
  }
});

test('a malformed document past the first of its kind: always caught with validate all, caught in the sample only when drawn', () => {
  const run = (mode: 'all' | 'sample', bad: number) => {
    const w = new ArtifactWriter(mkdtempSync(join(tmpdir(), 'contrail-sample-')), null, { validate: mode, seed: 3 });
    for (let i = 0; i < bad; i++) w.put(keys.route(callsign(i)), route(callsign(i)));
    w.put(keys.route(callsign(bad)), { ...route(callsign(bad)), org: null });
  };
  const drawn = validationSampler('sample', 3);
  const fate = Array.from({ length: 2000 }, (_, i) => drawn('route', keys.route(callsign(i))));
  const missed = fate.findIndex((d, i) => i >= VALIDATE_FIRST && !d);
  const caught = fate.findIndex((d, i) => i >= VALIDATE_FIRST && d);
  assert.throws(() => run('all', missed), /v1\/route\/SWR\d+ does not match schemas\/route\.schema\.json/);
  assert.doesNotThrow(() => run('sample', missed));
  assert.throws(() => run('sample', caught), new RegExp(`v1/route/${callsign(caught)} does not match`));
});
