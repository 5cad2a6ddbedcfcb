// the detector with airfield knowledge (options.fields): one test per failure class found on real
// traces (issue 11 §1). synthetic tracks over one field at 900 ft, 1 point per 5 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutLegs, type FieldLookup, type TrackPoint } from '../../lib/detector.ts';
import { distanceKm } from '../../lib/geo.ts';
import { ac671b, positionStream } from '../helpers/traffic.ts';
import { loadProjectLocator } from '../helpers/detector-sources.ts';
import { fieldsOf } from '../../lib/reference/fields.ts';

const FIELD = { lat: 45, lon: 7, elev: 900 };
// the field is "near" within 4 km, as the locator's FIELD_KM
const fields: FieldLookup = (lat, lon) => {
  const km = distanceKm(lat, lon, FIELD.lat, FIELD.lon);
  return km <= 4 ? { elevation_ft: FIELD.elev, km } : null;
};
const T0 = 1_750_000_000;

/** points along a line east of the field: [alt, gs, km east of the field] per step of 5 s */
function along(rows: [TrackPoint['alt'], number, number][]): TrackPoint[] {
  return rows.map(([alt, gs, km], i) => ({ t: T0 + 5 * i, lat: FIELD.lat, lon: FIELD.lon + km / (111.195 * Math.cos((FIELD.lat * Math.PI) / 180)), alt, gs }));
}
const approach = (fromFt: number, n: number, kt: number): [number, number, number][] =>
  Array.from({ length: n }, (_, i) => [Math.round(fromFt - ((fromFt - 1000) * i) / (n - 1)), kt, 3 - (2.5 * i) / (n - 1)]);

test("a transponder that never sends the ground flag: slow at the field's height is ground, and the landing is found", () => {
  // approach to 1,000 ft, roll out reading 850-875 ft (pressure altitude below the elevation), taxi at 10 kt
  const pts = along([...approach(3000, 12, 80), [875, 60, 0.4], [875, 40, 0.3], [850, 20, 0.25], [850, 10, 0.2], [850, 8, 0.15], [850, 0, 0.15]]);
  assert.equal(cutLegs(pts)[0]!.arrival, null, 'the flag alone sees no landing');
  const leg = cutLegs(pts, { fields })[0]!;
  assert.ok(leg.arrival, 'landing found from the field height');
  // touchdown at the first reading at the floor, not at the first slow point
  assert.equal(leg.arrival!.at, pts[12]!.t);
});

test('a touch-and-go is a landing and a take-off: two legs, the first ending and the second starting at the field', () => {
  const circuit = approach(2000, 8, 70);
  // flare, a 15 s roll at 38-44 kt reading 925 ft, power up and away
  const pts = along([
    ...circuit,
    [950, 55, 0.45],
    [925, 42, 0.4],
    [925, 38, 0.3],
    [925, 40, 0.2],
    [925, 44, 0.1],
    [950, 55, 0],
    [1100, 65, -0.3],
    [1400, 70, -0.6],
    [1700, 75, -1],
  ]);
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 2);
  assert.ok(legs[0]!.arrival && legs[1]!.departure, JSON.stringify(legs));
  assert.ok(legs[1]!.departure!.at - legs[0]!.arrival!.at <= 30, JSON.stringify(legs));
});

test('first heard aloft: 4,000 ft over the field is no take-off; 500 ft over it and climbing is one', () => {
  const high = along([
    [4900, 120, 1],
    [5100, 120, 1.5],
    [5400, 120, 2],
    [5700, 120, 2.5],
  ]);
  assert.ok(cutLegs(high)[0]!.departure, 'the old rule (below 5,000 ft MSL) takes it');
  assert.equal(cutLegs(high, { fields })[0]!.departure, null);
  const low = along([
    [1400, 80, 0.5],
    [1700, 80, 1],
    [2000, 80, 1.5],
    [2300, 80, 2],
  ]);
  assert.equal(cutLegs(low, { fields })[0]!.departure!.at, low[0]!.t);
});

