// artifact keys mirror the URLs they answer (spec 4.2), e.g. v1/airframes/4b1814; the layout is the
// contract table in schemas/artifact-kinds.ts.
// on disk each object is <version>/<key>.gz (gzip bytes): a key may be both an object and a
// "folder" (v1/alliances/star and v1/alliances/star/routes), and nginx's gzip_static finds <uri>.gz.
// in object storage the key is used as it is, with Content-Encoding: gzip.

import { ARTIFACT_KINDS, fillTemplate, type ArtifactKindName } from '../schemas/artifact-kinds.ts';

const HEX = /^[0-9a-f]{6}$/;
const IATA = /^[A-Z0-9]{3}$/;
const ICAO_AIRPORT = /^[A-Z0-9]{4}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// callsigns: up to 8 characters of A-Z and 0-9 (ICAO Doc 8585 telephony designator + flight id)
const CALLSIGN = /^[A-Z0-9]{2,8}$/;
const AIRLINE = /^[A-Z]{3}$/;
const TYPE = /^[A-Z0-9]{2,4}$/;
const IDENT = /^[A-Z0-9-]{2,12}$/;

// every key comes from the contract table (schemas/artifact-kinds.ts); these are its typed spellings
const fill = (kind: ArtifactKindName, ...parts: string[]) => fillTemplate(ARTIFACT_KINDS[kind].key, parts);

export const keys = {
  airframe: (hex: string) => fill('airframe', hex),
  airport: (code: string) => fill('airport', code),
  alliance: (slug: string) => fill('alliance', slug),
  allianceRoutes: (slug: string) => fill('allianceRoutes', slug),
  route: (callsign: string) => fill('route', callsign),
  flights: (hex: string, date: string) => fill('flights', hex, date),
  movements: (code: string, date: string) => fill('movements', code, date),
  refAircraft: (hex: string) => fill('refAircraft', hex),
  refAirlines: () => fill('refAirlines'),
  refAirline: (icao: string) => fill('refAirline', icao),
  refSchedule: (icao: string, org: string, dst: string) => fill('refSchedule', icao, org, dst),
  refType: (designator: string) => fill('refType', designator),
  refAirport: (ident: string) => fill('refAirport', ident),
  routesTable: () => fill('routesTable'),
  lookup: () => fill('lookup'),
  catalogRoutes: () => fill('catalogRoutes'),
  boardBlocks: () => fill('boardBlocks'),
  flow: () => fill('flow'),
  paths: () => fill('paths'),
  accuracy: () => fill('accuracy'),
};

/** Normalised key parts, or null when malformed. Case-insensitive where the spec says so. */
export const normalise = {
  hex: (s: string) => (HEX.test(s.toLowerCase()) ? s.toLowerCase() : null),
  airportCode: (s: string) => {
    const u = s.toUpperCase();
    return IATA.test(u) || ICAO_AIRPORT.test(u) ? u : null;
  },
  slug: (s: string) => (SLUG.test(s.toLowerCase()) && s.length <= 64 ? s.toLowerCase() : null),
  callsign: (s: string) => {
    const u = s.trim().toUpperCase();
    return CALLSIGN.test(u) ? u : null;
  },
  airline: (s: string) => (AIRLINE.test(s.toUpperCase()) ? s.toUpperCase() : null),
  type: (s: string) => (TYPE.test(s.toUpperCase()) ? s.toUpperCase() : null),
  ident: (s: string) => (IDENT.test(s.toUpperCase()) ? s.toUpperCase() : null),
};

/** On-disk file of a key inside a version directory. */
export const fileOf = (key: string) => `${key}.gz`;

/** Keys must be safe relative paths: no empty, dot or dot-dot segments. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) || key.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`unsafe artifact key ${JSON.stringify(key)}`);
  }
}
