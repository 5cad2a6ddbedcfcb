// one small simulator world per test process: the shipped reference data with the first 40,000
// catalog routes (the whole catalog takes ~7 s to parse). seeded; never the real clock.
import { loadWorld, type World } from '../../sim/world.ts';
import { createSky, type Sky } from '../../sim/sky.ts';

let world: World | null = null;
export function testWorld(): World {
  world ??= loadWorld({ ref: 'data/ref', routeRows: 40000 });
  return world;
}

export const SEED = 42;
/** 2025-06-02T14:00:00Z: a busy hour over Europe and North America */
export const T = Date.parse('2025-06-02T14:00:00Z') / 1000;

export function testSky(fleet: number, seed = SEED): Sky {
  return createSky({ ref: 'data/ref', seed, fleet, routeRows: 40000 }, testWorld());
}
