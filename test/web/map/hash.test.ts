// the view a URL asks for; malformed or out-of-range hashes open the default view, never a broken map
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viewFromHash } from '../../../web/map/hash.ts';

test('#zoom/lat/lon opens that view; /poll asks for polling', () => {
  assert.deepEqual(viewFromHash('#9/47.45/8.4'), { zoom: 9, lat: 47.45, lon: 8.4, poll: false });
  assert.deepEqual(viewFromHash('#6/-33.9/151.2/poll'), { zoom: 6, lat: -33.9, lon: 151.2, poll: true });
});

test('malformed or out of range: the default view; an unknown mode is no mode', () => {
  const dflt = { zoom: 5, lat: 48, lon: 9, poll: false };
  for (const h of ['', '#', '#abc', '#9/47', '#99/47/8', '#9/91/8', '#9/47/1000', '#9/0x10/8', '#9/1e3/8', '#9/ 47/8', '#Infinity/1/1']) {
    assert.deepEqual(viewFromHash(h), dflt, h);
  }
  assert.deepEqual(viewFromHash('#9/47/8/<script>'), { zoom: 9, lat: 47, lon: 8, poll: false });
});