test('first heard aloft 2.65 km from the field (beyond the runway match distance) is no take-off, even climbing (88NV glider c07bed)', () => {
  const thermal = along([
    [1340, 95, 2.65],
    [1500, 90, 2.9],
    [1700, 92, 2.5],
    [1900, 95, 2.8],
    [2000, 100, 3.5],
  ]);
  assert.equal(cutLegs(thermal, { fields, firstKm: 3 })[0]!.departure!.at, thermal[0]!.t, 'within a wider distance it would be one');
  assert.equal(cutLegs(thermal, { fields })[0]!.departure, null);
});

test('first heard 440 ft over the runway, climbing 275 ft and turning level into the circuit, is a take-off (Monterey a38df3)', () => {
  const pts = along([
    [1340, 66, 0.33],
    [1500, 70, 0.7],
    [1600, 75, 0.9],
    [1615, 90, 1.2],
    [1550, 90, 1.1],
    [1500, 85, 0.8],
  ]);
  assert.equal(cutLegs(pts, { fields, fieldClimbFt: 500 })[0]!.departure, null, 'a 500 ft climb, as without airfield knowledge, misses it');
  assert.equal(cutLegs(pts, { fields })[0]!.departure!.at, pts[0]!.t);
});

test('coverage ends on final, comes back for two points on the runway after a 3 min gap, then silence: a landing at the first of them (Monterey a18dde)', () => {
  const pts = along([
    [2000, 100, 3],
    [1800, 95, 2.6],
    [1600, 90, 2.2],
    [1450, 90, 1.9],
  ]);
  // 196 s unheard, then 70 ft and 45 ft over the field at 63 kt; back 2.5 h later climbing out
  pts.push({ ...pts[3]!, t: pts[3]!.t + 196, lon: FIELD.lon + 0.001, alt: 970, gs: 63 }, { ...pts[3]!, t: pts[3]!.t + 200, lon: FIELD.lon, alt: 945, gs: 60 });
  pts.push(
    { ...pts[3]!, t: pts[3]!.t + 9000, lon: FIELD.lon + 0.005, alt: 1600, gs: 85 },
    { ...pts[3]!, t: pts[3]!.t + 9010, lon: FIELD.lon + 0.01, alt: 1800, gs: 90 },
  );
  assert.equal(cutLegs(pts, { fields, lastDescentS: 120 })[0]!.arrival, null, 'looking back two minutes only, the descent is not seen');
  const legs = cutLegs(pts, { fields });
  assert.equal(legs[0]!.arrival!.at, pts[4]!.t);
});

test('last heard rolling over the runway, its reading creeping up 75 ft as it slows: still a landing (Monterey a8359c)', () => {
  const pts = along([
    [1075, 139, 0.5],
    [975, 140, 0.2],
    [825, 130, 0.05],
    [850, 110, 0.02],
    [875, 90, 0.01],
    [900, 67, 0],
  ]);
  pts.push({ ...pts[5]!, t: pts[5]!.t + 8000, lon: FIELD.lon + 0.2, alt: 4400, gs: 240 });
  // 175 ft above the last reading, 250 ft above the lowest one
  // with the landing-on-final rule (lib/detector/final.ts) off, only lastDescentFt decides
  assert.equal(cutLegs(pts, { fields, lastDescentFt: 200 + 50 + 1, finalKm: -1 })[0]!.arrival, null, 'lastDescentFt alone misses it');
  assert.ok(cutLegs(pts, { fields, lastDescentFt: 200 + 50 + 1 })[0]!.arrival, 'the landing-on-final rule still finds it');
  assert.equal(cutLegs(pts, { fields })[0]!.arrival!.at, pts[5]!.t);
});

