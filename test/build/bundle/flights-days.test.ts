// which window days the bundle makes a flights file for again (build/bundle/flights.ts
// flightsDaysToMake): a closed day is frozen as its documents are, so a night that adds a day
// makes that day and the one before, and keeps the rest, unless the build wrote every day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flightsDaysToMake, type FlightsDaysInput } from '../../../build/bundle/flights.ts';

const WINDOW = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
const LAST_NIGHT = new Set(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
const night: FlightsDaysInput = { inWindow: WINDOW, listed: LAST_NIGHT, sameBuild: false, keptClosedDays: true, changedLog: ['2026-03-05'] };
const sorted = (s: Set<string>) => [...s].sort();

test('a night that adds a day makes that day and the one before; the closed days keep their files', () => {
  assert.deepEqual(sorted(flightsDaysToMake(night)), ['2026-03-04', '2026-03-05']);
  // two days added at once (a missed night): both, and the day before the first
  const missed = { ...night, listed: new Set(['2026-03-01', '2026-03-02', '2026-03-03']), changedLog: ['2026-03-04', '2026-03-05'] };
  assert.deepEqual(sorted(flightsDaysToMake(missed)), ['2026-03-03', '2026-03-04', '2026-03-05']);
  // a closed day whose log file changed (late traces) is made again
  assert.deepEqual(sorted(flightsDaysToMake({ ...night, changedLog: ['2026-03-02', '2026-03-05'] })), ['2026-03-02', '2026-03-04', '2026-03-05']);
  // a log day outside the window is not the bundle's to make
  assert.deepEqual(sorted(flightsDaysToMake({ ...night, changedLog: ['2026-03-01', '2026-03-05'] })), ['2026-03-04', '2026-03-05']);
});

test('every day for a build that wrote every day (the first, a --rebuild) or without a previous index; only changed log days for the same build', () => {
  assert.deepEqual(sorted(flightsDaysToMake({ ...night, keptClosedDays: false })), WINDOW);
  assert.deepEqual(sorted(flightsDaysToMake({ ...night, listed: null })), WINDOW);
  assert.deepEqual(sorted(flightsDaysToMake({ ...night, listed: new Set(WINDOW), sameBuild: true, keptClosedDays: false, changedLog: [] })), []);
  assert.deepEqual(sorted(flightsDaysToMake({ ...night, sameBuild: true, keptClosedDays: false, changedLog: ['2026-03-03'] })), ['2026-03-03']);
});
