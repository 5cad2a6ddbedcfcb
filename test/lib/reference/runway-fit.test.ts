import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APPROACH_M, contactTrack, fitRunway, runwayEnds, type GroundContact } from '../../../lib/reference/runway-fit.ts';
import { ATL_RUNWAYS, EWR_RUNWAYS, offset } from '../../helpers/runway-rows.ts';

const atl = runwayEnds(ATL_RUNWAYS).get('KATL')!;
const end = (ident: string) => atl.find((e) => e.ident === ident)!;
const at = (kind: GroundContact['kind'], ident: string, along: number, right: number, track: number | null): GroundContact => {
  const e = end(ident);
  return { kind, ...offset(e.lat, e.lon, e.heading, along, right), track };
};
const fitted = (c: GroundContact) => {
  const f = fitRunway(c, atl);
  return f.kind === 'fit' ? f.end.ident : f.kind;
};

describe('runway ends from OurAirports rows', () => {
  it('gives both ends of each located runway, with the heading from the positions; pads and unlocated rows give none', () => {
    const ends = runwayEnds(EWR_RUNWAYS);
    assert.deepEqual([...ends.keys()], ['KEWR'], 'the 0NJ8 helipad has one located point: no runway');
    const ewr = ends.get('KEWR')!;
    assert.deepEqual(ewr.map((e) => e.ident).sort(), ['11', '22L', '22R', '29', '4L', '4R']);
    // OurAirports' own headings: 4R 26, 22L 206, 29 275 (degrees true)
    const h = (id: string) => ewr.find((e) => e.ident === id)!.heading;
    assert.ok(Math.abs(h('4R') - 26) < 2 && Math.abs(h('22L') - 206) < 2 && Math.abs(h('29') - 275) < 2, `${h('4R')} ${h('22L')} ${h('29')}`);
  });
});

describe('the runway end a contact fits', () => {
  it('tells the parallels 27L and 27R (320 m apart) apart by the offset from each centreline', () => {
    assert.equal(fitted(at('landing', '27R', 500, 10, 270)), '27R');
    assert.equal(fitted(at('landing', '27L', 500, -15, 271)), '27L');
    assert.equal(fitted(at('takeoff', '27L', 2200, 5, 269)), '27L');
  });

  it('reads the direction from the track: the same point landing west is 27R, landing east 09L', () => {
    const p = at('landing', '27R', 1500, 0, 270);
    assert.equal(fitted(p), '27R');
    assert.equal(fitted({ ...p, track: 90 }), '09L');
    assert.equal(fitted({ ...p, track: 180 }), 'none', 'a track across the runway fits no end');
    assert.equal(fitted({ ...p, track: null }), 'none', 'no track, no runway');
  });

  it('fits a landing heard only down to a few hundred feet, projected along the track onto the extended centreline', () => {
    assert.equal(fitted(at('landing', '27R', -2000, 30, 270)), '27R');
    assert.equal(fitted(at('landing', '27R', -(APPROACH_M + 200), 0, 270)), 'none', 'too far out on final');
    // a take-off is first heard beyond the far end, not before the threshold
    assert.equal(fitted(at('takeoff', '27R', -2000, 30, 270)), 'none');
    assert.equal(fitted(at('takeoff', '27R', end('27R').lengthM + 2000, 30, 270)), '27R');
  });

  it('gives no runway for a ground point off every runway', () => {
    // landing west, the right is north: 27L lies 320 m south of 27R
    assert.equal(fitted(at('landing', '27R', 1000, -160, 270)), 'none', 'half way between the parallels, on the ground');
    assert.equal(fitted(at('landing', '27R', 1000, 200, 270)), 'none', '200 m north of 27R');
  });

  it('calls two parallels that fit alike ambiguous, never a guess', () => {
    // 1.5 km out on 27R's final (2.4 km on 27L's: its threshold lies 880 m further west), midway between
    // the two extended centrelines: both fit, by the same offset
    const f = fitRunway(at('landing', '27R', -1500, -160, 270), atl);
    assert.equal(f.kind, 'ambiguous');
    assert.deepEqual(f.kind === 'ambiguous' ? f.ends.map((e) => e.ident).sort() : [], ['27L', '27R']);
  });
});

describe('the track of a contact', () => {
  const pts = (tracks: (number | null)[], heading = 270) => tracks.map((track, i) => ({ t: 1000 + i * 5, ...offset(33.6347, -84.4, heading, i * 300), track }));

  it('is the mean of the reported tracks around the contact', () => {
    const t = contactTrack(pts([268, 270, 272, 270, 269, 271]), 3, 'landing')!;
    assert.ok(Math.abs(t - 270) < 1, String(t));
    // across north: 358 and 2 average to 0, not 180
    const n = contactTrack(pts([358, 2, 359, 1]), 2, 'landing')!;
    assert.ok(n < 1 || n > 359, String(n));
  });

  it('is null when the window turns (base to final, a turn-off)', () => {
    assert.equal(contactTrack(pts([180, 220, 250, 270, 270, 270]), 5, 'landing'), null);
  });

  it('is the bearing of the positions when no track is reported, null when they do not move', () => {
    const t = contactTrack(pts([null, null, null, null], 90), 2, 'takeoff')!;
    assert.ok(Math.abs(t - 90) < 1, String(t));
    const still = [0, 1, 2].map((i) => ({ t: 1000 + i * 5, lat: 33.6, lon: -84.4, track: null }));
    assert.equal(contactTrack(still, 1, 'landing'), null);
  });
});
