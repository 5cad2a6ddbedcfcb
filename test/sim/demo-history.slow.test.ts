// the demo's four history targets (issue 43) on a small demo built as `make demo` builds one (the
// simulated history with the demo's faults, then the real nightly; the small reference data, two days,
// seed 1): no fixed-wing leg at a heliport, seaplane base or balloonport; every observed leg on both
// airports' boards; no route_source null on a leg with both ends heard at a field; no airline whose
// name and country come from different rows. counted by test/helpers/demo-history.ts, as
// bench/demo-history.ts prints them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildDemoHistory, checkHistory, historyRef, type HistoryCheck } from '../helpers/demo-history.ts';
import { ROOT } from '../helpers/processes.ts';

process.env.TZ = 'UTC';
const dir = mkdtempSync(join(tmpdir(), 'contrail-demo-history-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const REF = join(ROOT, 'test/fixtures/ref-small');

describe('demo history targets (small reference data, two days)', () => {
  let r: HistoryCheck;
  it('builds the small demo and counts every leg, observed leg and airline it checks', { timeout: 600_000 }, async () => {
    await buildDemoHistory({ dir, days: 2, ref: REF, simArgs: ['--seed', '1', '--aircraft', '120'] });
    r = await checkHistory(join(dir, 'artifacts'), join(dir, 'log'), await historyRef(REF));
    // each check sees something, so a zero below is a finding, not an empty tree
    assert.ok(r.fixedWingLegs > 0 && r.observedFlownTwice > 0 && r.bothHeardAtFields > 0 && r.airframesWithAirline > 0, JSON.stringify(r));
  });
  it('no fixed-wing leg begins or ends at a heliport, seaplane base or balloonport', () => {
    assert.equal(r.fixedWingAtPad, 0, r.examples.join('\n'));
  });
  // a board row is a slot flown on 2 days or more (artifacts/board.ts minDays): a flight heard once is on none
  it("every leg with route_source observed whose route its callsign flew on 2 days is on its origin's board and its destination's arrivals", () => {
    assert.equal(r.missingFlownTwice, 0, r.examples.join('\n'));
  });
  it('no leg with both ends heard at a field has route_source null', () => {
    assert.equal(r.bothHeardNull, 0, r.examples.join('\n'));
  });
  it("no airframe's airline has a name and a country from different rows", () => {
    assert.equal(r.mixedAirline, 0, r.examples.join('\n'));
  });
});
