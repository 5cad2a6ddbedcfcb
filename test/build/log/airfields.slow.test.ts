// the log step's airfields (build/log/airfields.ts): the slim tables the leg workers build their
// locator from answer as the full OurAirports locator does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { airfieldTables, logAirfields } from '../../../build/log/airfields.ts';
import { fieldsOf, loadAirfieldRows } from '../../../lib/reference/fields.ts';
import { buildLocator } from '../../../lib/reference/locate.ts';
import { installed } from '../../../lib/install.ts';
import { mulberry32 } from '../../../lib/random.ts';

/** seeded points at real fields, just beside them and anywhere */
function points(): [number, number][] {
  const rnd = mulberry32(7);
  const at: [number, number][] = [
    [37.6188, -122.375],
    [51.4706, -0.4619],
    [40.757303, -119.212861],
    [44.880081, -93.221741],
    [-33.9461, 151.1772],
  ];
  const out: [number, number][] = [...at];
  for (const [lat, lon] of at) for (let k = 0; k < 200; k++) out.push([lat + (rnd() - 0.5) * 0.12, lon + (rnd() - 0.5) * 0.12]);
  for (let i = 0; i < 3000; i++) out.push([rnd() * 140 - 60, rnd() * 360 - 180]);
  return out;
}

test("the slim airfield tables make a locator with the full one's idents and field heights", () => {
  const rows = loadAirfieldRows(installed('data/ref'));
  const full = buildLocator(rows.airports, rows.runways);
  const tables = airfieldTables(rows.airports, rows.runways);
  assert.ok(tables.airports.length < rows.airports.length, 'closed airports are left out');
  assert.ok(
    tables.airports.every((a) => a.name === '' && a.kind !== 'closed'),
    'only what the locator reads is kept',
  );
  const slim = logAirfields(tables);
  const fullFields = fieldsOf(full);
  let located = 0;
  for (const [lat, lon] of points()) {
    const want = full.locate(lat, lon)?.ident ?? null;
    // with no track and no type, the placement is locate's rule (lib/reference/place.ts)
    assert.equal(slim.locate({ kind: 'landing', lat, lon, track: null }, null)?.ident ?? null, want, `locate at ${lat}, ${lon}`);
    assert.deepEqual(slim.legs!.detector!.fields!(lat, lon), fullFields(lat, lon), `field at ${lat}, ${lon}`);
    if (want) located++;
  }
  assert.ok(located > 100, `the sample reaches real fields (${located})`);
});
