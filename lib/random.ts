// the project's one source of seeded randomness (simulator, tests, benchmarks): a mulberry32
// stream plus a stateless hash
// (splitmix-style) so that "what happens to airframe X on day D" never depends on the order in
// which other airframes or days were simulated. Math.random is never used.

/** the state a hash starts from: hash32() of no parts */
export const HASH_START = 0x9e3779b9;

/** a 32-bit integer hash of any number of integers and strings (murmur3 finaliser mixing) */
export function hash32(...parts: (number | string)[]): number {
  let h = HASH_START;
  for (const p of parts) h = hashOn(h, p);
  return h >>> 0;
}

/**
 * hash32 continued by one more part: hashOn(hash32(a, b), c) === hash32(a, b, c). a hot loop hashes
 * the key's fixed prefix once and each suffix from there, without an array a call (sim/observe.ts).
 */
export function hashOn(h: number, p: number | string): number {
  if (typeof p === 'number') {
    // split doubles into two 32-bit halves so large unix times and seeds mix fully
    h = mix(h ^ (p >>> 0));
    return mix(h ^ Math.floor(p / 4294967296));
  }
  for (let i = 0; i < p.length; i++) h = mix(h ^ p.charCodeAt(i));
  return h >>> 0;
}

/** unit() of a hash: unitOf(hash32(...parts)) === unit(...parts) */
export const unitOf = (h: number): number => (h >>> 0) / 4294967296;

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** a uniform number in [0, 1) from a key */
export const unit = (...parts: (number | string)[]): number => hash32(...parts) / 4294967296;

export interface Rng {
  /** uniform [0, 1) */
  next(): number;
  /** integer in [0, n) */
  int(n: number): number;
  /** uniform [a, b) */
  range(a: number, b: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: uniform [0, 1) from a 32-bit seed; period 2^32, plenty for a fleet or a test */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** a seeded stream keyed by any numbers and strings */
export function rng(...seed: (number | string)[]): Rng {
  const next = mulberry32(hash32(...seed));
  return {
    next,
    int: (n) => Math.floor(next() * n),
    range: (a, b) => a + next() * (b - a),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}
