// board inference: a "typical departure" (or arrival) is a callsign that uses this airport again
// and again at about the same local time. times are minutes of the airport's local day, so a
// flight at 07:10 local stays at 07:10 across a DST change, and 23:55 and 00:05 are 10 minutes
// apart (every comparison is on the 1440-minute circle). pure: no clock, no files.
import { localDayIndex, localMinute } from '../lib/localtime.ts';

export const BOARD_RULES = {
  /** days at the end of the window the board is inferred from (4 weeks: weekly flights show up to 4 times) */
  windowDays: 28,
  /** a slot is every use within this many minutes of its typical time */
  halfWidthMin: 30,
  /** a slot needs uses on at least this many distinct local days */
  minDays: 2,
  /** and at least this share of the callsign's uses of the airport in the board window */
  minShare: 0.2,
  /** a callsign has at most this many slots per airport and direction (shuttles) */
  maxSlots: 4,
};
export type BoardRules = typeof BOARD_RULES;

/** One use of the airport by one callsign, seen from this airport. */
export interface BoardLeg {
  /** unix seconds of the event at this airport: take-off for departures, landing for arrivals */
  at: number;
  /** unix seconds of the event at the other end, null when not heard */
  other: number | null;
  /** the other airport (IATA), null when not heard or it has no IATA code */
  end: string | null;
  /** ICAO type designator, null when unknown */
  type: string | null;
}

/** One inferred slot: all minutes are of this airport's local day. */
export interface Slot {
  callsign: string;
  /** most common other end among the slot's legs, null when never heard */
  end: string | null;
  /** typical minute of the event at this airport */
  at: number;
  /** typical minute of the other event, in this airport's local time; null when never heard */
  other: number | null;
  type: string | null;
  /** legs in the slot */
  flights: number;
  /** distinct local days in the slot */
  days: number;
}

/** Signed circular difference a - b in minutes, in (-720, 720]. */
export function minuteDiff(a: number, b: number): number {
  let d = (((a - b) % 1440) + 1440) % 1440;
  if (d > 720) d -= 1440;
  return d;
}

/** Circular distance between two minutes of the day, 0..720. */
export const minuteDistance = (a: number, b: number) => Math.abs(minuteDiff(a, b));

/**
 * Circular median: the median of the minutes unwrapped around their circular mean. A function of
 * the multiset alone, whatever order the minutes come in (DuckDB's list() has none): the mean is
 * summed over them sorted, since a float sum depends on its order and a centre a few ulps off
 * once turned a median of two middle minutes, x.5, into either neighbour; and each minute is
 * unwrapped by whole days, so the middle values stay exact.
 */
export function circularMedian(minutes: readonly number[]): number | null {
  if (minutes.length === 0) return null;
  const sorted = [...minutes].sort((a, b) => a - b);
  let sx = 0;
  let sy = 0;
  for (const m of sorted) {
    const a = (m / 1440) * 2 * Math.PI;
    sx += Math.cos(a);
    sy += Math.sin(a);
  }
  // evenly spread minutes have no mean direction: fall back to the earliest one as the centre
  const centre = Math.hypot(sx, sy) < 1e-9 ? sorted[0]! : ((Math.atan2(sy, sx) / (2 * Math.PI)) * 1440 + 1440) % 1440;
  const unwrapped = sorted.map((m) => m + 1440 * Math.round((centre + minuteDiff(m, centre) - m) / 1440)).sort((a, b) => a - b);
  const n = unwrapped.length;
  const mid = n % 2 ? unwrapped[(n - 1) / 2]! : (unwrapped[n / 2 - 1]! + unwrapped[n / 2]!) / 2;
  return ((Math.round(mid) % 1440) + 1440) % 1440;
}

/** Most common non-null value; ties go to the alphabetically first. */
export function mode(values: Iterable<string | null>): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let bestN = 0;
  for (const [v, n] of counts) if (n > bestN || (n === bestN && best !== null && v < best)) [best, bestN] = [v, n];
  return best;
}

// start index (into the sorted minutes) of the 2*halfWidth window holding the most uses
function densestWindow(sorted: readonly number[], width: number): number {
  const n = sorted.length;
  let best = 0;
  let bestCount = 0;
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (j < i) j = i;
    // the window may wrap past midnight: index k >= n stands for sorted[k - n] + 1440
    while (j + 1 < i + n && at(sorted, j + 1) - sorted[i]! <= width) j++;
    if (j - i + 1 > bestCount) [best, bestCount] = [i, j - i + 1];
  }
  return best;
}
const at = (sorted: readonly number[], k: number) => (k < sorted.length ? sorted[k]! : sorted[k - sorted.length]! + 1440);

/**
 * The typical slots of one callsign at one airport (tz = the airport's Olson zone).
 * Greedy: take the densest hour of local minutes, centre it on the circular median, keep every
 * use within halfWidth of that centre; a slot counts when it has minDays distinct local days and
 * minShare of the uses; repeat on what is left (a shuttle can have several slots).
 */
export function inferSlots(callsign: string, legs: readonly BoardLeg[], tz: string, rules: BoardRules = BOARD_RULES): Slot[] {
  const total = legs.length;
  let left = legs.map((leg) => ({ leg, minute: localMinute(leg.at, tz) }));
  const slots: Slot[] = [];
  while (slots.length < rules.maxSlots && left.length >= rules.minDays) {
    const sorted = left.map((x) => x.minute).sort((a, b) => a - b);
    const start = sorted[densestWindow(sorted, 2 * rules.halfWidthMin)]!;
    const seed = left.filter((x) => minuteDiff(x.minute, start) >= 0 && minuteDiff(x.minute, start) <= 2 * rules.halfWidthMin);
    const centre = circularMedian(seed.map((x) => x.minute))!;
    const members = left.filter((x) => minuteDistance(x.minute, centre) <= rules.halfWidthMin);
    const days = new Set(members.map((x) => localDayIndex(x.leg.at, tz))).size;
    if (days < rules.minDays || members.length < rules.minShare * total) break;
    const others = members.filter((x) => x.leg.other !== null).map((x) => localMinute(x.leg.other!, tz));
    slots.push({
      callsign,
      end: mode(members.map((x) => x.leg.end)),
      at: circularMedian(members.map((x) => x.minute))!,
      other: circularMedian(others),
      type: mode(members.map((x) => x.leg.type)),
      flights: members.length,
      days,
    });
    const taken = new Set(members);
    left = left.filter((x) => !taken.has(x));
  }
  return slots;
}