test('touchdown inside a coverage gap: placed at the last air point when it already read below the field (88NV a27d3c), never when the trace was heard all the way down', () => {
  // 59 s unheard between a reading 190 ft below the field at 70 kt and the first ground report
  const gap = along([
    [1400, 70, 3],
    [1200, 68, 2.4],
    [1050, 66, 2],
    [950, 64, 1.8],
    [710, 70, 1.56],
  ]);
  gap.push(
    { ...gap[4]!, t: gap[4]!.t + 59, lon: FIELD.lon + 0.004, alt: 'ground', gs: 13 },
    { ...gap[4]!, t: gap[4]!.t + 80, lon: FIELD.lon + 0.003, alt: 'ground', gs: 5 },
    { ...gap[4]!, t: gap[4]!.t + 100, lon: FIELD.lon + 0.003, alt: 'ground', gs: 0 },
  );
  assert.equal(cutLegs(gap, { fields })[0]!.arrival!.at, gap[4]!.t);
  // heard every 5 s reading 100 ft below the field for 45 s: touchdown moves from the flag to the floor readings no more than settleS (30 s)
  const heard = along([
    [1400, 70, 3],
    [1200, 68, 2.6],
    [1000, 66, 2.2],
    [800, 64, 2],
    [800, 64, 1.8],
    [800, 64, 1.6],
    [800, 64, 1.4],
    [800, 64, 1.2],
    [800, 64, 1],
    [800, 64, 0.8],
    [800, 64, 0.6],
    ['ground', 54, 0.5],
    ['ground', 40, 0.4],
    ['ground', 20, 0.35],
    ['ground', 5, 0.3],
  ]);
  assert.equal(cutLegs(heard, { fields })[0]!.arrival!.at, heard[11]!.t - 30);
});

test('a circuit heard at 1,300 ft, then 114 s unheard, then 220 ft over the runway climbing out: a take-off there, the landing not heard (Monterey a91be8)', () => {
  const pts = along([
    [2400, 110, 3],
    [2200, 105, 2.5],
    [2200, 100, 2],
    [2200, 100, 2.5],
  ]);
  const back = { t: pts[3]!.t + 114, lat: FIELD.lat, lon: FIELD.lon, gs: 97 };
  pts.push(
    { ...back, alt: 1120 },
    { ...back, t: back.t + 15, alt: 1370, lon: FIELD.lon - 0.006 },
    { ...back, t: back.t + 30, alt: 1720, lon: FIELD.lon - 0.012 },
  );
  assert.equal(cutLegs(pts, { fields, unheardStopAglFt: 200 }).length, 1, 'allowing only 200 ft, it stays one leg');
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 2);
  assert.equal(legs[0]!.arrival, null);
  assert.equal(legs[1]!.departure!.at, back.t);
  // the same gap ending 220 ft up but descending further (a low approach heard late) cuts nothing
  const low = [...pts.slice(0, 4), { ...back, alt: 1120 }, { ...back, t: back.t + 15, alt: 950 }, { ...back, t: back.t + 30, alt: 900, gs: 40 }];
  assert.ok(
    cutLegs(low, { fields }).every((l) => l.departure === null),
    'cutLegs(low, { fields }).every((l) => l.departure === null)',
  );
});

test('ground flags sent for 40 s by a slow aircraft at 3,800 ft are flown through, near a field or far from any (Monterey a5a7c3, a4ff9c)', () => {
  const slow = (km: number): TrackPoint[] => {
    const rows: [TrackPoint['alt'], number, number][] = [];
    for (let i = 0; i < 12; i++) rows.push([4700, i < 6 ? 95 : 40, km + 0.05 * i]);
    for (let i = 12; i < 20; i++) rows.push(['ground', 38, km + 0.05 * i]);
    for (let i = 20; i < 32; i++) rows.push([4800, i < 26 ? 42 : 95, km + 0.05 * i]);
    return along(rows);
  };
  const near = slow(2.5);
  const far = slow(20);
  for (const pts of [near, far]) {
    assert.ok(
      cutLegs(pts).some((l) => l.arrival),
      'the flag alone takes it as a landing',
    );
    assert.ok(
      cutLegs(pts, { fields }).every((l) => !l.arrival && !l.departure),
      JSON.stringify(cutLegs(pts, { fields })),
    );
  }
  // the same flags after coming down from 1,500 ft far from any field (an unknown strip) stay a landing
  const landing = along([
    [2400, 60, 20],
    [2100, 55, 20.1],
    [1800, 50, 20.2],
    [1500, 45, 20.3],
    [1300, 42, 20.35],
    ['ground', 30, 20.4],
    ['ground', 20, 20.45],
    ['ground', 10, 20.5],
    ['ground', 5, 20.5],
    ['ground', 0, 20.5],
  ]);
  assert.ok(cutLegs(landing, { fields })[0]!.arrival, 'cutLegs(landing, { fields })[0]!.arrival');
});

