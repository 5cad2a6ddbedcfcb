// the map's copy of the sky follows the push stream's client rule (docs/api.md, "Push stream"), including
// an aircraft moving between two cells whose upsert and gone arrive in either order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Sky } from '../../../web/map/sky.ts';

const a = (hex: string, lat = 47) => ({ hex, lat, lon: 8 });
const hexes = (s: Sky) =>
  s
    .records()
    .map((r) => r.hex)
    .sort();

test('full replaces a cell, diff upserts and removes, subscribed drops the cells no longer followed', () => {
  const s = new Sky();
  s.full('2/8/46', [a('aaaaaa'), a('bbbbbb')]);
  s.full('2/6/46', [a('cccccc')]);
  assert.deepEqual(hexes(s), ['aaaaaa', 'bbbbbb', 'cccccc']);
  s.full('2/8/46', [a('bbbbbb')]);
  assert.deepEqual(hexes(s), ['bbbbbb', 'cccccc'], 'full drops what the cell no longer has');
  s.diff('2/8/46', [a('dddddd'), a('bbbbbb', 47.5)], ['eeeeee']);
  assert.equal(s.records().find((r) => r.hex === 'bbbbbb')!.lat, 47.5);
  s.subscribed(['2/8/46']);
  assert.deepEqual(hexes(s), ['bbbbbb', 'dddddd']);
});

test('a move between cells: upsert then gone, or gone then upsert, keeps the aircraft', () => {
  for (const order of ['upsert-first', 'gone-first']) {
    const s = new Sky();
    s.full('2/8/46', [a('aaaaaa')]);
    const up = () => s.diff('2/10/46', [a('aaaaaa', 47.9)], []);
    const gone = () => s.diff('2/8/46', [], ['aaaaaa']);
    if (order === 'upsert-first') up(), gone();
    else gone(), up();
    assert.deepEqual(hexes(s), ['aaaaaa'], order);
    s.full('2/8/46', []);
    assert.deepEqual(hexes(s), ['aaaaaa'], `${order}: the old cell's full no longer owns it`);
  }
});

test('polling replaces the whole set', () => {
  const s = new Sky();
  s.full('sky', [a('aaaaaa'), a('bbbbbb')]);
  s.replace([a('cccccc')]);
  assert.deepEqual(hexes(s), ['cccccc']);
  assert.equal(s.size, 1);
});
