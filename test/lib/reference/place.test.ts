import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UNKNOWN_CLASS, classOfType, type AircraftClass } from '../../../lib/reference/aircraft-class.ts';
import type { Airport } from '../../../lib/reference/airports.ts';
import { buildLocator } from '../../../lib/reference/locate.ts';
import { buildPlacer } from '../../../lib/reference/place.ts';
import { runwayEnds, type GroundContact } from '../../../lib/reference/runway-fit.ts';
import type { Runway } from '../../../lib/reference/runways.ts';
import { EWR_AIRPORTS, EWR_RUNWAYS, SONOMA_AIRPORTS, SONOMA_RUNWAYS, offset } from '../../helpers/runway-rows.ts';

// the VRS model-type rows of these designators (data/ref/vrs-standing-data/model-type.csv): species, engine type, wake
const B789 = classOfType({ species: 'L', engine_type: 'J', wake: 'H' });
const B738 = classOfType({ species: 'L', engine_type: 'J', wake: 'M' });
const C172 = classOfType({ species: 'L', engine_type: 'P', wake: 'L' });
const S76 = classOfType({ species: 'H', engine_type: 'T', wake: 'L' });
const DHC2_FLOATS = classOfType({ species: 'S', engine_type: 'P', wake: 'L' });

const placer = (airports: Airport[], runways: Runway[]) => buildPlacer(buildLocator(airports, runways), runways);
const ewr = placer(EWR_AIRPORTS, EWR_RUNWAYS);
const ewrLocator = buildLocator(EWR_AIRPORTS, EWR_RUNWAYS);
const end29 = runwayEnds(EWR_RUNWAYS)
  .get('KEWR')!
  .find((e) => e.ident === '29')!;
const place = (p: ReturnType<typeof buildPlacer>, c: GroundContact, cls: AircraftClass) => {
  const r = p.place(c, cls);
  return r ? `${r.airport.ident} ${r.runway ?? '-'}` : null;
};

describe('UAL15: a 787-9 landing beside Newark is placed at KEWR, never at the Port Newark Helistop', () => {
  // last heard on 29's extended centreline 450 m before its threshold (a few hundred feet up), 170 m
  // from the 0NJ8 helistop's reference point and 450 m from the nearest Newark runway
  const short = { kind: 'landing' as const, ...offset(end29.lat, end29.lon, end29.heading, -450), track: 275 };

  it('the point is one the old rule (nearest match) gives to the heliport', () => {
    assert.equal(ewrLocator.locate(short.lat, short.lon)?.ident, '0NJ8');
  });

  it('is KEWR runway 29 when the track is known', () => {
    assert.equal(place(ewr, short, B789), 'KEWR 29');
  });

  it('is KEWR, runway unknown, when no runway fits (no track)', () => {
    assert.equal(place(ewr, { ...short, track: null }, B789), 'KEWR -');
  });

  it('is KEWR even on the heliport itself, where Newark is 0.6 km away', () => {
    assert.equal(place(ewr, { kind: 'landing', lat: EWR_AIRPORTS[1]!.lat, lon: EWR_AIRPORTS[1]!.lon, track: null }, B789), 'KEWR -');
  });

  it('a 787 beside a heliport with no usable field within a few km is placed nowhere', () => {
    const pad = { ...EWR_AIRPORTS[1]!, ident: 'PAD1', lat: 40.75, lon: -74.1 }; // a pad 6 km from Newark's runways
    const p = placer([...EWR_AIRPORTS, pad], EWR_RUNWAYS);
    assert.equal(place(p, { kind: 'landing', lat: 40.75, lon: -74.1, track: null }, B789), null);
    assert.equal(place(p, { kind: 'landing', lat: 40.75, lon: -74.1, track: null }, S76), 'PAD1 -', 'a helicopter lands there');
  });
});

describe("the aircraft's class decides which fields it can use", () => {
  it('a helicopter landing at the heliport stays at the heliport, whatever runway final it crossed', () => {
    const pad = EWR_AIRPORTS[1]!;
    assert.equal(place(ewr, { kind: 'landing', lat: pad.lat, lon: pad.lon, track: 275 }, S76), '0NJ8 -');
    // and one on Newark's runway is at Newark, with the runway
    const on29 = { kind: 'landing' as const, ...offset(end29.lat, end29.lon, end29.heading, 600), track: 275 };
    assert.equal(place(ewr, on29, S76), 'KEWR 29');
  });

  it('a Cessna at a 1,513 ft strip stays there, with its runway; a 737 is not placed there', () => {
    const sonoma = placer(SONOMA_AIRPORTS, SONOMA_RUNWAYS);
    const e35 = runwayEnds(SONOMA_RUNWAYS)
      .get('0Q3')!
      .find((e) => e.ident === '35')!;
    const c = { kind: 'landing' as const, ...offset(e35.lat, e35.lon, e35.heading, 150, 3), track: 0 };
    assert.equal(place(sonoma, c, C172), '0Q3 35');
    assert.equal(place(sonoma, c, UNKNOWN_CLASS), '0Q3 35', 'an aircraft of unknown type too');
    assert.equal(place(sonoma, c, B738), null, 'a medium jet needs 3,000 ft');
  });

  it('a floatplane is placed only at a seaplane base or a field with a water runway', () => {
    const sonoma = placer(SONOMA_AIRPORTS, SONOMA_RUNWAYS);
    const c = { kind: 'landing' as const, lat: SONOMA_AIRPORTS[0]!.lat, lon: SONOMA_AIRPORTS[0]!.lon, track: null };
    assert.equal(place(sonoma, c, DHC2_FLOATS), null);
    const base = { ...SONOMA_AIRPORTS[0]!, ident: 'SEA1', kind: 'seaplane_base' };
    assert.equal(place(placer([base], []), c, DHC2_FLOATS), 'SEA1 -');
    assert.equal(place(placer([base], []), c, C172), null, 'no seaplane base for a landplane');
  });

  it('keeps the old rule for an aircraft of unknown type at a point no runway fits (the heliport is nearest)', () => {
    const short = { kind: 'landing' as const, ...offset(end29.lat, end29.lon, end29.heading, -450), track: null };
    assert.equal(place(ewr, short, UNKNOWN_CLASS), '0NJ8 -');
  });
});

describe('class of a type', () => {
  it('reads species, engine type and wake', () => {
    assert.deepEqual(B789, { surface: 'land', minRunwayFt: 5000 });
    assert.deepEqual(B738, { surface: 'land', minRunwayFt: 3000 });
    assert.deepEqual(C172, { surface: 'land', minRunwayFt: 0 });
    assert.deepEqual(S76, { surface: 'rotor', minRunwayFt: 0 });
    assert.deepEqual(DHC2_FLOATS, { surface: 'sea', minRunwayFt: 0 });
    assert.deepEqual(classOfType({ species: 'A', engine_type: 'T', wake: 'M' }), { surface: 'amphibian', minRunwayFt: 0 });
    assert.deepEqual(classOfType(null), UNKNOWN_CLASS);
    assert.deepEqual(classOfType({ species: null, engine_type: null, wake: null }), { surface: 'land', minRunwayFt: 0 });
  });
});
