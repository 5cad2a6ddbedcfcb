// the flight-log fields a test row without positions carries (build/log/legs.ts LegRow): ends not
// heard, nothing flown, no track. rows that need positions give their own.
import type { LegRow } from '../../build/log/legs.ts';

export const NO_POSITIONS = {
  dep_lat: null,
  dep_lon: null,
  arr_lat: null,
  arr_lon: null,
  distance_km: 0,
  max_alt_ft: null,
  circuit: false,
  track: [],
} as const satisfies Partial<LegRow>;