test('a brief ground reading far from any field, long after the last airborne report, is a glitch, not a landing', () => {
  const pts = along([
    [8000, 200, 40],
    [8000, 200, 41],
    [8000, 200, 42],
    [8000, 200, 43],
  ]);
  pts.push({ t: T0 + 600, lat: FIELD.lat, lon: FIELD.lon + 1, alt: 'ground', gs: 0 });
  assert.ok(cutLegs(pts)[0]!.arrival, 'the flag alone takes it as a landing');
  assert.equal(cutLegs(pts, { fields })[0]!.arrival, null);
});

test('late ground flag (ac671b into MSP): the landing is placed at touchdown, 10-30 s before the first flag', () => {
  const tr = ac671b();
  const legs = cutLegs(tr.points, { fields: fieldsOf(loadProjectLocator()) });
  const first = legs.find((l) => l.arrival)!;
  const flag = Date.parse('2025-02-05T01:12:26Z') / 1000;
  // readsb's points at 01:12:04 and 01:12:14 read 175-200 ft (MSP's pressure altitude that day) at 123-130 kt
  assert.ok(first.arrival!.at <= flag - 10 && first.arrival!.at >= flag - 30, `arrival ${new Date(first.arrival!.at * 1000).toISOString()}`);
  assert.ok(Math.abs(cutLegs(tr.points).find((l) => l.arrival)!.arrival!.at - flag) < 1, 'without fields: at the flag');
});

test('a ground flag stuck for 80 s in flight at 55 kt stays flight: the 88nv tow plane keeps two flights', () => {
  const legs = cutLegs(positionStream('88nv_20230829_1hr').get('a9ddb5')!, { fields: fieldsOf(loadProjectLocator()) });
  assert.equal(legs.filter((l) => l.departure).length, 2);
  assert.equal(legs.filter((l) => l.arrival).length, 2);
});

test('first heard 870 ft over the field, then 200 ft higher over it 96 s later (125 ft/min): passing over, no take-off (Monterey-2 TIS-B ~2b383d)', () => {
  const pts = along([[1770, 60, 1.6]]);
  pts.push({ ...pts[0]!, t: pts[0]!.t + 96, lon: FIELD.lon, alt: 1970, gs: null });
  assert.ok(cutLegs(pts, { fields, firstClimbFpm: 0 })[0]!.departure, 'without a climb rate it is taken for a take-off');
  assert.equal(cutLegs(pts, { fields })[0]!.departure, null);
  // the same two readings 20 s apart (600 ft/min) are a climb-out
  pts[1]!.t = pts[0]!.t + 20;
  assert.equal(cutLegs(pts, { fields })[0]!.departure!.at, pts[0]!.t);
});

test('a helicopter hovering 200 ft over the field at 25 kt, then heard on the ground 175 ft lower after a 230 s gap: it set down in the gap, not where it hovered (Monterey a81f3c)', () => {
  const pts = along([
    [2000, 80, 3],
    [1700, 70, 2.5],
    [1400, 60, 2],
    [1200, 50, 1.5],
    [1125, 26, 0.3],
    [1100, 25, 0.2],
    [1100, 24, 0.15],
  ]);
  // 230 s unheard, then on the ground (20 ft over the elevation), air-taxiing at 10-20 kt
  const down = along([
    [920, 10, 0.1],
    [925, 15, 0.08],
    [920, 20, 0.05],
    [920, 8, 0.05],
    [920, 0, 0.05],
  ]).map((p) => ({ ...p, t: p.t + 30 + 230 }));
  const all = [...pts, ...down];
  assert.equal(cutLegs(all, { fields, hoverS: 0 })[0]!.arrival!.at, pts[4]!.t, 'without the check it is down where it hovered');
  assert.equal(cutLegs(all, { fields })[0]!.arrival!.at, down[0]!.t);
});

