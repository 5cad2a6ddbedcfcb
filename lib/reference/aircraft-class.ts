// what kind of field an aircraft can use, from its ICAO type (VRS model-type: species, engine type,
// wake category). the rule is in lib/reference/README.md
// ("Airport of a take-off or landing").

/** land: runways only; sea: water only; amphibian: either; rotor: any field, pads too; unknown: no type known */
type Surface = 'land' | 'sea' | 'amphibian' | 'rotor' | 'unknown';

export interface AircraftClass {
  surface: Surface;
  /** ft. the shortest runway this class is placed on: a floor well under any real operation of the
   * class, so that it only rules out fields the aircraft cannot use (a 787 at a 75-ft helipad) */
  minRunwayFt: number;
}

export const UNKNOWN_CLASS: AircraftClass = { surface: 'unknown', minRunwayFt: 0 };

/** the type fields the class is read from (lib/reference/types.ts TypeInfo) */
interface TypeFields {
  species: string | null;
  engine_type: string | null;
  wake: string | null;
}

// runway floors, ft. heavy and super jets (wake H, J): the shortest fields they use are about
// 6,000 ft (a 787 or a C-17 needs less only in exceptional cases); medium jets (A320, 737, E-jets,
// large business jets) 3,000-4,000 ft (London City is 4,948); light jets and medium turboprops
// 2,000 ft and more. pistons, light turboprops and gliders: no floor (strips of a few hundred feet)
const HEAVY_FT = 5000;
const MEDIUM_JET_FT = 3000;
const LIGHT_JET_FT = 2000;
const MEDIUM_TURBOPROP_FT = 2000;

/** The class of an ICAO type (null: not known). */
export function classOfType(t: TypeFields | null): AircraftClass {
  if (!t) return UNKNOWN_CLASS;
  const species = t.species ?? '';
  if (species === 'H' || species === 'G' || species === 'T') return { surface: 'rotor', minRunwayFt: 0 };
  const surface: Surface = species === 'S' ? 'sea' : species === 'A' ? 'amphibian' : 'land';
  const wake = t.wake ?? '';
  const jet = t.engine_type === 'J';
  let minRunwayFt = 0;
  if (wake === 'H' || wake === 'J' || wake === 'M/H') minRunwayFt = jet ? HEAVY_FT : MEDIUM_TURBOPROP_FT;
  else if (wake === 'M') minRunwayFt = jet ? MEDIUM_JET_FT : t.engine_type === 'T' ? MEDIUM_TURBOPROP_FT : 0;
  else if (jet) minRunwayFt = LIGHT_JET_FT;
  // a seaplane's "runway" is water: no floor read from runway lengths
  return { surface, minRunwayFt: surface === 'land' ? minRunwayFt : 0 };
}
