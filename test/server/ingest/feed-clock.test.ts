// the decoder's clock against this server's (server/ingest/feed-clock.ts): a `now` far ahead or
// before the snapshot already taken is refused; a clock that went back is taken as reset only
// after RESET_AFTER snapshots in a row, each newer than the last, agree with this server's clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedClock, RESET_AFTER } from '../../../server/ingest/feed-clock.ts';

const S = 1795312405;
const clock = () => new FeedClock({ maxAheadS: 5, maxAgeS: 60 });
const kinds = (c: FeedClock, nows: number[], serverS = S) =>
  nows.map((n) => {
    const v = c.check(n, serverS);
    return v.ok ? (v.reset ? 'reset' : 'ok') : v.kind;
  });

test('forward, equal and slightly ahead are taken; far ahead is future_now', () => {
  const c = clock();
  assert.deepEqual(kinds(c, [S - 10, S - 9, S - 9, S + 4, S + 3600, S + 5]), ['ok', 'ok', 'ok', 'ok', 'future_now', 'ok']);
});

test("an hour back is refused as backwards_now, every time, and says the decoder is behind this server's clock", () => {
  const c = clock();
  c.check(S - 1, S);
  const v = c.check(S - 3601, S);
  assert.equal(v.ok, false);
  assert.match(
    !v.ok ? v.detail : '',
    /^"now" went back 3600 s from the snapshot already taken; keeping that one \(it goes stale as usual\); it is also 3601 s behind this server's clock: check the decoder's clock \(NTP\)$/,
  );
  // a decoder whose clock stays an hour back, advancing: never taken (it would be stale on arrival)
  assert.deepEqual(
    kinds(
      c,
      Array.from({ length: 20 }, (_, k) => S - 3600 + k),
      S,
    ),
    Array(20).fill('backwards_now'),
  );
  // fixed: the next snapshot newer than the one taken is taken at once
  assert.deepEqual(kinds(c, [S]), ['ok']);
});

test(`a clock set back that agrees with this server's is taken as reset on the ${RESET_AFTER}rd snapshot in a row, not before`, () => {
  const c = clock();
  c.check(S + 4, S); // the decoder ran 4 s ahead (within --feed-max-ahead)
  // corrected: its snapshots are 3 s behind the one taken
  assert.deepEqual(kinds(c, [S + 1, S + 2]), ['backwards_now', 'backwards_now']);
  const v = c.check(S + 3, S);
  assert.deepEqual(v, { ok: true, reset: { backS: 1 } });
  assert.deepEqual(kinds(c, [S + 3.5, S + 2]), ['ok', 'backwards_now']);
});

test("this server's own clock stepped back an hour: the decoder's agreeing snapshots become the timeline after a few", () => {
  const c = clock();
  c.check(S, S);
  const back = S - 3600;
  assert.deepEqual(kinds(c, [back + 1, back + 2, back + 3, back + 4], back + 3), ['backwards_now', 'backwards_now', 'reset', 'ok']);
});

test("the streak breaks on a repeated or older snapshot and on one that disagrees with this server's clock", () => {
  const c = clock();
  c.check(S + 5, S);
  // the same stray old file again and again is never taken
  assert.deepEqual(kinds(c, [S, S, S, S, S]), Array(5).fill('backwards_now'));
  // one an hour back, two agreeing, one an hour back, two agreeing: never three in a row
  assert.deepEqual(kinds(c, [S - 3600, S + 1, S + 2, S - 3600, S + 3, S + 4]), Array(6).fill('backwards_now'));
  assert.deepEqual(kinds(c, [S + 4.5]), ['reset']);
});
