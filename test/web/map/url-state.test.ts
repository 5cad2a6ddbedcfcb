// the URL state: ?icao, ?lat/lon/zoom, the filters, theme, layer and polling round-trip; the older
// #zoom/lat/lon(/poll) still opens its view; anything malformed is ignored
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readUrl, writeUrl } from '../../../web/map/url-state.ts';

test('a state written is the state read back', () => {
  const s = {
    view: { zoom: 9, lat: -33.9, lon: 151.2 },
    icao: '4b1814',
    filters: { altMin: 1000, altMax: 20000, types: ['A320', 'HELICOPTER'], military: true },
    theme: 'dark' as const,
    layer: 'offline',
    poll: true,
  };
  const q = writeUrl(s);
  assert.equal(q, '?icao=4b1814&lat=-33.9000&lon=151.2000&zoom=9&altMin=1000&altMax=20000&type=A320,HELICOPTER&mil=1&theme=dark&layer=offline&poll=1');
  assert.deepEqual(readUrl(q, ''), s);
  assert.equal(writeUrl({ ...readUrl('', ''), view: null }), '');
});

test("tar1090's ?icao= alone selects; the old hash opens its view and its polling", () => {
  assert.equal(readUrl('?icao=4B1814', '').icao, '4b1814');
  assert.deepEqual(readUrl('', '#6/47.5/8.5/poll'), { ...readUrl('', ''), view: { zoom: 6, lat: 47.5, lon: 8.5 }, poll: true });
  assert.deepEqual(readUrl('?lat=47&lon=8', '').view, { zoom: 8, lat: 47, lon: 8 });
});

test('malformed values are ignored, never an error', () => {
  const s = readUrl('?icao=nothex&lat=999&lon=x&zoom=99&altMin=high&type=%3Cscript%3E&mil=yes&theme=pink&layer=../x', '#garbage');
  assert.deepEqual(s, { view: null, icao: null, filters: { altMin: null, altMax: null, types: [], military: false }, theme: null, layer: null, poll: false });
});
