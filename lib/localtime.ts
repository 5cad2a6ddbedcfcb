// local wall-clock time of an instant in an Olson time zone, independent of the process TZ.
// Intl.DateTimeFormat is slow (microseconds a call), so the UTC offset is cached per zone and UTC
// day, and on the day of a change per quarter hour: every real transition falls on a UTC quarter
// hour (Newfoundland 05:30 UTC, Lord Howe 15:30 UTC, Chatham 14:00 UTC), so that is exact.

const QUARTER = 900;
const MAX_CACHED_PER_ZONE = 200_000; // ~5 years of quarter hours; the cache is dropped beyond it

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    // throws RangeError for an unknown zone: the caller's data is wrong, say so early
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

function computeOffsetMinutes(tz: string, tsSec: number): number {
  const parts = formatter(tz).formatToParts(new Date(tsSec * 1000));
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((wall / 1000 - tsSec) / 60);
}

/** UTC offset of the zone at the instant, minutes east of UTC (Zurich summer: 120). */
export function utcOffsetMinutes(tz: string, tsSec: number): number {
  let cache = offsets.get(tz);
  if (!cache || cache.size > MAX_CACHED_PER_ZONE) {
    cache = new Map();
    offsets.set(tz, cache);
  }
  // a UTC day whose first and last quarter hours agree has one offset throughout (no zone
  // changes twice in a day): cached under -(day + 1); a day with a change goes by quarter hour
  const day = Math.floor(tsSec / 86400);
  let off = cache.get(-(day + 1));
  if (off === undefined) {
    const first = computeOffsetMinutes(tz, day * 86400);
    off = first === computeOffsetMinutes(tz, day * 86400 + 86400 - QUARTER) ? first : NaN;
    cache.set(-(day + 1), off);
  }
  if (!Number.isNaN(off)) return off;
  const bucket = Math.floor(tsSec / QUARTER);
  off = cache.get(bucket);
  if (off === undefined) {
    off = computeOffsetMinutes(tz, bucket * QUARTER);
    cache.set(bucket, off);
  }
  return off;
}

export interface LocalTime {
  /** local calendar day, YYYY-MM-DD */
  day: string;
  /** local minute of the day, 0..1439 */
  minute: number;
}

/** Local day and minute of the day of a unix-seconds instant in an Olson zone. */
export function localTime(tsSec: number, tz: string): LocalTime {
  const localSec = tsSec + utcOffsetMinutes(tz, tsSec) * 60;
  const dayIndex = Math.floor(localSec / 86400);
  const minute = Math.floor((localSec - dayIndex * 86400) / 60);
  return { day: isoDay(dayIndex), minute };
}

/** Local day index (days since 1970-01-01 in local time), for counting distinct local days cheaply. */
export function localDayIndex(tsSec: number, tz: string): number {
  return Math.floor((tsSec + utcOffsetMinutes(tz, tsSec) * 60) / 86400);
}

/** Local minute of the day, 0..1439. */
export function localMinute(tsSec: number, tz: string): number {
  const localSec = tsSec + utcOffsetMinutes(tz, tsSec) * 60;
  return Math.floor((((localSec % 86400) + 86400) % 86400) / 60);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** true for a real calendar day written YYYY-MM-DD (2026-02-30 is not one) */
export function isDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** YYYY-MM-DD of a day index (days since the epoch). */
export function isoDay(dayIndex: number): string {
  return new Date(dayIndex * 86400_000).toISOString().slice(0, 10);
}

/** Day index of a YYYY-MM-DD date. */
export function dayIndexOf(isoDate: string): number {
  return Math.round(Date.parse(`${isoDate}T00:00:00Z`) / 86400_000);
}

/** HH:MM of a minute of the day (any integer, wrapped into 0..1439). */
export function hhmm(minute: number): string {
  const m = ((Math.round(minute) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Minute of the day of an HH:MM string, or null when malformed. */
export function parseHhmm(s: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}
