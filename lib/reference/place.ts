// the airport (and runway end) a take-off or landing is placed at: among the airports near the point
// that the aircraft's class can use, the one whose runway fits where and how it met the ground.
// rule, in order (lib/reference/README.md "Airport of a take-off or landing"):
// 1. a usable airport with a runway end that fits (runway-fit.ts): that airport and end; ends of two
//    airports that fit alike go to locate's tie rule, and the runway is null;
// 2. else locate's rule (locate.ts) among the usable airports, runway null;
// 3. else, when the point is at a field the class cannot use (locate would place it there), the nearest
//    usable airport within FALLBACK_KM (an airliner's landing heard beside a helipad), runway null;
// 4. else null.
// a helicopter can use any field, pads included: it is placed by locate's rule first (the pad it is at,
// not the runway whose final it crossed), and given a runway end only when one of that field's fits.
import type { Airport } from './airports.ts';
import type { AircraftClass } from './aircraft-class.ts';
import { TIE_KM, preferred, type AirportLocator, type Around } from './locate.ts';
import { fitRunway, runwayEnds, type GroundContact, type RunwayEnd } from './runway-fit.ts';
import type { Runway } from './runways.ts';

interface Placed {
  airport: Airport;
  /** the runway end's designator (27R), null when no runway fits well or two fit alike */
  runway: string | null;
}

/** km: how far from a usable field a contact is still placed there when nothing nearer can take it */
const FALLBACK_KM = 3.0;

/** what the placement knows of an airport's runways */
interface Strips {
  ends: RunwayEnd[];
  /** ft: the longest runway (OurAirports length, else from the ends' positions); 0 when none is known */
  longestFt: number;
  /** a water runway is listed */
  water: boolean;
}

interface Placer {
  place(c: GroundContact, cls: AircraftClass): Placed | null;
}

const NO_STRIPS: Strips = { ends: [], longestFt: 0, water: false };
const WATER_RE = /^(W|WAT|WATER)/i;
const M_FT = 1 / 0.3048;

export function buildPlacer(locator: AirportLocator, runways: readonly Runway[]): Placer {
  const ends = runwayEnds(runways);
  const strips = new Map<string, Strips>();
  for (const r of runways) {
    if (r.closed) continue;
    const s = strips.get(r.airport_ident) ?? { ends: ends.get(r.airport_ident) ?? [], longestFt: 0, water: false };
    strips.set(r.airport_ident, s);
    const located = s.ends.find((e) => e.ident === (r.le_ident ?? ''));
    s.longestFt = Math.max(s.longestFt, r.length_ft ?? (located ? located.lengthM * M_FT : 0));
    if (r.surface && WATER_RE.test(r.surface)) s.water = true;
  }
  return {
    place(c, cls) {
      const around = locator.around(c.lat, c.lon);
      const near = around.filter((n) => usable(n.airport, strips.get(n.airport.ident) ?? NO_STRIPS, cls));
      if (near.length === 0) return null;
      if (cls.surface === 'rotor') {
        const at = tieBreak(near.filter((n) => n.matchKm !== null));
        if (at) {
          const own = fitRunway(c, strips.get(at.airport.ident)?.ends ?? []);
          return { airport: at.airport, runway: own.kind === 'fit' ? own.end.ident : null };
        }
      }
      const fit = fitRunway(
        c,
        near.flatMap((n) => strips.get(n.airport.ident)?.ends ?? []),
      );
      const byIdent = (ident: string) => near.find((n) => n.airport.ident === ident)!;
      if (fit.kind === 'fit') return { airport: byIdent(fit.end.airport).airport, runway: fit.end.ident };
      if (fit.kind === 'ambiguous') {
        const airports = [...new Set(fit.ends.map((e) => e.airport))].map(byIdent);
        return { airport: tieBreak(airports.map((a) => ({ ...a, matchKm: a.km })))!.airport, runway: null };
      }
      const matched = tieBreak(near.filter((n) => n.matchKm !== null));
      if (matched) return { airport: matched.airport, runway: null };
      const unusable = around.some((n) => n.matchKm !== null && !near.includes(n));
      const nearest = near[0]!;
      return unusable && nearest.km <= FALLBACK_KM ? { airport: nearest.airport, runway: null } : null;
    },
  };
}

/** locate's rule over these: the nearest, and within TIE_KM of it scheduled service, then the bigger kind */
function tieBreak(list: readonly Around[]): Around | null {
  let nearest = Infinity;
  for (const n of list) nearest = Math.min(nearest, n.matchKm!);
  let best: Around | null = null;
  for (const n of list) {
    if (n.matchKm! > nearest + TIE_KM) continue;
    if (!best || preferred(n.airport, n.matchKm!, best.airport, best.matchKm!)) best = n;
  }
  return best;
}

/** whether an aircraft of this class can use the airport */
function usable(a: Airport, s: Strips, cls: AircraftClass): boolean {
  switch (cls.surface) {
    case 'rotor':
    case 'unknown':
      return true;
    case 'sea':
      return a.kind === 'seaplane_base' || s.water;
    case 'amphibian':
      return a.kind !== 'heliport' && a.kind !== 'balloonport';
    case 'land':
      if (a.kind === 'heliport' || a.kind === 'balloonport' || a.kind === 'seaplane_base') return false;
      return cls.minRunwayFt === 0 || s.longestFt >= cls.minRunwayFt;
  }
}
