// aircraft colour by altitude band and the glyph's rotation by track
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addGlyph, altitudeColour, bandOf, BAND_GROUND, BAND_UNKNOWN } from '../../../web/map/colour.ts';

test('bands: 2,000 ft each, capped at 40,000 ft and above; ground and unknown apart', () => {
  assert.equal(bandOf(0), 0);
  assert.equal(bandOf(1999), 0);
  assert.equal(bandOf(2000), 1);
  assert.equal(bandOf(-500), 0);
  assert.equal(bandOf(40_000), 20);
  assert.equal(bandOf(60_000), 20);
  assert.equal(bandOf('ground'), BAND_GROUND);
  assert.equal(bandOf(undefined), BAND_UNKNOWN);
  assert.equal(bandOf(Number.NaN), BAND_UNKNOWN);
  const colours = new Set([0, 10_000, 20_000, 30_000, 40_000, 'ground' as const, undefined].map(altitudeColour));
  assert.equal(colours.size, 7, 'every legend entry has its own colour');
});

test('the glyph points along the track: north up, east right, south down', () => {
  const nose = (track: number) => {
    const pts: [number, number][] = [];
    addGlyph({ moveTo: (x, y) => pts.push([x, y]), lineTo: (x, y) => pts.push([x, y]), closePath: () => {} }, 100, 100, 10, track);
    return pts[0]!.map((v) => Math.round(v));
  };
  assert.deepEqual(nose(0), [100, 90]);
  assert.deepEqual(nose(90), [110, 100]);
  assert.deepEqual(nose(180), [100, 110]);
  assert.deepEqual(nose(270), [90, 100]);
});
