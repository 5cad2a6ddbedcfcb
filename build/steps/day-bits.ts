// a key's distinct log days as one bitstring (DuckDB BIT): a ring of `ring` bits, at least the
// window's longest length (the windowDays option), where day D sets bit (D - 1970-01-01) mod ring.
// the days of a window are consecutive and at most `ring`, so no two share a bit; a day that
// leaves the window leaves it whole, so clearing its bit is exact whatever the key's legs on other
// days. counted days are the bits set (bit_count), and the days of several keys together their OR.
// a state file holds the bits as a BLOB (Parquet has no BIT type: DuckDB writes BIT as text); a
// BLOB becomes whole bytes of bits again, so the ring is a multiple of 8 and the cast is exact.
import { dayIndexOf } from '../../lib/localtime.ts';

/** the largest window the options allow (windowDays 1..3660) */
const MAX_WINDOW = 3660;

/** PURE: the ring of day bits for windows of at most `windowLimit` days: that, up to a multiple of 8 */
export function dayRing(windowLimit: number): number {
  if (!Number.isInteger(windowLimit) || windowLimit < 1 || windowLimit > MAX_WINDOW)
    throw new RangeError(`a window of 1..${MAX_WINDOW} days, not ${windowLimit}`);
  return Math.ceil(windowLimit / 8) * 8;
}

function checkRing(ring: number): void {
  if (!Number.isInteger(ring) || ring < 8 || ring % 8 !== 0 || ring > dayRing(MAX_WINDOW))
    throw new RangeError(`a day ring is a multiple of 8 bits up to ${dayRing(MAX_WINDOW)}, not ${ring}`);
}

/** SQL aggregate: the day bits of the DATE expression `day` over a group */
export function dayBitsAgg(day: string, ring: number): string {
  checkRing(ring);
  return `bitstring_agg(((((${day} - DATE '1970-01-01') % ${ring}) + ${ring}) % ${ring})::INTEGER, 0, ${ring - 1})`;
}

/** PURE: SQL: a BIT literal with every bit set but those of `days` (ISO dates): `bits & mask` clears them */
export function clearMask(days: readonly string[], ring: number): string {
  checkRing(ring);
  const bits = new Array<string>(ring).fill('1');
  for (const d of days) bits[((dayIndexOf(d) % ring) + ring) % ring] = '0';
  return `'${bits.join('')}'::BIT`;
}

/** SQL: the bits as a state file stores them, and back */
export const bitsToBlob = (col: string) => `${col}::BLOB`;
export const blobToBits = (col: string) => `${col}::BIT`;
