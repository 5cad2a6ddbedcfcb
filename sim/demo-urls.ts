// the demo's URLs to try, one per kind of resource, from what the live feed and the build actually
// hold. two sets, printed at two moments (sim/demo.ts): the live ones once the server has caught up
// with the feed, the history ones once the nightly build is published and loaded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openLog } from '../build/log/read.ts';
import { parseAlliances } from '../lib/reference/alliances.ts';
import type { Sky } from './sky.ts';

export interface Place {
  iata: string;
  lat: number;
  lon: number;
}

interface FeedRecord {
  hex: string;
  alt_baro?: unknown;
  lat?: number;
  lon?: number;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
/** the box the aircraft URL asks for: 6° of longitude by 4° of latitude around a place */
const inBox = (p: Place, a: FeedRecord) => a.lat !== undefined && a.lon !== undefined && Math.abs(a.lat - p.lat) <= 2 && Math.abs(a.lon - p.lon) <= 3;

/**
 * The airport the live URLs centre on: of the airports the simulated fleet flies from and to, the
 * one with the most aircraft of this snapshot in its box (ties: the first by IATA code).
 */
export function livePlace(sky: Pick<Sky, 'fleet'>, aircraft: readonly FeedRecord[]): Place | null {
  const airports = new Map<string, Place>();
  for (const af of sky.fleet) {
    for (const r of [...af.outs, ...af.backs]) {
      for (const a of [r.org, r.dst]) if (a.iata && !airports.has(a.iata)) airports.set(a.iata, { iata: a.iata, lat: a.lat, lon: a.lon });
    }
  }
  let best: Place | null = null;
  let most = -1;
  for (const p of [...airports.values()].sort((a, b) => (a.iata < b.iata ? -1 : 1))) {
    const n = aircraft.filter((a) => inBox(p, a)).length;
    if (n > most) [best, most] = [p, n];
  }
  return best;
}

/** live URLs: the present snapshot's aircraft around the busiest place, a trace, the stations, the docs */
export function liveUrls(sky: Pick<Sky, 'fleet'>, feedFile: string): { urls: string[]; place: Place | null } {
  const doc = JSON.parse(readFileSync(feedFile, 'utf8')) as { aircraft: FeedRecord[] };
  const place = livePlace(sky, doc.aircraft);
  const aloft = doc.aircraft.filter((a) => typeof a.alt_baro === 'number' && a.lat !== undefined);
  // a trace of an aircraft inside the box, so the map there shows it too
  const traced = (place && aloft.find((a) => inBox(place, a))) ?? aloft[0];
  const urls = ['/v1/now'];
  if (place) {
    const bbox = [r1(place.lon - 3), r1(place.lat - 2), r1(place.lon + 3), r1(place.lat + 2)].join(',');
    urls.push(`/v1/aircraft?bbox=${bbox}`, `/v2/point/${r1(place.lat)}/${r1(place.lon)}/100`);
  } else {
    urls.push('/v1/aircraft');
  }
  if (traced) urls.push(`/v1/trace/${traced.hex}`);
  urls.push('/v1/stations', '/docs');
  return { urls, place };
}

/** how many of the most flown callsigns are tried, in order, for the route URL */
const ROUTE_CANDIDATES = 20;

/**
 * History URLs from the flight log the build read: the airframe with the most legs, the callsign
 * that flew one route most often (the first of those whose route answers: a GA tail number flying
 * many routes has no single route, docs/demo.md), the busiest airport with an IATA code, the first
 * alliance; then the estimates and the map, which use the build's routes and learned paths.
 */
export async function historyUrls(
  logDir: string,
  ref: string,
  byIdent: ReadonlyMap<string, { iata: string | null }>,
  mapAt: Place | null,
  answers: (path: string) => Promise<boolean>,
): Promise<string[]> {
  const l = await openLog(logDir, { threads: 1 });
  let hex = '';
  let callsign = '';
  let airport = '';
  try {
    const [af] = await l.rows('SELECT hex, count(*) AS n FROM legs WHERE org IS NOT NULL AND dst IS NOT NULL GROUP BY hex ORDER BY n DESC, hex LIMIT 1');
    hex = String(af?.hex ?? '');
    const flown = await l.rows(
      `SELECT callsign, max(n) AS n FROM (SELECT callsign, count(*) AS n FROM legs
         WHERE callsign IS NOT NULL AND org IS NOT NULL AND dst IS NOT NULL AND org <> dst GROUP BY callsign, org, dst)
       GROUP BY callsign ORDER BY n DESC, callsign LIMIT ${ROUTE_CANDIDATES}`,
    );
    for (const r of flown) {
      if (!(await answers(`/v1/route/${String(r.callsign)}`))) continue;
      callsign = String(r.callsign);
      break;
    }
    const busiest = await l.rows('SELECT org, count(*) AS n FROM legs WHERE org IS NOT NULL AND org <> dst GROUP BY org ORDER BY n DESC, org LIMIT 20');
    airport = busiest.map((b) => byIdent.get(String(b.org))?.iata).find((iata) => iata) ?? '';
  } finally {
    l.close();
  }
  const alliance = parseAlliances(readFileSync(join(ref, 'alliances.json'))).alliances[0]?.slug ?? 'star-alliance';
  return [
    ...(hex ? [`/v1/airframes/${hex}`] : []),
    ...(airport ? [`/v1/airports/${airport}`] : []),
    ...(callsign ? [`/v1/route/${callsign}`] : []),
    `/v1/alliances/${alliance}`,
    '/v1/estimated',
    // the first-party map (tier map), where the live URLs look
    mapAt ? `/#7/${r1(mapAt.lat)}/${r1(mapAt.lon)}` : '/',
  ];
}
