// every history route of spec 4.2, answered from the published artifact tree (server/history/history-store.ts).
// one generic handler: normalise the path key (422 when malformed), find the object, pass its gzip
// bytes through; a missing object is 404 not_found (unknown to the reference data) or not_observed
// (a real thing the network has not heard), decided per route below.
import { createHash } from 'node:crypto';
import { invalidRequest, notFound, notObserved } from '../../lib/errors.ts';
import { keys, normalise } from '../../artifacts/keys.ts';
import { isDay } from '../../lib/localtime.ts';
import { ARTIFACT_KINDS, routePattern, type ArtifactKindName } from '../../schemas/artifact-kinds.ts';
import type { HistoryStore, Loaded } from '../history/history-store.ts';
import type { Req, Route } from '../http/types.ts';

export interface HistoryDeps {
  history: HistoryStore;
  /** true when the hex lies in an allocated ICAO address block (lib/reference code blocks) */
  isKnownHex: (hex: string) => boolean;
}

type Key = { key: string; what: string };

// the stored bytes of an object never change: its validator is hashed once per cached buffer
const etags = new WeakMap<Buffer, string>();
function etagOf(gz: Buffer): string {
  let e = etags.get(gz);
  // weak: the gzip and the identity answer are the same document in two encodings
  if (!e) etags.set(gz, (e = `W/"${createHash('sha1').update(gz).digest('base64url')}"`));
  return e;
}
type Resolve = (p: Record<string, string>, l: Loaded) => Key;
type Missing = (p: Record<string, string>, l: Loaded, k: Key) => Error;

function need<T>(value: T | null, detail: string): T {
  if (value === null) throw invalidRequest(detail);
  return value;
}

const hexOf = (p: Record<string, string>) =>
  need(normalise.hex(p.hex ?? ''), `hex must be 6 hexadecimal characters, e.g. 4b1814; got ${JSON.stringify(p.hex)}`);
const airlineOf = (s: string | undefined) => need(normalise.airline(s ?? ''), `airline must be a 3-letter ICAO code, e.g. SWR; got ${JSON.stringify(s)}`);
const slugOf = (s: string | undefined) => need(normalise.slug(s ?? ''), 'alliance slug must be lower-case words joined by -, e.g. star-alliance');
const airportOf = (s: string | undefined) =>
  need(normalise.airportCode(s ?? ''), `airport must be an IATA (3) or ICAO (4) code, e.g. ZRH or LSZH; got ${JSON.stringify(s)}`);

const dayOf = (p: Record<string, string>) =>
  need(isDay(p.date ?? '') ? p.date! : null, `date must be a UTC day YYYY-MM-DD, e.g. 2025-02-05; got ${JSON.stringify(p.date)}`);

/** the route of one artifact kind: its URL and bucket come from the contract (schemas/artifact-kinds.ts) */
function artifactRoute(
  kind: ArtifactKindName,
  deps: HistoryDeps,
  resolve: Resolve,
  missing: Missing,
  url = ARTIFACT_KINDS[kind].url,
  objectOf: (k: Key) => Buffer | null = (k) => deps.history.object(k.key),
): Route {
  const { bucket } = ARTIFACT_KINDS[kind];
  if (!url || !bucket) throw new Error(`artifact kind ${kind} has no public URL`);
  return {
    pattern: routePattern(url),
    bucket,
    handler: (req: Req) => {
      const l = deps.history.require();
      const k = resolve(req.params, l);
      const gz = objectOf(k);
      if (!gz) throw missing(req.params, l, k);
      return { body: { gz }, etag: etagOf(gz) };
    },
  };
}

const plainMissing: Missing = (_p, _l, k) => notFound(`no ${k.what} is known`);

