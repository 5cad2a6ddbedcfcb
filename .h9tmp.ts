import { testSky, T, testWorld } from './test/sim/world.ts';
import { stateAt } from './sim/fly.ts';
import { distanceNm } from './lib/geo.ts';
process.env.TZ = 'UTC';
const sky = testSky(600);
const world = testWorld();
const t0 = performance.now();
let checked = 0;
for (const af of sky.fleet.slice(0, 150)) {
  for (const f of sky.schedule.flightsIn(af, T - 43200, T + 43200)) {
    let prev: any = null;
    for (let dt = 0; dt <= f.plan.duration; dt += 15) {
      const s = stateAt(f.plan, dt)!;
      checked++;
      if (!(s.gs >= 0 && s.gs <= 600)) console.log('gs', s.gs);
      if (s.alt === 'ground') {
        const at = world.locator.locate(s.lat, s.lon);
        if (!at) console.log('noat');
        else if (!(at.ident === f.org.ident || at.ident === f.dst.ident || distanceNm(at.lat, at.lon, f.org.lat, f.org.lon) < 3 || distanceNm(at.lat, at.lon, f.dst.lat, f.dst.lon) < 3)) console.log('other airport', at.ident, f.org.ident, f.dst.ident);
      } else {
        if (!(s.alt >= -1500 && s.alt <= af.perf.cruiseFt + 100)) console.log('alt', s.alt, af.perf.type);
        if (!(Math.abs(s.rate) <= 4500)) console.log('rate', s.rate, af.perf.type, dt, f.plan.offAt, f.plan.onAt);
      }
      if (prev && !(distanceNm(prev.lat, prev.lon, s.lat, s.lon) <= (600 * 15) / 3600 + 0.01)) console.log('jump', distanceNm(prev.lat, prev.lon, s.lat, s.lon), dt, f.plan.offAt, f.plan.onAt, af.perf.type);
      prev = s;
    }
  }
}
console.log(checked, performance.now() - t0);
