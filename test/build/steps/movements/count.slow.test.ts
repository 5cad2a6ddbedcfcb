// issue 44's target, the movements half: every heard take-off of the log is in the movements of its
// origin airport and every heard landing in its destination's, exactly once, on the UTC day of the
// movement, under both spellings; and summed over the window they agree with the airport documents'
// observed totals (departures, destinations, tails: the log's own ends, circuits left out). on the
// contract tree (a seeded two-day log through the whole pipeline).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { openLog } from '../../../../build/log/read.ts';
import { keys } from '../../../../artifacts/keys.ts';
import { currentVersion, readObject } from '../../../../artifacts/tree.ts';
import type { MovementsDoc } from '../../../../artifacts/movements-doc.ts';
import { problems } from '../../../../schemas/index.ts';
import { makeContractTree } from '../../../helpers/contract-tree.ts';

process.env.TZ = 'UTC';

// the fixture's airports (test/helpers/publish-fixture.ts), all served under IATA and ICAO codes
const SERVED: Record<string, { iata: string; icao: string }> = {
  LSZH: { iata: 'ZRH', icao: 'LSZH' },
  EGLL: { iata: 'LHR', icao: 'EGLL' },
  LSGG: { iata: 'GVA', icao: 'LSGG' },
  RJAA: { iata: 'NRT', icao: 'RJAA' },
};

const dayOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

test('every heard take-off and landing is in its airport-day movements exactly once, and the window agrees with the airport totals', async (t) => {
  const tree = await makeContractTree();
  t.after(() => rmSync(tree.dir, { recursive: true, force: true }));
  const log = await openLog(tree.log);
  const legs = (await log.rows('SELECT hex, first_ts, dep_ts, arr_ts, org, dst, day::VARCHAR AS day FROM legs ORDER BY hex, first_ts')) as {
    hex: string;
    dep_ts: number | null;
    arr_ts: number | null;
    org: string | null;
    dst: string | null;
    day: string;
  }[];
  log.close();
  const days = new Set(legs.map((l) => l.day));
  // what the log says should be there: "<ident> <kind> <hex> <at>"
  const expected: string[] = [];
  for (const l of legs) {
    if (l.org && SERVED[l.org] && l.dep_ts !== null && days.has(dayOf(l.dep_ts))) expected.push(`${l.org} takeoff ${l.hex} ${l.dep_ts}`);
    if (l.dst && SERVED[l.dst] && l.arr_ts !== null && days.has(dayOf(l.arr_ts))) expected.push(`${l.dst} landing ${l.hex} ${l.arr_ts}`);
  }
  assert.ok(expected.length > 40, `${expected.length} movements`);
  assert.ok(
    legs.some((l) => l.org !== null && l.org === l.dst),
    'the fixture has circuits',
  );

  const v = currentVersion(tree.root)!;
  const found: string[] = [];
  const sums = new Map<string, { departures: number; dests: Set<string>; tails: Set<string> }>();
  for (const [ident, { iata, icao }] of Object.entries(SERVED)) {
    const sum = { departures: 0, dests: new Set<string>(), tails: new Set<string>() };
    sums.set(ident, sum);
    for (const day of days) {
      const doc = readObject(v.dir, keys.movements(iata, day)) as MovementsDoc | null;
      if (!doc) continue;
      assert.deepEqual(readObject(v.dir, keys.movements(icao, day)), doc, `${icao} ${day}: the same document under the ICAO code`);
      assert.deepEqual(problems('movements', doc), []);
      assert.deepEqual([doc.iata, doc.ident, doc.date], [iata, ident, day]);
      assert.deepEqual(
        doc.movements.map((m) => m.at),
        doc.movements.map((m) => m.at).sort((a, b) => a - b),
        'time order',
      );
      assert.equal(doc.counts.takeoffs + doc.counts.landings, doc.movements.length);
      for (const m of doc.movements) {
        assert.equal(dayOf(m.at), day, 'a movement is on the UTC day of its own time');
        found.push(`${ident} ${m.kind} ${m.hex} ${m.at}`);
        if (m.circuit) continue;
        sum.tails.add(m.hex);
        if (m.kind === 'takeoff') {
          sum.departures++;
          const dst = (m as { dst_ident: string | null }).dst_ident;
          if (dst) sum.dests.add(dst);
        }
      }
    }
  }
  assert.deepEqual(found.sort(), expected.sort(), 'every heard take-off and landing at a served airport, once, and nothing else');
  const last = [...days].sort().at(-1)!;
  const after = dayOf(Date.parse(`${last}T00:00:00Z`) / 1000 + 86400);
  assert.equal(readObject(v.dir, keys.movements('ZRH', after)), null, 'no document for a day the log does not hold');

  for (const [ident, { iata }] of Object.entries(SERVED)) {
    const airport = readObject(v.dir, keys.airport(iata)) as { observed: { departures: number; destinations: number; tails: number } | null };
    const sum = sums.get(ident)!;
    const observed = airport.observed ?? { departures: 0, destinations: 0, tails: 0 };
    assert.deepEqual(
      { departures: sum.departures, destinations: sum.dests.size, tails: sum.tails.size },
      { departures: observed.departures, destinations: observed.destinations, tails: observed.tails },
      `${iata}: the window's movements (circuits out) agree with the airport document's observed totals`,
    );
  }
});
