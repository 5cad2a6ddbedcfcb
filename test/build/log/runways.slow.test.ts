// the runway ends the flight log records (dep_runway, arr_runway) on real traces, placed as the nightly
// places them (build/log/airfields.ts over the whole data/ref: slow, it loads the reference data and a
// day of the Monterey grid). the columns' round trip: runway-columns.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { airframeLegs, type LegRow } from '../../../build/log/legs.ts';
import { parseTraceFull } from '../../../lib/readsb-trace.ts';
import { ac671b } from '../../helpers/history.ts';
import { loadProjectAirfields } from '../../helpers/detector-sources.ts';
import { positionStream, sampleTrace } from '../../helpers/traffic.ts';
import { fieldsOf } from '../../../lib/reference/fields.ts';

process.env.TZ = 'UTC';

const END = Date.parse('2025-02-07T00:00:00Z') / 1000;
const { locator, locate } = loadProjectAirfields();
const legOpts = { carryS: 4 * 3600, detector: { fields: fieldsOf(locator) } };
const cut = (hex: string, type: string | null, points: ReturnType<typeof parseTraceFull>['points'], dayEnd = END) =>
  airframeLegs({ hex, reg: null, type, carry: null, points, dayEnd }, locate, legOpts).rows;
const ends = (rows: LegRow[]) => rows.map((r) => [r.org, r.dep_runway, r.dst, r.arr_runway]);

describe('the runway of each take-off and landing, read from real traces', () => {
  it('the Delta 737-900 ac671b: 12R, 12L, 12R and 17 at MSP, 26 at DEN', () => {
    // worked out from the trace against OurAirports' runway ends (the along/across figures are the contact
    // point in the end's frame: m past the threshold, m right of the centreline; track: mean over the window):
    // - 01:12 landing at 44.8868,-93.2319, track 121: 202 m past 12R's threshold, 2 m off its centreline
    //   (12R/30L heading 122); 12L's centreline lies 1 km to the north-east, 04/22 and 17/35 cross at other headings
    // - 03:44 take-off, track 122: 1,896 m down 12L, 3 m off its centreline (12L heading 121)
    // - 17:00 landing, track 121: 705 m past 12R's threshold, 4 m off; 04/22 297 m away at 45 degrees off
    // - 18:14 take-off, track 170: 1,702 m down 17, 10 m off (17/35 heading 170); 04 at 45 degrees
    // - 19:54 landing at DEN, track 270.5: 202 m past 26's threshold, 4 m off (26 heading 271)
    const t = parseTraceFull(ac671b());
    assert.deepEqual(ends(cut(t.hex, t.type, t.points)), [
      [null, null, 'KMSP', '12R'],
      ['KMSP', '12L', null, null],
      [null, null, 'KMSP', '12R'],
      ['KMSP', '17', 'KDEN', '26'],
    ]);
  });

  it('the Cessna 172 aa178d in circuits at the 88NV desert strip: 23R when its take-off runs beside it, else null', () => {
    // 88NV's playa runways 5L/23R and 5R/23L (heading 237-240, 75 ft wide) lie 390 m apart. the take-offs
    // run on tracks 244-246, 48-89 m north-west of 23R's centreline and 390 m from 23L's: 23R for the first
    // four; the fifth runs 124 m off (beyond the 37 m half width + 90 m margin: too far to call) and the sixth
    // reports no steady track: null. the landings report no track in their last 30 s (the trace holds
    // none there): null. the field is 88NV throughout.
    const t = sampleTrace('aa178d');
    const rows = cut(t.hex, t.type, t.points, Date.parse('2023-08-31T00:00:00Z') / 1000);
    const deps = rows.filter((r) => r.dep_ts !== null);
    assert.deepEqual(
      deps.map((r) => [r.org, r.dep_runway]),
      [
        ['88NV', '23R'],
        ['88NV', '23R'],
        ['88NV', '23R'],
        ['88NV', '23R'],
        ['88NV', null],
        ['88NV', null],
      ],
    );
    assert.ok(
      rows.filter((r) => r.arr_ts !== null).every((r) => r.dst === '88NV' && r.arr_runway === null),
      'landings at 88NV, runway unknown',
    );
  });

  it('a jet landing at Monterey on the long runway 10R, not the short parallel 10L', () => {
    // a8cefa, 16:28, last heard at 175 ft and 141 kt on track 113 (the grid has no ground flag): 138 m past
    // 10R's threshold, 8 m off its centreline; 10L/28R (3,503 ft) is parallel, 139 m to the side and still
    // 962 m before its own threshold: the offset decides
    const rows = cut('a8cefa', null, positionStream('grid_20250601_36_-122').get('a8cefa')!, Date.parse('2025-06-02T00:00:00Z') / 1000);
    const landing = rows.find((r) => r.arr_ts === Date.parse('2025-06-01T16:28:17Z') / 1000);
    assert.deepEqual(landing && [landing.dst, landing.arr_runway], ['KMRY', '10R']);
  });
});
