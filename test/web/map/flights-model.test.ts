// the panels' flight-log models (web/map/flights-model.ts): which days an airframe lists, a day's
// rows and lines, yesterday in UTC, the runway in use (a tie names none), a movement's row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  endLabel,
  flightDays,
  flightLines,
  flightRows,
  movementRow,
  runwayUse,
  said,
  yesterdayUtc,
  type Flight,
  type FlightsDoc,
} from '../../../web/map/flights-model.ts';

process.env.TZ = 'UTC';

const T = Date.UTC(2026, 10, 21, 6, 10, 0) / 1000;

const flight = (o: Partial<Flight> = {}): Flight => ({
  callsign: 'SWR100',
  org: 'ZRH',
  dst: 'LHR',
  org_ident: 'LSZH',
  dst_ident: 'EGLL',
  route_source: 'observed',
  departure: { at: T, lat: 47.45, lon: 8.55, airport: 'LSZH', runway: '16' },
  arrival: { at: T + 5400, lat: 51.47, lon: -0.46, airport: 'EGLL', runway: '27R' },
  first_seen: T - 600,
  last_seen: T + 6000,
  distance_km: 780,
  max_alt_ft: 36000,
  circuit: false,
  track: [
    [T + 2700, 49.5, 4.0, 36000, 300],
    [T - 600, 47.45, 8.55, 'ground', 160],
    [T + 6000, 51.47, -0.46, 'ground', 270],
  ],
  ...o,
});

const doc = (flights: Flight[]): FlightsDoc => ({ hex: '4b1814', date: '2026-11-21', reg: 'HB-JLT', type: 'A320', flights });

test('flightDays: the distinct leg dates, newest first, at most the limit; malformed or missing dates are left out', () => {
  const legs = [{ date: '2026-11-20' }, { date: '2026-11-21' }, { date: '2026-11-20' }, { date: '2026-11-19' }, { date: 'yesterday' }, {}, { date: 20261118 }];
  assert.deepEqual(flightDays(legs), ['2026-11-21', '2026-11-20', '2026-11-19']);
  assert.deepEqual(flightDays(legs, 2), ['2026-11-21', '2026-11-20']);
  assert.deepEqual(flightDays(null), []);
  assert.deepEqual(flightDays([]), []);
  const many = Array.from({ length: 30 }, (_, i) => ({ date: `2026-10-${String(i + 1).padStart(2, '0')}` }));
  assert.equal(flightDays(many).length, 14, 'fourteen days by default');
  assert.equal(flightDays(many)[0], '2026-10-30');
});

test('yesterdayUtc: the UTC day before the one holding the instant, across a month and a year', () => {
  assert.equal(yesterdayUtc(Date.UTC(2026, 10, 22, 3, 0, 0) / 1000), '2026-11-21');
  assert.equal(yesterdayUtc(Date.UTC(2026, 10, 22, 0, 0, 0) / 1000), '2026-11-21');
  assert.equal(yesterdayUtc(Date.UTC(2026, 10, 21, 23, 59, 59) / 1000), '2026-11-20');
  assert.equal(yesterdayUtc(Date.UTC(2027, 0, 1, 12) / 1000), '2026-12-31');
  assert.equal(yesterdayUtc(Date.UTC(2026, 2, 1, 12) / 1000), '2026-02-28');
});

test('flightRows: oldest first, the route with route_source, heard times or when first and last heard, the runways', () => {
  const late = flight({ callsign: 'SWR101', first_seen: T + 20000, departure: null, arrival: null, org: null, org_ident: null, route_source: 'catalog' });
  const rows = flightRows(doc([late, flight()]));
  assert.deepEqual(rows[0], ['SWR100', 'ZRH → LHR', 'observed', '06:10:00Z', '07:40:00Z', '16 / 27R']);
  assert.deepEqual(rows[1], ['SWR101', '? → LHR', 'catalog', 'first heard 11:43:20Z', 'last heard 07:50:00Z', '– / –']);
  const circuit = flightRows(doc([flight({ dst: 'ZRH', dst_ident: 'LSZH', circuit: true, callsign: null })]))[0]!;
  assert.equal(circuit[0], '–');
  assert.equal(circuit[1], 'ZRH → ZRH (circuit)');
});

test('flightLines: the track sorted by time, ends marked with time, airport and runway; an unheard end is not marked', () => {
  const [line] = flightLines(doc([flight()]));
  assert.deepEqual(line!.points, [
    [47.45, 8.55],
    [49.5, 4.0],
    [51.47, -0.46],
  ]);
  assert.deepEqual(line!.takeoff, { lat: 47.45, lon: 8.55, label: 'take-off 06:10:00Z LSZH rwy 16' });
  assert.deepEqual(line!.landing, { lat: 51.47, lon: -0.46, label: 'landing 07:40:00Z EGLL rwy 27R' });
  const [aloft] = flightLines(doc([flight({ departure: null, arrival: { at: T, lat: 1, lon: 2, airport: null, runway: null } })]));
  assert.equal(aloft!.takeoff, null);
  assert.equal(aloft!.landing!.label, 'landing 06:10:00Z');
  const [empty] = flightLines(doc([flight({ track: [], departure: null, arrival: null })]));
  assert.deepEqual(empty, { points: [], takeoff: null, landing: null });
});