export function historyRoutes(deps: HistoryDeps): Route[] {
  const airframe: Resolve = (p) => {
    const hex = hexOf(p);
    return { key: keys.airframe(hex), what: `airframe ${hex}` };
  };
  const airframeMissing: Missing = (p, _l, k) =>
    deps.isKnownHex(hexOf(p))
      ? notObserved(`${k.what}: the network has not heard this address in the archive window`)
      : notFound(`${k.what}: the address lies in no allocated ICAO block`);
  return [
    artifactRoute('airframe', deps, airframe, airframeMissing),
    // the spec's overview spells it singular; both are served
    ...(ARTIFACT_KINDS.airframe.aliases ?? []).map((url) => artifactRoute('airframe', deps, airframe, airframeMissing, url)),
    artifactRoute(
      'airport',
      deps,
      (p) => {
        // the build writes every airport under its IATA and its ICAO code, so both are plain keys
        const code = airportOf(p.code);
        return { key: keys.airport(code), what: `airport ${code}` };
      },
      (_p, _l, k) => notFound(`${k.what} is not an airport with an IATA code in the reference data`),
    ),
    artifactRoute(
      'flights',
      deps,
      (p) => {
        const hex = hexOf(p);
        const date = dayOf(p);
        return { key: keys.flights(hex, date), what: `flights of ${hex} on ${date}` };
      },
      // an airframe the archive knows (it has its document) flew nothing heard that day; else unknown
      (p, _l, k) =>
        deps.history.object(keys.airframe(hexOf(p)))
          ? notObserved(`${k.what}: the network heard no flight of this airframe on that UTC day`)
          : notFound(`${k.what}: the network has not heard this address in the archive window`),
    ),
    artifactRoute(
      'movements',
      deps,
      (p) => {
        const code = airportOf(p.code);
        const date = dayOf(p);
        return { key: keys.movements(code, date), what: `movements at ${code} on ${date}` };
      },
      // an airport the archive serves (it has its document, under either spelling) heard nothing that day; else unknown
      (p, _l, k) =>
        deps.history.object(keys.airport(airportOf(p.code)))
          ? notObserved(`${k.what}: the network heard no take-off or landing at this airport on that UTC day`)
          : notFound(`${k.what}: not an airport with an IATA code in the reference data`),
    ),
    artifactRoute('alliance', deps, (p) => ({ key: keys.alliance(slugOf(p.slug)), what: `alliance ${slugOf(p.slug)}` }), plainMissing),
    artifactRoute('allianceRoutes', deps, (p) => ({ key: keys.allianceRoutes(slugOf(p.slug)), what: `alliance ${slugOf(p.slug)}` }), plainMissing),
    artifactRoute(
      'route',
      deps,
      (p) => {
        const cs = need(normalise.callsign(p.callsign ?? ''), `callsign must be 2 to 8 letters or digits, e.g. SWR123`);
        // catalog-only routes are keyed by the catalog's spelling (EZY12 for EZY012)
        return { key: deps.history.route(cs)?.key ?? cs, what: `route for ${cs}` };
      },
      (p, l, k) => {
        const prefix = (p.callsign ?? '').toUpperCase().slice(0, 3);
        return l.lookup?.airlines.includes(prefix)
          ? notObserved(`${k.what}: the network has not observed this flight and the checked catalog has no answer`)
          : notFound(`${k.what}: not an airline callsign known to the reference data, and never observed`);
      },
      undefined,
      // the stored file, or a catalog-only route's document built from the routes table (docs/api.md)
      (k) => deps.history.routeObject(k.key),
    ),
    artifactRoute(
      'refAircraft',
      deps,
      (p) => ({ key: keys.refAircraft(hexOf(p)), what: `aircraft ${p.hex}` }),
      (p, _l, k) =>
        deps.isKnownHex(hexOf(p)) ? notObserved(`${k.what}: no registry row and not observed`) : notFound(`${k.what}: in no allocated ICAO block`),
    ),
    artifactRoute('refAirlines', deps, () => ({ key: keys.refAirlines(), what: 'airline list' }), plainMissing),
    artifactRoute('refAirline', deps, (p) => ({ key: keys.refAirline(airlineOf(p.icao)), what: `airline ${p.icao}` }), plainMissing),
    artifactRoute(
      'refSchedule',
      deps,
      (p) => {
        const icao = airlineOf(p.icao);
        const org = need(normalise.airportCode(p.org ?? ''), 'org must be an IATA airport code, e.g. ZRH');
        const dst = need(normalise.airportCode(p.dst ?? ''), 'dst must be an IATA airport code, e.g. JFK');
        return { key: keys.refSchedule(icao, org, dst), what: `schedule of ${icao} ${org}-${dst}` };
      },
      (_p, _l, k) => notObserved(`${k.what}: no departures observed on this leg in the archive window`),
    ),
    artifactRoute(
      'refType',
      deps,
      (p) => {
        const t = need(normalise.type(p.designator ?? ''), 'designator must be an ICAO type designator of 2 to 4 letters or digits, e.g. A320');
        return { key: keys.refType(t), what: `type ${t}` };
      },
      plainMissing,
    ),
    artifactRoute(
      'refAirport',
      deps,
      (p) => {
        const ident = need(normalise.ident(p.ident ?? ''), 'ident must be an OurAirports ident, e.g. LSZH');
        return { key: keys.refAirport(ident), what: `airport ${ident}` };
      },
      plainMissing,
    ),
  ];
}