test('first heard on short final at 47-49 kt, 115 ft up and descending onto the runway: a landing, not a flag flapping on the ground (Monterey aa34f1)', () => {
  const pts = along([
    [1015, 0, 0.4],
    [940, 47, 0.3],
    [915, 49, 0.2],
    [865, 47, 0.1],
    [865, 42, 0.05],
    [890, 37, 0],
    [890, 35, -0.05],
    [890, 20, -0.1],
    [890, 10, -0.12],
  ]);
  pts[0]!.gs = null;
  assert.equal(cutLegs(pts, { fields }).length, 1, JSON.stringify(cutLegs(pts, { fields })));
  const leg = cutLegs(pts, { fields })[0]!;
  assert.ok(leg.arrival && leg.arrival.at <= pts[3]!.t, JSON.stringify(leg));
});

test('a ground flag stuck through the take-off roll and the climb, broken by readings 600-730 ft above the field: the lift-off is where that climb meets the field, not where the flag ends (88NV tow plane a9ddb5)', () => {
  const rows: [TrackPoint['alt'], number, number][] = [];
  const km = (i: number) => -1 + i * 0.08;
  for (const gs of [5, 8, 10, 8, 6, 10, 20, 30, 40, 47, 52, 56]) rows.push(['ground', gs, km(rows.length)]); // taxi, roll
  for (let i = 0; i < 9; i++) rows.push(['ground', 55, km(rows.length)]); // airborne, the flag stuck
  for (const alt of [1500, 1565, 1630]) rows.push([alt, 58, km(rows.length)]); // 600-730 ft up, 13 ft/s
  for (let i = 0; i < 12; i++) rows.push(['ground', 54, km(rows.length)]);
  for (let i = 0; i < 10; i++) rows.push([2500 + 65 * i, 62, km(rows.length)]);
  const pts = along(rows);
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 1);
  // lift-off extrapolated: 600 ft at 13.3 ft/s before the first reading (t+105) is t+60, point 12
  assert.equal(legs[0]!.departure!.at, pts[12]!.t, JSON.stringify(legs[0]));
});

test("a ground run judged against the field's elevation plus a pressure error: entered from 2,000 ft 5 s before it is a flag, from 350 ft a landing", () => {
  // monterey-0602 a69c56: 2,075 ft at 206 kt, 5 s later "ground" at 195-110 kt for 100 s, then the trace ends
  const stuck = along([
    ...approach(3500, 6, 206).map(([, gs, km]): [number, number, number] => [2900, gs, km]),
    ...Array.from({ length: 20 }, (_, i): [TrackPoint['alt'], number, number] => ['ground', 195 - 4.5 * i, 0.9 - 0.1 * i]),
  ]);
  assert.equal(cutLegs(stuck, { fields }).at(-1)!.arrival, null, 'no descent reaches the field in 5 s');
  // like the noisy sim's airliners (EDDM: 290 ft above the elevation, 4 s later ground flags from 140 kt): 350 ft, 5 s
  const rows: [TrackPoint['alt'], number, number][] = [
    ...approach(2500, 12, 150),
    [1250, 150, 0.05],
    ...Array.from({ length: 12 }, (_, i): [TrackPoint['alt'], number, number] => ['ground', Math.max(14, 140 - 20 * i), -0.1 - 0.05 * Math.min(i, 6)]),
  ];
  const landing = along(rows);
  assert.ok(cutLegs(landing, { fields })[0]!.arrival, 'the landing is found');
  assert.equal(cutLegs(landing, { fields, fieldPressureFt: 0 })[0]!.arrival, null, 'against the bare elevation it is taken for a flag');
});
