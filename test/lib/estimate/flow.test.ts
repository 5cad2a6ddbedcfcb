// the traffic flow (lib/estimate/flow.ts) and the estimate that follows it (fly.ts): learned from
// tracks, an estimate past its hold turns where the traffic turned; unknown places and other
// headings are left alone; the published form round-trips and validates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceKm } from '../../../lib/geo.ts';
import { FLY, makePlan, positionAt, straightAt, type FlightStart } from '../../../lib/estimate/fly.ts';
import { FLOW_PARAMS, decayFlow, decodeFlow, emptyFlow, encodeFlow, turnAt } from '../../../lib/estimate/flow.ts';
import { AIRWAY_GS, airwayFlow, dogLeg } from '../../helpers/airway.ts';
import { problems } from '../../../schemas/index.ts';

const T = 1_790_000_000;
const GS = AIRWAY_GS;
const learned = () => airwayFlow(T);

test('learned from a dog-leg airway, an estimate past its hold turns where the traffic turned', () => {
  const { field, n } = learned();
  assert.ok(n > 3000, `cruise points learned: ${n}`);
  // an aircraft heard eastbound at 5 E, then lost: the truth is the same dog-leg
  const truth = dogLeg(T);
  const last = truth[60]!; // 10 minutes in: about 5.2 E
  const start: FlightStart = { t: last.t, lat: last.lat, lon: last.lon, track: 90, gs: GS, alt: 36000 };
  const plan = makePlan(start, null, { flow: field });
  const at = truth[60 + 25 * 6]!; // 25 minutes later: well past the turn
  const flown = positionAt(plan, at.t);
  const straight = straightAt(start, at.t);
  const flowKm = distanceKm(flown.lat, flown.lon, at.lat, at.lon);
  const drKm = distanceKm(straight.lat, straight.lon, at.lat, at.lon);
  assert.ok(drKm > 100, `dead reckoning flies on east: ${drKm.toFixed(0)} km off`);
  assert.ok(flowKm < drKm / 4, `the flow follows the turn: ${flowKm.toFixed(1)} km off against ${drKm.toFixed(0)}`);
  // the first 10 minutes are the held track, as spec 3 says, flow or not
  assert.deepEqual(positionAt(plan, start.t + FLY.holdS - 1), straightAt(start, start.t + FLY.holdS - 1));
});

test('no turn is known where no traffic flew, nor for a heading the traffic did not fly', () => {
  const { field } = learned();
  assert.equal(turnAt(field, 10, 100, 90), null, 'far away');
  const nearTurn = dogLeg(T)[200]!;
  assert.equal(turnAt(field, 47, 7.99, 270), null, 'westbound where traffic flew east');
  assert.equal(typeof turnAt(field, nearTurn.lat, nearTurn.lon, 0), 'number');
  // with an empty field the plan is the great-circle method's, unchanged
  const start: FlightStart = { t: T, lat: 47, lon: 5, track: 90, gs: GS, alt: 36000 };
  assert.deepEqual(makePlan(start, null, { flow: emptyFlow() }), makePlan(start, null));
});

test('a night weighs yesterday by the decay, and faded bins are dropped', () => {
  const { field } = learned();
  const [k, [n, sum]] = [...field.bins][0]!;
  const next = decayFlow(field);
  assert.deepEqual(next.bins.get(k), [n * FLOW_PARAMS.decay, sum * FLOW_PARAMS.decay]);
  let faded = field;
  for (let i = 0; i < 100; i++) faded = decayFlow(faded);
  assert.equal(faded.bins.size, 0, 'after 100 nights of no traffic, nothing is left');
});

test('the published form validates and decodes to the same turns', () => {
  const { field } = learned();
  const doc = encodeFlow(field, '2026-11-20');
  assert.deepEqual(problems('flow', doc), []);
  const back = decodeFlow(JSON.parse(JSON.stringify(doc)));
  for (const [lat, lon, track] of [
    [47, 7.9, 90],
    [47.2, 8.0, 20],
    [47, 6, 90],
  ] as const) {
    const a = turnAt(field, lat, lon, track);
    const b = turnAt(back, lat, lon, track);
    assert.ok(a === b || (a !== null && b !== null && Math.abs(a - b) < 0.01), `${lat},${lon},${track}: ${a} vs ${b}`);
  }
  assert.ok(problems('flow', { ...doc, bins: [[1, 2, -1, 3, 0]] }).length > 0, 'a negative sector is refused');
  assert.ok(problems('flow', { ...doc, through: 'yesterday' }).length > 0, 'a day that is no date is refused');
});
