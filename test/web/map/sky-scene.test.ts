// the sky layer's scene (web/map/sky-scene.ts), the same on the page and in the sky worker: a frame
// lists exactly the aircraft inside the view that pass the filter, silhouettes follow the rules'
// data (types, military), and the page's stream sink (live.ts) hands back records only at an `end`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalSink, type StreamControl } from '../../../web/map/live.ts';
import { NO_RULES, shapeUnder, SkyScene, type View } from '../../../web/map/sky-scene.ts';
import { palette } from '../../../web/map/theme.ts';
import type { Aircraft } from '../../../web/map/types.ts';

// node has no canvas: a context and Path2D that accept every call and count the path commands
let commands = 0;
class FakePath {
  moveTo() {
    commands++;
  }
  lineTo() {
    commands++;
  }
  closePath() {}
  arc() {
    commands++;
  }
  rect() {
    commands++;
  }
}
(globalThis as any).Path2D ??= FakePath;
const ctx = new Proxy({}, { get: (_, k) => (k === 'measureText' ? () => ({ width: 10 }) : () => {}), set: () => true }) as any;

/** zoom 5 around lon 8, lat 47: 1,000 x 600 px */
function viewAt(lat: number, lon: number, zoom: number, width = 1000, height = 600): View {
  const scale = 256 * 2 ** zoom;
  const x = ((lon + 180) / 360) * scale;
  const y = ((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * scale;
  return { width, height, dpr: 1, zoom, centreLon: lon, ox: x - width / 2, oy: y - height / 2 };
}

const rec = (hex: string, lat: number, lon: number, more: Partial<Aircraft> = {}): Aircraft =>
  ({ hex, lat, lon, track: 90, alt_baro: 30000, ...more }) as Aircraft;

test('a frame lists exactly the aircraft inside the view that pass the filter', () => {
  const s = new SkyScene();
  s.setAircraft([
    rec('aaaaaa', 47, 8),
    rec('bbbbbb', 47.5, 9, { alt_baro: 2000 }),
    rec('cccccc', 10, 8), // far south: outside
    rec('dddddd', 47, 8 + 360), // a copy of the world away: drawn on the copy nearest the centre
    { hex: 'eeeeee' } as Aircraft, // no position
  ]);
  const v = viewAt(47, 8, 5);
  const ids = () => s.draw(ctx, v, palette()).id.sort();
  commands = 0;
  assert.deepEqual(ids(), ['aaaaaa', 'bbbbbb', 'dddddd']);
  assert.ok(commands > 0, 'silhouettes were built');
  s.setRules({ ...NO_RULES, filters: { altMin: 10000, altMax: null, types: [], military: false } });
  assert.deepEqual(ids(), ['aaaaaa', 'dddddd'], 'the altitude filter drops bbbbbb');
  s.setRules({ ...NO_RULES, military: new Set(['dddddd']), filters: { altMin: null, altMax: null, types: [], military: true } });
  assert.deepEqual(ids(), ['dddddd'], 'military only');
  const d = s.draw(ctx, v, palette());
  assert.ok(Math.abs(d.x[0]! - 500) < 1 && Math.abs(d.y[0]! - 300) < 1, `the view's centre is the canvas's centre: ${d.x[0]}, ${d.y[0]}`);
});

test("silhouettes come from the rules' data: the type table, then the category, then a military address", () => {
  const types = new Map([['A320', 'airliner' as const]]);
  const r = { ...NO_RULES, types, military: new Set(['43c001']) };
  assert.equal(shapeUnder(r, rec('aaaaaa', 0, 0, { t: 'a320' })), 'airliner');
  assert.equal(shapeUnder(r, rec('aaaaaa', 0, 0, { category: 'A7' })), 'helicopter');
  assert.equal(shapeUnder(r, rec('43c001', 0, 0)), 'military');
  assert.equal(shapeUnder(r, rec('aaaaaa', 0, 0)), 'unknown');
});

test("the page's stream sink applies the client rule and hands back the records only at an end", () => {
  const sink = new LocalSink();
  const got: [StreamControl, string[] | null][] = [];
  sink.onMessage = (m, records) => got.push([m, records && records.map((a) => a.hex).sort()]);
  sink.feed(JSON.stringify({ type: 'subscribed', bbox: [0, 40, 10, 50], cells: [{ cell: 'a' }, { cell: 'b' }] }));
  sink.feed(JSON.stringify({ type: 'full', cell: 'a', aircraft: [rec('aaaaaa', 47, 8), rec('bbbbbb', 47, 8)] }));
  sink.feed(JSON.stringify({ type: 'full', cell: 'b', aircraft: [rec('cccccc', 47, 8)] }));
  // a gone for a hex held in another cell is ignored
  sink.feed(JSON.stringify({ type: 'diff', cell: 'b', upsert: [], gone: ['aaaaaa'] }));
  sink.feed(JSON.stringify({ type: 'end', now: 100 }));
  assert.deepEqual(
    got.map(([m, r]) => [m.type, r]),
    [
      ['subscribed', null],
      ['full', null],
      ['full', null],
      ['diff', null],
      ['end', ['aaaaaa', 'bbbbbb', 'cccccc']],
    ],
  );
  sink.reset();
  sink.feed(JSON.stringify({ type: 'end', now: 101 }));
  assert.deepEqual(got.at(-1)![1], [], 'a new connection starts from nothing');
  assert.throws(() => sink.feed('{"type":'), SyntaxError);
});
