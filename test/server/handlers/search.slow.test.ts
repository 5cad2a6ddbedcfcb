// the readsb /v2 searches over the real 12k readsb snapshot: every answer checked against a brute
// force over the parsed records, case-insensitive keys, malformed input 422, stale 503.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { serve } from '../../helpers/http.ts';
import { parseFeed } from '../../../server/feed/parse.ts';
import { LiveState } from '../../../server/live/state.ts';
import { searchRoutes } from '../../../server/handlers/search.ts';
import { buildCodeBlocks, parseCodeBlocks } from '../../../lib/reference/codeblocks.ts';

const parsed = parseFeed(gunzipSync(readFileSync(new URL('../../../bench/data/readsb_aircraft_12k.json.gz', import.meta.url))));
if (!parsed.ok) throw new Error(parsed.detail);
const snap = parsed.snapshot;
const blocks = buildCodeBlocks(parseCodeBlocks(readFileSync(new URL('../../../data/ref/vrs-standing-data/code-blocks.csv', import.meta.url))).rows);

async function server(nowS = snap.now + 5) {
  const live = new LiveState({ eagerGzip: false });
  live.accept(snap, snap.now);
  return serve(searchRoutes({ live, isMilitaryHex: (h) => blocks.isMilitaryHex(h), timer: () => 0 }), { clock: () => nowS * 1000 });
}

test('each search answers exactly the records a brute force finds, in the /v2/point envelope without dst', async () => {
  const s = await server();
  try {
    const withAll = snap.aircraft.find((a) => a.flight && a.r && a.t && a.squawk)!;
    const cases: [string, (a: (typeof snap.aircraft)[number]) => boolean][] = [
      [`/v2/hex/${withAll.hex.toUpperCase()}`, (a) => a.hex === withAll.hex],
      [`/v2/callsign/${withAll.flight!.toLowerCase()}`, (a) => a.flight === withAll.flight],
      [`/v2/reg/${withAll.r!.toLowerCase()}`, (a) => a.r === withAll.r],
      [`/v2/type/${withAll.t!.toLowerCase()}`, (a) => a.t === withAll.t],
      [`/v2/sqk/${withAll.squawk}`, (a) => a.squawk === withAll.squawk],
      ['/v2/mil', (a) => blocks.isMilitaryHex(a.hex)],
    ];
    for (const [path, match] of cases) {
      const r = await s.get(path, { schema: 'search' });
      assert.equal(r.status, 200, path);
      const want = snap.aircraft.filter(match);
      assert.ok(want.length > 0, `${path}: the fixture has hits`);
      assert.deepEqual(r.json.ac, want, path);
      assert.deepEqual([r.json.msg, r.json.total, r.json.now, r.json.ctime], ['No error', want.length, snap.now, snap.now], path);
    }
    const none = await s.get('/v2/callsign/NOSUCH1', { schema: 'search' });
    assert.deepEqual([none.status, none.json.ac, none.json.total], [200, [], 0]);
  } finally {
    s.close();
  }
});

test('malformed keys are 422 in the section-7 shape; a stale snapshot is 503', async () => {
  const s = await server();
  try {
    for (const path of [
      '/v2/hex/4b181',
      '/v2/hex/4b181g',
      '/v2/callsign/TOOLONGCALL',
      '/v2/callsign/a%20b',
      '/v2/reg/' + 'A'.repeat(11),
      '/v2/type/A',
      '/v2/type/A3200',
      '/v2/sqk/7780',
      '/v2/sqk/770',
    ]) {
      const r = await s.get(path);
      assert.equal(r.status, 422, path);
      assert.equal(r.json.error, 'invalid_request', path);
    }
  } finally {
    s.close();
  }
  const stale = await server(snap.now + 61);
  try {
    for (const path of ['/v2/hex/4b1814', '/v2/mil']) assert.equal((await stale.get(path)).json.error, 'stale_snapshot', path);
  } finally {
    stale.close();
  }
});
