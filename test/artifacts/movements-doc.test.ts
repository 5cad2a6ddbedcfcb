import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localIso, movementsDoc, UNKNOWN_RUNWAY, type MovementRow } from '../../artifacts/movements-doc.ts';
import { problems } from '../../schemas/index.ts';

// the builder reads no clock; the process zone is pinned so a local-time slip into it would show
process.env.TZ = 'America/Los_Angeles';

const ZRH = { iata: 'ZRH', icao: 'LSZH', ident: 'LSZH', tz: 'Europe/Zurich' };
// 2026-11-20 00:00 UTC
const DAY = 1_795_132_800;

const row = (at: number, over: Partial<MovementRow> = {}): MovementRow => ({
  kind: 'takeoff',
  at,
  runway: '28',
  callsign: 'SWR100',
  hex: '4b1814',
  reg: 'HB-JVL',
  type: 'A320',
  other: 'LHR',
  other_ident: 'EGLL',
  route_source: 'observed',
  circuit: false,
  ...over,
});

test('localIso: the zone offset at the instant, either side of a change, west and east and half hours', () => {
  assert.equal(localIso(DAY, 'Europe/Zurich'), '2026-11-20T01:00:00+01:00');
  assert.equal(localIso(1_782_000_000, 'Europe/Zurich'), '2026-06-21T02:00:00+02:00', 'summer time');
  assert.equal(localIso(DAY, 'America/St_Johns'), '2026-11-19T20:30:00-03:30');
  assert.equal(localIso(DAY, 'UTC'), '2026-11-20T00:00:00+00:00');
});

test('movementsDoc: time order (landings first at a tie), local time, the other end by kind, counts per runway and UTC hour; valid', () => {
  const doc = movementsDoc(ZRH, '2026-11-20', [
    row(DAY + 7 * 3600 + 60, { kind: 'landing', runway: null, other: null, other_ident: null, route_source: null, hex: '4b1815' }),
    row(DAY + 7 * 3600),
    row(DAY + 7 * 3600, { kind: 'landing', runway: '14', other: 'GVA', other_ident: 'LSGG', hex: '4b1816' }),
    row(DAY + 23 * 3600 + 3599, { runway: '16', circuit: true, other: 'ZRH', other_ident: 'LSZH' }),
  ]);
  assert.deepEqual(
    doc.movements.map((m) => [m.at - DAY, m.kind]),
    [
      [25200, 'landing'],
      [25200, 'takeoff'],
      [25260, 'landing'],
      [86399, 'takeoff'],
    ],
  );
  assert.equal(doc.movements[0]!.local, '2026-11-20T08:00:00+01:00');
  assert.deepEqual({ org: (doc.movements[0] as { org?: string }).org, dst: (doc.movements[0] as { dst?: string }).dst }, { org: 'GVA', dst: undefined });
  assert.equal((doc.movements[1] as { dst_ident?: string }).dst_ident, 'EGLL');
  assert.equal(doc.movements[3]!.circuit, true);
  assert.deepEqual(doc.counts.runways, {
    '14': { takeoffs: 0, landings: 1 },
    '16': { takeoffs: 1, landings: 0 },
    '28': { takeoffs: 1, landings: 0 },
    unknown: { takeoffs: 0, landings: 1 },
  });
  assert.equal(UNKNOWN_RUNWAY, 'unknown');
  assert.equal(doc.counts.hours_utc.length, 24);
  assert.deepEqual(doc.counts.hours_utc[7], { takeoffs: 1, landings: 2 });
  assert.deepEqual(doc.counts.hours_utc[23], { takeoffs: 1, landings: 0 });
  assert.equal(
    doc.counts.hours_utc.reduce((n, h) => n + h.takeoffs + h.landings, 0),
    4,
  );
  assert.deepEqual([doc.counts.takeoffs, doc.counts.landings], [2, 2]);
  assert.deepEqual([doc.iata, doc.icao, doc.ident, doc.date, doc.tz, doc.coverage], ['ZRH', 'LSZH', 'LSZH', '2026-11-20', 'Europe/Zurich', 'observed']);
  assert.deepEqual(problems('movements', doc), []);
  assert.notDeepEqual(problems('movements', { ...doc, movements: [] }), [], 'a day without movements is no document');
  const takeoff = doc.movements[1]!;
  assert.notDeepEqual(problems('movements', { ...doc, movements: [{ ...takeoff, org: 'GVA' }] }), [], 'a take-off names its destination, not an origin');
});

test('movementsDoc: no rows, or a row off the UTC day, is refused', () => {
  assert.throws(() => movementsDoc(ZRH, '2026-11-20', []), /no movements/);
  assert.throws(() => movementsDoc(ZRH, '2026-11-20', [row(DAY + 86400)]), /not on that UTC day/);
  assert.throws(() => movementsDoc(ZRH, '2026-11-20', [row(DAY - 1)]), /not on that UTC day/);
});
