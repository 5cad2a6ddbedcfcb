// the leg workers' pool (build/log/leg-pool.ts): cuts handed on in listing order whatever order the
// batches come back in, and a worker that stops fails the cut naming the files it held.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { InOrder, LegPool } from '../../../build/log/leg-pool.ts';
import type { AirframeFiles } from '../../../build/log/airframe-cut.ts';
import type { AirfieldTables } from '../../../build/log/airfield-tables.ts';
import { listDay } from '../../../build/history/scan.ts';
import { SAMPLE_TREE, putFile, tempDir, tracePath } from '../../helpers/history.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const NO_AIRFIELDS: AirfieldTables = { airports: [], runways: [], classes: [] };

describe('InOrder', () => {
  it('hands on items in batch order when the batches arrive out of order, each once', () => {
    const out: string[] = [];
    const o = new InOrder<string>((x) => out.push(x));
    o.put(2, ['c']);
    o.put(1, ['b1', 'b2']);
    assert.deepEqual(out, [], 'nothing before batch 0');
    o.put(0, ['a']);
    assert.deepEqual(out, ['a', 'b1', 'b2', 'c']);
    o.put(4, ['e']);
    o.put(3, []);
    assert.deepEqual(out, ['a', 'b1', 'b2', 'c', 'e']);
    assert.equal(o.next, 5);
  });
});

describe('LegPool', () => {
  it('hands every airframe of the sample back once, in listing order, from 3 workers', async () => {
    const listing = await listDay(SAMPLE_TREE, '2023-08-30');
    const airframes: AirframeFiles[] = listing.files.map((f) => ({ hex: f.hex, files: [f] }));
    const pool = new LegPool(3, { airfields: NO_AIRFIELDS, carryS: 4 * 3600, detector: {}, fieldHeights: false });
    try {
      const seen: string[] = [];
      const carried: string[] = [];
      await pool.cut(
        airframes,
        (hex) => (carried.push(hex), null),
        Date.parse('2023-08-31T00:00:00Z') / 1000,
        (c) => {
          seen.push(c.hex);
          assert.equal(c.files, 1);
          assert.deepEqual(c.skipped, []);
        },
      );
      assert.deepEqual(
        seen,
        airframes.map((a) => a.hex),
      );
      assert.deepEqual(carried, seen, 'each airframe asked for its carry once, in order');
    } finally {
      await pool.close();
    }
  });

  it('fails the cut, naming the files a worker held, when the worker stops', async () => {
    const root = tempDir('contrail-leg-pool-');
    dirs.push(root);
    const path = putFile(tracePath(root, '2025-02-05', 'a0000b'), '{}');
    // tables that are no tables: the worker throws while it starts
    const pool = new LegPool(1, { airfields: { airports: null, runways: null } as unknown as AirfieldTables, carryS: 0, detector: {}, fieldHeights: true });
    try {
      await assert.rejects(
        pool.cut(
          [{ hex: 'a0000b', files: [{ day: '2025-02-05', hex: 'a0000b', path }] }],
          () => null,
          0,
          () => {},
        ),
        (e: Error) => e.message.startsWith('log: a leg worker stopped (') && e.message.endsWith(`while cutting ${path}`),
      );
    } finally {
      await pool.close();
    }
  });

  it('refuses a worker count that is not a positive integer', () => {
    for (const n of [0, -1, 1.5, NaN])
      assert.throws(() => new LegPool(n, { airfields: NO_AIRFIELDS, carryS: 0, detector: {}, fieldHeights: false }), /leg workers must be 1 or more/);
  });
});
