// the decoder's clock against this server's, snapshot by snapshot (docs/api.md, "The feed's clock").
// a snapshot's age counts from its `now`, so a `now` that cannot be right must not go live:
// - ahead of this server's clock by more than maxAheadS: refused (`future_now`); it would keep an
//   outage looking live;
// - before the `now` of the snapshot already taken: refused (`backwards_now`); taken, it would
//   replace the newest sky with an older one, or (an hour back) with one that is stale on arrival.
//   the snapshot held then ages into 503 stale_snapshot as usual: never an empty sky.
// a decoder whose clock really was set back (readsb restarted with a corrected clock) is taken at
// its word once RESET_AFTER snapshots in a row, each newer than the one before, agree with this
// server's clock (no more than maxAgeS behind it, no more than maxAheadS ahead): the clock that
// was wrong is then the old one. one that stays far behind this server's clock is refused until
// it is fixed (its snapshots would be stale anyway). pure: the caller counts and logs.

/**
 * snapshots in a row that make a clock that went back the new timeline: at readsb's one a second,
 * 3 s. one stray old file (a copy, a restore) is never taken; a real reset waits 3 s, while the
 * snapshot held is still served (it is at most a few seconds old)
 */
export const RESET_AFTER = 3;

export type ClockVerdict =
  | { ok: true /** the clock went back and is taken as reset (the caller logs it) */; reset: null | { backS: number } }
  | { ok: false; kind: 'future_now' | 'backwards_now'; detail: string };

export interface FeedClockOptions {
  /** s a `now` may run ahead of this server's clock */
  maxAheadS: number;
  /** s a snapshot may be old before it is stale (spec 1 rule 5: 60) */
  maxAgeS: number;
}

export class FeedClock {
  /** `now` of the last snapshot taken */
  private last: number | null = null;
  /** snapshots in a row behind `last` that agreed with this server's clock, and the newest one's `now` */
  private streak = 0;
  private streakNow = -Infinity;

  constructor(private readonly o: FeedClockOptions) {}

  /** Whether a snapshot stamped `now` may go live, this server's clock reading `serverS` (both unix s). Taking it is recorded. */
  check(now: number, serverS: number): ClockVerdict {
    const aheadS = now - serverS;
    if (aheadS > this.o.maxAheadS) {
      return {
        ok: false,
        kind: 'future_now',
        detail: `"now" is ${Math.round(aheadS)} s ahead of this server's clock (limit ${this.o.maxAheadS} s); keeping the previous snapshot: check the decoder's clock (NTP)`,
      };
    }
    if (this.last === null || now >= this.last) {
      this.take(now);
      return { ok: true, reset: null };
    }
    const backS = this.last - now;
    const agrees = -aheadS <= this.o.maxAgeS;
    this.streak = agrees && now > this.streakNow ? this.streak + 1 : agrees ? 1 : 0;
    this.streakNow = agrees ? now : -Infinity;
    if (this.streak >= RESET_AFTER) {
      this.take(now);
      return { ok: true, reset: { backS } };
    }
    const why = agrees
      ? `taken as a reset of the decoder's clock after ${RESET_AFTER} such snapshots in a row that agree with this server's clock`
      : `it is also ${Math.round(-aheadS)} s behind this server's clock: check the decoder's clock (NTP)`;
    return {
      ok: false,
      kind: 'backwards_now',
      detail: `"now" went back ${Math.round(backS)} s from the snapshot already taken; keeping that one (it goes stale as usual); ${why}`,
    };
  }

  private take(now: number): void {
    this.last = now;
    this.streak = 0;
    this.streakNow = -Infinity;
  }
}
