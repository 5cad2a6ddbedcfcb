// the airport's classification (field `class`): commercial, general, military or closed.
// the open dataset says what an airport is meant to be; observation can overrule it only with
// enough traffic to be more than a handful of visits. rule, first match wins:
//   1. closed      the dataset's type is `closed`
//   2. military    >= MIN_MOVEMENTS observed movements and more than half by military-block hexes
//   3. commercial  the dataset says scheduled_service = yes
//   4. military    the name says so (Air Base, AFB, RAF, Naval, Army, ...)
//   5. commercial  >= MIN_MOVEMENTS observed movements and at least half with airline callsigns
//   6. general     everything else
// (3 before 4: joint civil/military fields with scheduled service, e.g. "... Airport / Air Base
// Karup", are commercial.)

export type AirportClass = 'commercial' | 'general' | 'military' | 'closed';

/** fewest observed movements (departures + arrivals, circuits excluded) before traffic can classify */
export const MIN_MOVEMENTS = 20;

// acronyms are matched case-sensitively, words in any case
const MILITARY_ACRONYM = /\b(?:AFB|RAF|RNAS|NAS|NAF|MCAS|ANGB|ARB|JRB|AAF)\b/;
const MILITARY_WORDS = /\b(?:air ?base|air force|naval|navy|army|military)\b/i;

export interface ClassInput {
  /** OurAirports type, e.g. large_airport, closed */
  kind: string;
  name: string;
  scheduled_service: boolean;
  /** observed movements in the window, circuits excluded */
  movements: number;
  /** of those, by aircraft whose hex lies in a military ICAO block */
  military: number;
  /** of those, with an airline callsign (known airline ICAO prefix + flight number) */
  airline: number;
}

export const militaryName = (name: string) => MILITARY_ACRONYM.test(name) || MILITARY_WORDS.test(name);

export function classify(x: ClassInput): AirportClass {
  if (x.kind === 'closed') return 'closed';
  const enough = x.movements >= MIN_MOVEMENTS;
  if (enough && x.military * 2 > x.movements) return 'military';
  if (x.scheduled_service) return 'commercial';
  if (militaryName(x.name)) return 'military';
  if (enough && x.airline * 2 >= x.movements) return 'commercial';
  return 'general';
}
