// issue 44's target: every leg of the log is in exactly one airframe-day flights document, and
// nothing else is. on the contract tree (a seeded two-day log through the whole pipeline).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { openLog } from '../../../../build/log/read.ts';
import { keys } from '../../../../artifacts/keys.ts';
import { currentVersion, readObject } from '../../../../artifacts/tree.ts';
import type { FlightsDoc } from '../../../../artifacts/flights-doc.ts';
import { makeContractTree } from '../../../helpers/contract-tree.ts';

process.env.TZ = 'UTC';

test('every leg of the log is in exactly one flights document, the one of its airframe and day', async (t) => {
  const tree = await makeContractTree();
  t.after(() => rmSync(tree.dir, { recursive: true, force: true }));
  const log = await openLog(tree.log);
  const legs = await log.rows('SELECT hex, first_ts, day FROM legs ORDER BY hex, day, first_ts');
  log.close();
  assert.ok(legs.length > 40, `${legs.length} legs`);
  const v = currentVersion(tree.root)!;
  const seen = new Map<string, number>();
  const docs = new Set(legs.map((l) => `${l.hex} ${l.day}`));
  for (const k of docs) {
    const [hex, day] = k.split(' ') as [string, string];
    const doc = readObject(v.dir, keys.flights(hex, day)) as FlightsDoc | null;
    assert.ok(doc, `flights of ${hex} on ${day}`);
    assert.equal(doc.hex, hex);
    assert.equal(doc.date, day);
    for (const f of doc.flights) {
      const id = `${hex} ${f.first_seen}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      assert.equal(new Date(f.first_seen * 1000).toISOString().slice(0, 10), day, 'a flight is on the UTC day of its first point');
    }
  }
  assert.deepEqual(
    [...seen.entries()].filter(([, n]) => n !== 1),
    [],
    'no leg twice',
  );
  assert.deepEqual([...seen.keys()].sort(), legs.map((l) => `${l.hex} ${l.first_ts}`).sort(), 'every leg, and nothing else');
});
