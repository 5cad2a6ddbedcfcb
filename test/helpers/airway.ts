// a synthetic dog-leg airway for the traffic-flow tests: east along 47 N from 4 E to 8 E, then
// north; one point every 10 s at 450 kt and 36,000 ft, as a cruising aircraft reports.
import { destinationPoint } from '../../lib/geo.ts';
import { emptyFlow, learnFlow, type FlowField, type FlowPoint } from '../../lib/estimate/flow.ts';

export const AIRWAY_GS = 450;

/** one flight along the airway; past 8 E it turns onto `branch` (degrees; the airway's is north) */
export function dogLeg(t0: number, latOffset = 0, branch = 0): FlowPoint[] {
  const pts: FlowPoint[] = [];
  let p = { lat: 47 + latOffset, lon: 4 };
  for (let t = 0; t < 3600; t += 10) {
    const track = p.lon < 8 ? 90 : branch;
    pts.push({ t: t0 + t, lat: p.lat, lon: p.lon, alt: 36000, gs: AIRWAY_GS, track, rate: 0 });
    p = destinationPoint(p.lat, p.lon, track, (AIRWAY_GS * 10) / 3600);
  }
  return pts;
}

/** a field learned from 12 flights along the airway a few km apart, a day before `t` */
export function airwayFlow(t: number): { field: FlowField; n: number } {
  const field = emptyFlow();
  const n = learnFlow(
    field,
    Array.from({ length: 12 }, (_, i) => dogLeg(t - 86_400 + i * 600, (i - 6) * 0.01)),
  );
  return { field, n };
}
