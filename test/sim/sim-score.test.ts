// the noisy simulation's scorer (test/helpers/sim-score.ts, used by bench/detector/sim.ts): a match
// is the same address and kind within ±30 s; the airport and the runway end are scored on matches,
// the runway only where the truth names one; a detection that matches nothing is false.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoreSim, type SimFound } from '../helpers/sim-score.ts';
import type { TruthEvent } from '../../sim/truth.ts';

const T0 = Date.parse('2025-06-02T10:00:00Z') / 1000;
const ev = (o: Partial<TruthEvent>): TruthEvent => ({
  hex: 'a00001',
  airframe: 'a00001',
  callsign: 'N1',
  kind: 'takeoff',
  t: T0,
  airport: 'KMRY',
  runway: '10R',
  touch_and_go: false,
  classes: [],
  lowest_agl_ft: 0,
  ...o,
});
const found = (o: Partial<SimFound>): SimFound => ({ hex: 'a00001', kind: 'dep', t: T0, airport: 'KMRY', runway: '10R', ...o });

describe('sim score', () => {
  it('counts a runway named and right, named and wrong, and not named, on matched events whose truth knows the runway', () => {
    const truth = [
      ev({ t: T0 }),
      ev({ t: T0 + 3600, kind: 'landing', runway: '28L' }),
      ev({ t: T0 + 7200 }),
      // the truth knows no runway: not scored for the runway
      ev({ t: T0 + 10800, runway: null }),
    ];
    const s = scoreSim(truth, [
      found({ t: T0 + 5 }),
      found({ t: T0 + 3600 - 20, kind: 'arr', runway: '28R' }),
      found({ t: T0 + 7200, runway: null }),
      found({ t: T0 + 10800, runway: '10L' }),
    ]);
    assert.equal(s.all.matched, 4);
    assert.equal(s.all.runwayKnown, 3);
    assert.equal(s.all.runwayNamed, 2);
    assert.equal(s.all.runwayOk, 1);
    assert.ok(
      s.notes.some((n) => /runway 28R \(flew 28L\)/.test(n)),
      s.notes.join('\n'),
    );
  });

  it('matches only within ±30 s and the same kind; the rest are misses and false detections, charged to the nearby event', () => {
    const s = scoreSim([ev({ classes: ['mlat'] })], [found({ t: T0 + 31 }), found({ kind: 'arr', t: T0 })]);
    assert.equal(s.all.labelled, 1);
    assert.equal(s.all.matched, 0);
    assert.equal(s.all.found, 2);
    assert.equal(s.byClass.mlat.found, 2, 'both false detections are charged to the mlat event beside them');
    assert.equal(s.all.runwayKnown, 0);
  });

  it('a right runway at the wrong airport is not right', () => {
    const s = scoreSim([ev({})], [found({ airport: 'KSNS' })]);
    assert.equal(s.all.airportOk, 0);
    assert.equal(s.all.runwayNamed, 1);
    assert.equal(s.all.runwayOk, 0);
  });
});