test('flightLines: a track over the antimeridian is unwrapped (no step longer than 180°) and its landing mark follows it', () => {
  const [line] = flightLines(
    doc([
      flight({
        track: [
          [T, 60, 170, 30000, 90],
          [T + 600, 60.5, 179.5, 30000, 90],
          [T + 1200, 61, -178, 30000, 90],
          [T + 1800, 61, Number.NaN, 30000, 90],
        ],
        arrival: { at: T + 1800, lat: 61.2, lon: -175, airport: null, runway: null },
      }),
    ]),
  );
  assert.deepEqual(
    line!.points.map((p) => p[1]),
    [170, 179.5, 182],
    'a point without a position is skipped',
  );
  assert.equal(line!.landing!.lon, 185);
  assert.equal(line!.takeoff!.lon, 8.55, 'an end is moved by whole turns only');
});

test('endLabel: kind and time always, airport and runway where known', () => {
  assert.equal(endLabel('take-off', { at: T, lat: 0, lon: 0, airport: 'LSZH', runway: '28' }), 'take-off 06:10:00Z LSZH rwy 28');
  assert.equal(endLabel('landing', { at: T, lat: 0, lon: 0, airport: 'LSZH', runway: null }), 'landing 06:10:00Z LSZH');
});

test('runwayUse: runways by movements, unknown last; the runway in use is the one each kind used most, and a tie names none', () => {
  const use = runwayUse({
    unknown: { takeoffs: 9, landings: 9 },
    '14': { takeoffs: 0, landings: 7 },
    '16': { takeoffs: 5, landings: 0 },
    '28': { takeoffs: 2, landings: 1 },
  });
  assert.deepEqual(
    use.rows.map((r) => r.runway),
    ['14', '16', '28', 'unknown'],
  );
  assert.equal(use.takeoffs, '16');
  assert.equal(use.landings, '14');
  const tie = runwayUse({ '16': { takeoffs: 3, landings: 0 }, '28': { takeoffs: 3, landings: 1 } });
  assert.equal(tie.takeoffs, null, 'two runways alike: none named');
  assert.equal(tie.landings, '28');
  assert.deepEqual(
    tie.rows.map((r) => r.runway),
    ['28', '16'],
    'more movements first',
  );
  const none = runwayUse({ unknown: { takeoffs: 4, landings: 2 } });
  assert.deepEqual([none.takeoffs, none.landings], [null, null], 'no known runway: none in use');
  assert.deepEqual(runwayUse({}), { rows: [], takeoffs: null, landings: null });
  const names = runwayUse({ '09': { takeoffs: 1, landings: 0 }, '08': { takeoffs: 1, landings: 0 } });
  assert.deepEqual(
    names.rows.map((r) => r.runway),
    ['08', '09'],
    'ties in total by name',
  );
});

test('movementRow: local and UTC time, kind in words, the other end with its route_source, the hex when there is no callsign', () => {
  const base = { at: T, local: '2026-11-21T07:10:00+01:00', hex: '4b1814', runway: '16', route_source: 'observed', circuit: false };
  assert.deepEqual(movementRow({ ...base, kind: 'takeoff', callsign: 'SWR100', dst: 'LHR', dst_ident: 'EGLL' }), [
    '07:10',
    '06:10Z',
    'take-off',
    'SWR100',
    '16',
    'to LHR · observed',
  ]);
  assert.deepEqual(movementRow({ ...base, kind: 'landing', callsign: null, runway: null, org: null, org_ident: 'LSGG', route_source: null, circuit: true }), [
    '07:10',
    '06:10Z',
    'landing',
    '4b1814',
    '–',
    'from LSGG (circuit)',
  ]);
});

test('said: each refusal in words (never blank), the not_observed sentence naming what was not heard', () => {
  const no = (status: number, error: string, detail: string, retryAfterS: number | null = null) => ({ ok: false as const, status, error, detail, retryAfterS });
  const what = 'flight of this airframe on 2026-11-20 (UTC)';
  assert.equal(said(no(404, 'not_observed', 'no flights of 4b1814 on 2026-11-20'), what), 'The network heard no flight of this airframe on 2026-11-20 (UTC).');
  assert.equal(said(no(404, 'not_found', 'no airframe 4b1899 in the archive'), what), 'Nothing is known here: no airframe 4b1899 in the archive.');
  assert.equal(said(no(0, 'network', 'the server did not answer: Failed to fetch'), what), 'The server did not answer: Failed to fetch; try again.');
  assert.equal(said(no(429, 'rate_limited', 'too many', 30), what), 'Too many requests just now; try again in 30 s.');
  assert.equal(said(no(429, 'rate_limited', 'too many'), what), 'Too many requests just now.');
  assert.equal(
    said(no(503, 'artifact_unavailable', 'no history build is loaded'), what),
    'The server could not answer (artifact_unavailable): no history build is loaded.',
  );
  assert.equal(said({ ok: true, status: 200, body: {} }, what), '');
});
